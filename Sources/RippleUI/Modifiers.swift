import Foundation
import RippleCore  // LockedValue

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
            if old != value { node.reconciler.afterThisPass { action(old, value) } }
        } else if initial {
            node.reconciler.afterThisPass { action(value, value) }
        }
    }
}

/// `.onReceive(_:perform:)`: subscribed while the node is in the tree.
///
/// As in SwiftUI, each value runs the action of the newest evaluation, and a publisher that differs
/// from the previous one (compared as the render tree compares view inputs: `==`, the same object,
/// the same bits) is subscribed in place of the old one.
public struct _OnReceive<Content: View, P: Publisher>: _PrimitiveView where P.Failure == Never {
    let content: Content
    let publisher: P
    let action: (P.Output) -> Void

    public func _children() -> [_Child] { [_Child(content, key: 0)] }

    public func _update(node: _NodeHandle, previous: _OnReceive?) {
        if let previous, let receiver = node.modifierState as? OnReceiveState<P.Output> {
            receiver.setAction(action)
            guard !sameValue(previous.publisher, publisher) else { return }
            receiver.subscribe(to: publisher)
            return
        }
        (node.modifierState as? any Cancellable)?.cancel()
        let receiver = OnReceiveState<P.Output>(action: action)
        node.modifierState = receiver
        receiver.subscribe(to: publisher)
    }
}

/// What an `onReceive` keeps in its node: the newest action and the current subscription.
final class OnReceiveState<Output>: Cancellable, @unchecked Sendable {
    private struct State {
        var action: ((Output) -> Void)?
        var subscription: AnyCancellable?
    }

    private let state: LockedValue<State>

    init(action: @escaping (Output) -> Void) {
        state = LockedValue(State(action: action))
    }

    func setAction(_ action: @escaping (Output) -> Void) {
        let old = state.withLock { state -> ((Output) -> Void)? in
            guard state.action != nil else { return nil }
            defer { state.action = action }
            return state.action
        }
        _ = old
    }

    /// Subscribes to `publisher` in place of the current subscription.
    func subscribe<P: Publisher>(to publisher: P) where P.Output == Output, P.Failure == Never {
        let old = state.withLock { state -> AnyCancellable? in
            defer { state.subscription = nil }
            return state.subscription
        }
        old?.cancel()
        let subscription = publisher.sink { [weak self] value in
            guard let self, let action = self.state.withLock({ $0.action }) else { return }
            action(value)
        }
        let replaced = state.withLock { state -> AnyCancellable? in
            guard state.action != nil else { return subscription }  // cancelled meanwhile
            defer { state.subscription = subscription }
            return state.subscription
        }
        replaced?.cancel()
    }

    /// Stops receiving: nothing runs after this returns.
    func cancel() {
        let (action, subscription) = state.withLock { state -> (((Output) -> Void)?, AnyCancellable?) in
            defer { state = State() }
            return (state.action, state.subscription)
        }
        subscription?.cancel()
        _ = action
    }
}
