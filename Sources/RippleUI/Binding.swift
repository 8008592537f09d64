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
    /// The value when the binding was made (SwiftUI's value snapshot), when the source was read
    /// without making the maker depend on it: two bindings to the same source with different
    /// snapshots differ, so the view holding the new one re-runs. `nil` for a source whose readers
    /// depend on it by themselves (an `@Observable` model), and for bindings without an identity.
    let snapshot: Value?

    /// Creates a binding with closures that read and write the binding value.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        getter = get
        setter = set
        identity = nil
        snapshot = nil
    }

    init(identity: AnyHashable?, snapshot: Value?, get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        getter = get
        setter = set
        self.identity = identity
        self.snapshot = identity == nil ? nil : snapshot
    }

    /// Creates a binding from the projected value of another binding (`@Binding var x` set from `$y`).
    public init(projectedValue: Binding<Value>) {
        self = projectedValue
    }

    /// A binding to an immutable value: writes are ignored.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(identity: nil, snapshot: nil, get: { value }, set: { _ in })
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
            // A value's part is part of the snapshot; a property of an object is not (reading it
            // here would make the maker of this binding depend on it).
            snapshot: Value.self is AnyObject.Type ? nil : snapshot.map { $0[keyPath: keyPath] },
            get: { parent.wrappedValue[keyPath: keyPath] },
            set: { newValue in
                if isSame(parent.wrappedValue[keyPath: keyPath], newValue) { return }
                var value = parent.wrappedValue
                value[keyPath: keyPath] = newValue
                parent.wrappedValue = value
            })
    }

    /// This binding, with `animation` for the changes made through it: the change runs at once
    /// (nothing animates on the tree), as the same binding's would.
    public func animation(_ animation: Animation? = .default) -> Binding<Value> { self }

    /// A binding that transforms this one's value both ways — e.g. a clamped value.
    ///
    /// ```swift
    /// let percent = $fraction.map(get: { Int($0 * 100) }, set: { Double($0) / 100 })
    /// ```
    public func map<T>(get: @escaping (Value) -> T, set: @escaping (T) -> Value) -> Binding<T> {
        let parent = self
        return Binding<T>(get: { get(parent.wrappedValue) }, set: { parent.wrappedValue = set($0) })
    }

    /// Whether `other` points at the same source with the same value snapshot: a view holding one
    /// is the same as a view holding the other. A binding without an identity is never the same.
    func matches(_ other: Binding<Value>) -> Bool {
        guard let identity, let otherIdentity = other.identity, identity == otherIdentity else { return false }
        switch (snapshot, other.snapshot) {
        case (nil, nil): return true
        case let (old?, new?): return sameValue(old, new)
        default: return false
        }
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
///
/// The binding of an `ObservableObject`'s property carries the value it was made with: a view
/// holding it does not depend on the property by reading it (the object is observed at object
/// level, by whoever holds it with a wrapper), so a changed snapshot is what re-runs it. An
/// `@Observable` model's readers depend on what they read, and reading it here would make the
/// maker depend on it too: no snapshot.
func objectBinding<Object: AnyObject, Subject>(
    _ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Subject>
) -> Binding<Subject> {
    Binding(
        identity: AnyHashable(BindingPath(parent: ObjectIdentifier(object), keyPath: keyPath)),
        snapshot: isViewDependency(object) ? nil : object[keyPath: keyPath],
        get: { object[keyPath: keyPath] },
        set: { newValue in
            if isSame(object[keyPath: keyPath], newValue) { return }
            object[keyPath: keyPath] = newValue
        })
}

// MARK: A binding to a collection is a collection of bindings

/// Where an index binding points: the collection's binding and the position.
struct IndexPathIdentity: Hashable {
    let parent: AnyHashable
    let position: AnyHashable
}

/// A binding to a mutable collection is a collection of bindings to its elements, by position, as
/// in SwiftUI: `$items[i]`, `$model.items[i].isDone`, `for $item in $items`.
///
/// A binding made for a position reads and writes that position each time: when the collection
/// has shrunk below it, reading it traps (index out of range), as it does in SwiftUI.
/// (``ForEach`` and ``List`` over a binding keep their elements by id instead; the DataFlow
/// article says why.)
extension Binding: Sequence where Value: MutableCollection {
    /// A binding to one element.
    public typealias Element = Binding<Value.Element>
    /// Iterates by position.
    public typealias Iterator = IndexingIterator<Binding<Value>>
    /// A slice of the bindings.
    public typealias SubSequence = Slice<Binding<Value>>
}

extension Binding: Collection where Value: MutableCollection {
    /// The collection's index.
    public typealias Index = Value.Index
    /// The collection's indices.
    public typealias Indices = Value.Indices

    /// The position of the first element (the collection's, read now).
    public var startIndex: Index { wrappedValue.startIndex }
    /// The position past the last element (the collection's, read now).
    public var endIndex: Index { wrappedValue.endIndex }
    /// The collection's indices, read now.
    public var indices: Indices { wrappedValue.indices }

    /// The position after `i`.
    public func index(after i: Index) -> Index { wrappedValue.index(after: i) }

    /// Moves `i` to the position after it.
    public func formIndex(after i: inout Index) { wrappedValue.formIndex(after: &i) }

    /// A binding to the element at `position`: it reads `wrappedValue[position]` and writes the
    /// element back at `position` (a write of an equal value is skipped).
    public subscript(position: Index) -> Binding<Value.Element> {
        let parent = self
        return Binding<Value.Element>(
            identity: identity.flatMap { parentIdentity in
                (position as? any Hashable).map {
                    AnyHashable(IndexPathIdentity(parent: parentIdentity, position: AnyHashable($0)))
                }
            },
            snapshot: Value.Element.self is AnyObject.Type
                ? nil : snapshot.flatMap { $0.indices.contains(position) ? $0[position] : nil },
            get: { parent.wrappedValue[position] },
            set: { newValue in
                var value = parent.wrappedValue
                if isSame(value[position], newValue) { return }
                value[position] = newValue
                parent.wrappedValue = value
            })
    }
}

extension Binding: BidirectionalCollection where Value: BidirectionalCollection & MutableCollection {
    /// The position before `i`.
    public func index(before i: Index) -> Index { wrappedValue.index(before: i) }

    /// Moves `i` to the position before it.
    public func formIndex(before i: inout Index) { wrappedValue.formIndex(before: &i) }
}

extension Binding: RandomAccessCollection where Value: RandomAccessCollection & MutableCollection {}
