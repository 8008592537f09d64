import Foundation

// Focused values: a view publishes a value with `.focusedValue(_:_:)` while focus is in it (the
// focused field is the view or below it); `@FocusedValue` and `@FocusedBinding` anywhere in the
// tree read what the focused view's ancestors published (the innermost wins), and re-run when it
// changes — what an app's commands and toolbars use. The tree works them out after each gesture.

/// A key for a value a focused view publishes (SwiftUI's `FocusedValueKey`).
public protocol FocusedValueKey {
    /// The type of the value.
    associatedtype Value
}

/// The values the focused view and its ancestors publish (SwiftUI's `FocusedValues`): extend it
/// with a property per key, as with `EnvironmentValues`.
public struct FocusedValues {
    var values: [ObjectIdentifier: Any] = [:]

    /// No values.
    public init() {}

    /// The value for `key`, if the focused view or an ancestor published one.
    public subscript<Key: FocusedValueKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether both hold the same keys with the same values (``ValueLayout``'s rules).
    func same(as other: FocusedValues) -> Bool {
        values.count == other.values.count
            && values.allSatisfy { key, value in other.values[key].map { sameValue(value, $0) } ?? false }
    }
}

/// The tree's focused values, read by `@FocusedValue` and `@FocusedBinding` (tracked: a change
/// re-runs their readers).
final class FocusedValuesStore: @unchecked Sendable {
    let storage = StateStorage(FocusedValues())
}

private struct FocusedValuesStoreKey: EnvironmentKey {
    static let defaultValue: FocusedValuesStore? = nil
}

extension EnvironmentValues {
    /// The tree's focused values.
    var focusedValuesStore: FocusedValuesStore? {
        get { self[FocusedValuesStoreKey.self] }
        set { self[FocusedValuesStoreKey.self] = newValue }
    }
}

/// `.focusedValue(_:_:)`: publishes a value while focus is in the content.
public struct _FocusedValueWriter<Content: View>: _PrimitiveView {
    let content: Content
    let write: (inout FocusedValues) -> Void
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A focused-value writer, for the tree.
@MainActor protocol _FocusedValuePublisher {
    var write: (inout FocusedValues) -> Void { get }
}

extension _FocusedValueWriter: _FocusedValuePublisher {}

extension View {
    /// Publishes `value` under `keyPath` while focus is in this view (its field, or one below it).
    public func focusedValue<Value>(_ keyPath: WritableKeyPath<FocusedValues, Value?>, _ value: Value) -> some View {
        _FocusedValueWriter(content: self) { $0[keyPath: keyPath] = value }
    }

    /// Publishes `value` under `keyPath` while focus is in this view (nothing when `nil`).
    public func focusedValue<Value>(_ keyPath: WritableKeyPath<FocusedValues, Value?>, _ value: Value?) -> some View {
        _FocusedValueWriter(content: self) { $0[keyPath: keyPath] = value }
    }
}

/// Where a focused-value wrapper finds the tree's values.
final class FocusedLink: @unchecked Sendable {
    var store: FocusedValuesStore?
}

/// Reads the value the focused view published under a key (SwiftUI's `FocusedValue`): `nil`
/// while no focused view publishes one.
@propertyWrapper
public struct FocusedValue<Value>: DynamicProperty, NodeInstallable {
    let keyPath: KeyPath<FocusedValues, Value?>
    private let link = FocusedLink()

    /// Reads the value at `keyPath`.
    public init(_ keyPath: KeyPath<FocusedValues, Value?>) { self.keyPath = keyPath }

    /// The focused view's value, if any.
    public var wrappedValue: Value? { link.store?.storage.value[keyPath: keyPath] }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        link.store = node.environment.focusedValuesStore
    }
}

/// Reads and writes through the binding the focused view published under a key (SwiftUI's
/// `FocusedBinding`): `nil` while no focused view publishes one; a write then does nothing.
@propertyWrapper
public struct FocusedBinding<Value>: DynamicProperty, NodeInstallable {
    let keyPath: KeyPath<FocusedValues, Binding<Value>?>
    private let link = FocusedLink()

    /// Reads the binding at `keyPath`.
    public init(_ keyPath: KeyPath<FocusedValues, Binding<Value>?>) { self.keyPath = keyPath }

    /// The bound value, if a focused view publishes a binding.
    public var wrappedValue: Value? {
        get { binding?.wrappedValue }
        nonmutating set {
            if let newValue { binding?.wrappedValue = newValue }
        }
    }

    /// A binding to the optional bound value.
    public var projectedValue: Binding<Value?> {
        let current = self
        return Binding(get: { current.wrappedValue }, set: { current.wrappedValue = $0 })
    }

    private var binding: Binding<Value>? { link.store?.storage.value[keyPath: keyPath] }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        link.store = node.environment.focusedValuesStore
    }
}

extension RenderTree {
    /// Works out the focused values: the writers above the focused field, outermost first (the
    /// innermost wins), and stores them when they changed (their readers re-run at the next
    /// flush).
    func refreshFocusedValues() -> Bool {
        guard let store = rootEnvironment.focusedValuesStore else { return false }
        var values = FocusedValues()
        // No writer in the tree: the values are empty wherever the focus is (finding the focused
        // field walks every control on screen, which a tap among 1,000 rows must not).
        focusedValueWriters.removeAll { $0.node?.attached != true }
        if !focusedValueWriters.isEmpty, let field = focusedFieldNode() {
            var writers: [any _FocusedValuePublisher] = []
            var current: _NodeHandle? = field
            while let node = current {
                if let writer = node.view as? any _FocusedValuePublisher { writers.append(writer) }
                current = node.parent
            }
            for writer in writers.reversed() { writer.write(&values) }
        }
        if store.storage.untrackedValue.same(as: values) { return false }
        store.storage.value = values
        return true
    }
}
