import Foundation

extension View {
    /// Binds the view's identity to `id`: when the id changes, the view is a new view (its node
    /// and state start fresh), as in SwiftUI.
    public func id<ID: Hashable>(_ id: ID) -> some View {
        _IdentifiedView(content: self, id: AnyHashable(id))
    }

    /// Sets the environment value at `keyPath` for this view and its descendants.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        _EnvironmentWriter(content: self) { $0[keyPath: keyPath] = value }
    }

    /// Supplies an observable object to this view's descendants (`@EnvironmentObject`).
    public func environmentObject<T: ObservableObject>(_ object: T) -> some View {
        _EnvironmentWriter(content: self) { $0.objects[ObjectIdentifier(T.self)] = object }
    }

    /// Performs `action` when `value` changes between two evaluations of this view (not on
    /// insertion), after the update, with the new value (SwiftUI's iOS 14 form).
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> some View {
        _OnChange(content: self, value: value, initial: false) { _, new in action(new) }
    }

    /// Performs `action` with the old and new value when `value` changes (and once on insertion
    /// when `initial` is true), after the update (SwiftUI's iOS 17 form).
    public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some View {
        _OnChange(content: self, value: value, initial: initial, action: action)
    }

    /// Performs `action` for every value `publisher` emits while this view is in the tree.
    public func onReceive<P: Publisher>(_ publisher: P, perform action: @escaping (P.Output) -> Void) -> some View
    where P.Failure == Never {
        _OnReceive(content: self, publisher: publisher, action: action)
    }
}

/// `.id(_:)`: the content's key among its siblings is the explicit id.
public struct _IdentifiedView<Content: View>: _PrimitiveView {
    let content: Content
    let id: AnyHashable
    public func _children() -> [_Child] { [_Child(content, key: id)] }
}

/// `.environment(_:_:)` and `.environmentObject(_:)`.
public struct _EnvironmentWriter<Content: View>: _PrimitiveView {
    let content: Content
    let transform: (inout EnvironmentValues) -> Void
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
    public func _applyEnvironment(to environment: inout EnvironmentValues) { transform(&environment) }
}

/// `.onChange(of:)`.
public struct _OnChange<Content: View, Value: Equatable>: _PrimitiveView {
    let content: Content
    let value: Value
    let initial: Bool
    let action: (Value, Value) -> Void

    public func _children() -> [_Child] { [_Child(content, key: 0)] }

    public func _update(node: _NodeHandle, previous: _OnChange?) {
        let action = self.action
        let value = self.value
        if let previous {
            let old = previous.value
            if old != value { node.tree.afterThisPass { action(old, value) } }
        } else if initial {
            node.tree.afterThisPass { action(value, value) }
        }
    }
}

/// `.onReceive(_:perform:)`: subscribed while the node is in the tree.
public struct _OnReceive<Content: View, P: Publisher>: _PrimitiveView where P.Failure == Never {
    let content: Content
    let publisher: P
    let action: (P.Output) -> Void

    public func _children() -> [_Child] { [_Child(content, key: 0)] }

    public func _update(node: _NodeHandle, previous: _OnReceive?) {
        guard previous == nil else { return }
        let action = self.action
        node.modifierState = publisher.sink { action($0) }
    }
}
