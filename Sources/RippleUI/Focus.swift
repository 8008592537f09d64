import Foundation

/// A property wrapper for the focus of the fields below the view (SwiftUI's `FocusState`): bind
/// it to fields with ``View/focused(_:)`` or ``View/focused(_:equals:)``. Setting it moves focus;
/// ``RenderTree/focus(_:matching:)`` on a field sets it, as a user's tap would.
@propertyWrapper
public struct FocusState<Value: Hashable>: DynamicProperty, NodeInstallable {
    private let initial: Value
    private let link = StateLink<Value>()

    /// A focus state that is `false` (nothing focused).
    public init() where Value == Bool { initial = false }
    /// A focus state that is `nil` (nothing focused).
    public init<T: Hashable>() where Value == T? { initial = nil }

    /// The focused value.
    public var wrappedValue: Value {
        get { link.current?.value ?? initial }
        nonmutating set { link.current?.value = newValue }
    }

    /// A binding to the focus, for ``View/focused(_:)``.
    public var projectedValue: Binding {
        let link = self.link
        let initial = self.initial
        return Binding(get: { link.current?.value ?? initial }, set: { link.current?.value = $0 })
    }

    /// A binding to a focus state.
    @propertyWrapper
    public struct Binding {
        let get: () -> Value
        let set: (Value) -> Void

        /// The focused value.
        public var wrappedValue: Value {
            get { get() }
            nonmutating set { set(newValue) }
        }

        /// This binding.
        public var projectedValue: Binding { self }
    }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        let storage = node.storage(at: slot) { StateStorage(initial) }
        link.current = storage
        storage.label = label
        node.name(storage, label)
    }
}

/// `.focused(_:)`, `.focused(_:equals:)`.
public struct _Focused<Content: View>: _PrimitiveView {
    let content: Content
    let isFocused: () -> Bool
    let focus: () -> Void
    let unfocus: () -> Void
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A focus binding site, for the test API.
@MainActor protocol _FocusSite {
    var isFocused: () -> Bool { get }
    var focus: () -> Void { get }
    var unfocus: () -> Void { get }
}

extension _Focused: _FocusSite {}

extension View {
    /// Binds the focus of the field below to `condition`: true while it has focus.
    public func focused(_ condition: FocusState<Bool>.Binding) -> some View {
        _Focused(
            content: self, isFocused: { condition.wrappedValue }, focus: { condition.wrappedValue = true },
            unfocus: { condition.wrappedValue = false })
    }

    /// Binds the focus of the field below to `binding`: equal to `value` while it has focus.
    public func focused<Value: Hashable>(_ binding: FocusState<Value>.Binding, equals value: Value) -> some View {
        _Focused(
            content: self, isFocused: { binding.wrappedValue == value }, focus: { binding.wrappedValue = value },
            unfocus: {})
    }

    /// Runs `action` when the user submits a field below (``RenderTree/submit(_:matching:)``).
    public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping () -> Void) -> some View {
        _OnSubmit(content: self, action: action)
    }
}

/// What submits (inert).
public struct SubmitTriggers: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates triggers from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Text fields.
    public static let text = SubmitTriggers(rawValue: 1)
    /// Search fields.
    public static let search = SubmitTriggers(rawValue: 2)
}

/// `.onSubmit(_:)`.
public struct _OnSubmit<Content: View>: _PrimitiveView {
    let content: Content
    let action: () -> Void
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A submit handler, for the test API.
@MainActor protocol _SubmitHandler {
    var action: () -> Void { get }
}

extension _OnSubmit: _SubmitHandler {}
