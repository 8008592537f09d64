/// A property wrapper type that can read and write a value owned by a source of truth.
///
/// Made by `$state`, by `$model.property` on an `@ObservedObject`/`@StateObject`, by
/// `Bindable(model).property`, by `.constant(_:)`, or by hand with `init(get:set:)`.
///
/// The projections Ripple makes (`$state`, `$object.property`, `Bindable`, dynamic-member paths)
/// skip a write whose value equals the current one (for `Equatable` values): a control that writes
/// the same text back — a text field gaining focus — does not report a change. A binding
/// made with `init(get:set:)` calls your setter for every write, as in SwiftUI.
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
    private let getter: () -> Value
    private let setter: (Value) -> Void
    /// What this binding points at, when known (a state's storage, an object and key path), so a
    /// view holding it compares equal to one holding the same binding.
    let identity: AnyHashable?

    /// Creates a binding with closures that read and write the binding value.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        getter = get
        setter = set
        identity = nil
    }

    init(identity: AnyHashable?, get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        getter = get
        setter = set
        self.identity = identity
    }

    /// Creates a binding from the projected value of another binding (`@Binding var x` set from `$y`).
    public init(projectedValue: Binding<Value>) {
        self = projectedValue
    }

    /// A binding to an immutable value: writes are ignored.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(identity: nil, get: { value }, set: { _ in })
    }

    /// The underlying value referenced by the binding.
    public var wrappedValue: Value {
        get { getter() }
        nonmutating set { setter(newValue) }
    }

    /// A projection of the binding value that returns a binding.
    public var projectedValue: Binding<Value> { self }

    /// A binding to the value at `keyPath` of this binding's value.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let parent = self
        return Binding<Subject>(
            identity: identity.map { AnyHashable(BindingPath(parent: $0, keyPath: keyPath)) },
            get: { parent.wrappedValue[keyPath: keyPath] },
            set: { newValue in
                if isSame(parent.wrappedValue[keyPath: keyPath], newValue) { return }
                var value = parent.wrappedValue
                value[keyPath: keyPath] = newValue
                parent.wrappedValue = value
            })
    }

    /// A binding that transforms this one's value both ways — e.g. a clamped value.
    ///
    /// ```swift
    /// let percent = $fraction.map(get: { Int($0 * 100) }, set: { Double($0) / 100 })
    /// ```
    public func map<T>(get: @escaping (Value) -> T, set: @escaping (T) -> Value) -> Binding<T> {
        let parent = self
        return Binding<T>(get: { get(parent.wrappedValue) }, set: { parent.wrappedValue = set($0) })
    }
}

/// Identity of a dynamic-member binding: its parent's identity and the key path.
struct BindingPath: Hashable {
    let parent: AnyHashable
    let keyPath: AnyKeyPath
}

/// Whether two values of the same type are equal — `false` when the type is not `Equatable`
/// (then every write counts as a change).
func isSame<T>(_ a: T, _ b: T) -> Bool {
    if let a = a as? any Equatable { return a.isEqual(to: b) }
    // A reference that is not Equatable is the same when it is the same instance (SwiftUI compares
    // such values by identity: writing a model object back into its `@State`, as a binding to one of
    // its properties does, is no change).
    if T.self is AnyObject.Type { return (a as AnyObject) === (b as AnyObject) }
    return false
}

extension Equatable {
    /// `self == other` when `other` has the same type.
    func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// A binding to `object[keyPath:]` that skips writes of an equal value.
func objectBinding<Object: AnyObject, Subject>(
    _ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Subject>
) -> Binding<Subject> {
    Binding(
        identity: AnyHashable(BindingPath(parent: ObjectIdentifier(object), keyPath: keyPath)),
        get: { object[keyPath: keyPath] },
        set: { newValue in
            if isSame(object[keyPath: keyPath], newValue) { return }
            object[keyPath: keyPath] = newValue
        })
}
