import Foundation
import RippleCore  // LockedValue

/// An interface for a stored variable that updates an external property of a view (SwiftUI's
/// `DynamicProperty`). Ripple's wrappers connect themselves to their node when the render tree
/// evaluates the view that holds them.
public protocol DynamicProperty {}

/// What the render tree calls, for each wrapper found in a view (by reflection, once per
/// evaluation of that view), to connect it to the node's storage.
protocol NodeInstallable {
    func install(on node: _NodeHandle, slot: Int, label: String)
}

/// Prints a warning once per wrapper instance.
final class WarnOnce: @unchecked Sendable {
    private let warned = LockedValue(false)

    func warn(_ message: @autoclosure () -> String) {
        let first = warned.withLock { warned -> Bool in
            defer { warned = true }
            return !warned
        }
        if first {
            FileHandle.standardError.write(Data(("RippleUI warning: " + message() + "\n").utf8))
        }
    }
}

// MARK: State

/// The storage of one `@State` property, kept in its render-tree node. Reads and writes are
/// tracked (a body depends on the state it read), and a write of an equal value changes nothing.
final class StateStorage<Value>: LabeledStorage, @unchecked Sendable {
    private let registrar = TrackingRegistrar()
    /// The value and the wrapper's name.
    private let stored: LockedValue<(value: Value, name: String?)>

    init(_ value: Value) { stored = LockedValue((value, nil)) }

    /// The wrapper's property (`_draft`), so a log that reaches this storage through a binding
    /// names it rather than its type.
    var label: String? {
        get { stored.withLock { $0.name } }
        set { stored.withLock { $0.name = newValue } }
    }

    /// The value, read without making the reader depend on it (a binding's snapshot).
    var untrackedValue: Value { stored.withLock { $0.value } }

    var value: Value {
        get {
            registrar.access(self, keyPath: \.value)
            return stored.withLock { $0.value }
        }
        set {
            if isSame(stored.withLock { $0.value }, newValue) { return }
            registrar.withMutation(of: self, keyPath: \.value) {
                stored.withLock { $0.value = newValue }
            }
        }
    }
}

/// Storage that knows the name of the wrapper property that owns it.
protocol LabeledStorage: AnyObject {
    var label: String? { get }
}

/// Links a `State` value (copied freely with its view) to the storage in its node.
final class StateLink<Value>: @unchecked Sendable {
    private let storage = LockedValue<StateStorage<Value>?>(nil)
    let warning = WarnOnce()

    var current: StateStorage<Value>? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// A property wrapper type that can read and write a value managed by the render tree.
///
/// The initial value is used only when the view's node is first inserted; later values passed
/// to the initializer are ignored while the node keeps its identity, and the value lives in the
/// node. Reading it in `body` makes the body depend on it.
///
/// Writing it before the view is in a tree (in an initializer, say) warns once and does nothing,
/// as in SwiftUI.
@propertyWrapper
public struct State<Value>: DynamicProperty, NodeInstallable {
    private let initial: Value
    private let link = StateLink<Value>()

    /// Creates a state property that stores an initial value.
    public init(wrappedValue value: Value) { initial = value }
    /// Creates a state property that stores an initial value.
    public init(initialValue value: Value) { initial = value }

    /// The underlying value referenced by the state variable.
    public var wrappedValue: Value {
        get { link.current?.value ?? initial }
        nonmutating set {
            guard let storage = link.current else {
                link.warning.warn("writing @State<\(Value.self)> outside of an installed view does nothing")
                return
            }
            storage.value = newValue
        }
    }

    /// A binding to the state value.
    public var projectedValue: Binding<Value> {
        let link = self.link
        let initial = self.initial
        let storage = link.current
        return Binding(
            identity: storage.map { AnyHashable(ObjectIdentifier($0)) },
            // Making `$value` does not make the maker depend on the value, as in SwiftUI.
            snapshot: storage?.untrackedValue,
            get: { link.current?.value ?? initial },
            set: { newValue in
                guard let storage = link.current else {
                    link.warning.warn("writing @State<\(Value.self)> outside of an installed view does nothing")
                    return
                }
                storage.value = newValue
            })
    }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        let storage = node.storage(at: slot) { StateStorage(initial) }
        link.current = storage
        storage.label = label
        node.name(storage, label)
    }
}

extension State where Value: ExpressibleByNilLiteral {
    /// Creates a state property without an initial value (`nil`).
    public init() { self.init(wrappedValue: nil) }
}

// MARK: Objects

/// Links a `StateObject` value to the object kept in its node.
final class ObjectLink<Object: AnyObject>: @unchecked Sendable {
    private let stored = LockedValue<Object?>(nil)
    let warning = WarnOnce()

    var current: Object? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

/// Holds a state object in its node.
final class ObjectSlot<Object: AnyObject> {
    let object: Object
    init(_ object: Object) { self.object = object }
}

/// A property wrapper type that instantiates an observable object once per node.
///
/// The autoclosure runs once per node identity, when the node is inserted; the object lives as
/// long as the node (a `@StateObject` count survives the parent's re-render).
/// The body re-runs on any `objectWillChange` of the object.
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty, NodeInstallable {
    private let thunk: () -> ObjectType
    private let link = ObjectLink<ObjectType>()

    /// Creates a new state object with an initial wrapped value (evaluated once per node).
    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {
        self.thunk = thunk
    }

    /// The underlying value referenced by the state object.
    ///
    /// Outside an installed view it creates a new object on every access and warns once, as in
    /// SwiftUI.
    public var wrappedValue: ObjectType {
        if let object = link.current { return object }
        link.warning.warn(
            "accessing StateObject<\(ObjectType.self)> outside of an installed view creates a new instance each time")
        return thunk()
    }

    /// A projection of the state object that creates bindings to its properties.
    public var projectedValue: ObservedObject<ObjectType>.Wrapper {
        ObservedObject<ObjectType>.Wrapper(object: wrappedValue)
    }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        let slotted = node.storage(at: slot) { ObjectSlot(thunk()) }
        link.current = slotted.object
        node.observe(slotted.object, slot: slot, label: label)
    }
}

/// A property wrapper type that subscribes to an observable object and re-evaluates the view
/// when it changes.
///
/// It holds what it was given and owns nothing: when the parent re-evaluates and creates a new
/// object (`@ObservedObject var model = Model()`), the view gets the new one (a count kept in it
/// resets).
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty, NodeInstallable {
    /// A wrapper of the underlying observable object that can create bindings to its properties.
    @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType

        /// A binding to the property at `keyPath` (writes of an equal value are skipped).
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            objectBinding(object, keyPath)
        }
    }

    /// The underlying value referenced by the observed object.
    public var wrappedValue: ObjectType

    /// A projected value that creates bindings to the properties of the observed object.
    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }

    /// Observes `wrappedValue`.
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    /// Observes `initialValue`.
    public init(initialValue: ObjectType) { self.wrappedValue = initialValue }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        node.observe(wrappedValue, slot: slot, label: label)
    }
}

// MARK: Environment

/// A key for accessing values in the environment.
public protocol EnvironmentKey {
    /// The associated type representing the type of the environment key's value.
    associatedtype Value
    /// The default value for the environment key.
    static var defaultValue: Value { get }
}

/// A collection of environment values propagated through a view hierarchy.
///
/// Extend it with a property per key, as in SwiftUI:
/// ```swift
/// private struct AccentKey: EnvironmentKey { static let defaultValue = "blue" }
/// extension EnvironmentValues {
///     var accent: String {
///         get { self[AccentKey.self] }
///         set { self[AccentKey.self] = newValue }
///     }
/// }
/// ```
public struct EnvironmentValues: @unchecked Sendable {
    private var values: [ObjectIdentifier: Any] = [:]
    var objects: [ObjectIdentifier: AnyObject] = [:] {
        didSet { stamp = EnvironmentStamp.next() }
    }
    /// Changes with every write: two values with the same stamp are the same environment.
    private(set) var stamp = 0

    /// Creates empty environment values (every key at its default).
    public init() {}

    /// Accesses the environment value associated with a custom key.
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { values[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
        set {
            values[ObjectIdentifier(key)] = newValue
            stamp = EnvironmentStamp.next()
        }
    }
}

/// Hands out the stamps that tell environments apart.
private enum EnvironmentStamp {
    private static let last = LockedValue(0)

    static func next() -> Int {
        last.withLock {
            $0 += 1
            return $0
        }
    }
}

/// Links an `Environment` value to its node's environment.
final class EnvironmentLink: @unchecked Sendable {
    private let stored = LockedValue<EnvironmentValues?>(nil)

    var current: EnvironmentValues? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

/// A property wrapper that reads a value from a view's environment.
///
/// The body re-runs when an ancestor changes the value it reads (compared with `==` for
/// `Equatable` values, by identity for objects, field by field or bit by bit otherwise: a value an
/// ancestor sets again unchanged does not re-run its readers).
@propertyWrapper
public struct Environment<Value>: DynamicProperty, NodeInstallable {
    /// Reads the value from the environment (`wrappedValue`).
    let read: (EnvironmentValues) -> Value
    /// What the view depends on: compared between evaluations to decide whether the body re-runs.
    let dependency: (EnvironmentValues) -> Any
    private let link = EnvironmentLink()

    /// Creates an environment property to read the specified key path.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        read = { $0[keyPath: keyPath] }
        dependency = { $0[keyPath: keyPath] }
    }

    init(read: @escaping (EnvironmentValues) -> Value, dependency: @escaping (EnvironmentValues) -> Any) {
        self.read = read
        self.dependency = dependency
    }

    /// The current value of the environment property.
    public var wrappedValue: Value { read(link.current ?? EnvironmentValues()) }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        link.current = node.environment
        node.readsEnvironment(label: label, read: dependency)
    }
}

/// A property wrapper type for an observable object that a parent or ancestor view supplies with
/// `environmentObject(_:)`.
///
/// Reading it when no ancestor supplied one traps, naming the type (SwiftUI's behaviour).
@propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty, NodeInstallable {
    /// A wrapper that creates bindings to the properties of the environment object.
    public typealias Wrapper = ObservedObject<ObjectType>.Wrapper

    private let link = ObjectLink<ObjectType>()

    /// Creates an environment object property; the object comes from an ancestor's `environmentObject(_:)`.
    public init() {}

    /// The underlying value referenced by the environment object.
    public var wrappedValue: ObjectType {
        guard let object = link.current else {
            fatalError(
                "No ObservableObject of type \(ObjectType.self) found. A View.environmentObject(_:) for "
                    + "\(ObjectType.self) may be missing as an ancestor of this view.")
        }
        return object
    }

    /// A projection of the environment object that creates bindings to its properties.
    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }

    func install(on node: _NodeHandle, slot: Int, label: String) {
        // Which object the environment holds is an environment read: a replacement re-evaluates.
        node.readsEnvironment(label: label) { $0.objects[ObjectIdentifier(ObjectType.self)].map(ObjectIdentifier.init) as Any }
        guard let object = node.environment.objects[ObjectIdentifier(ObjectType.self)] as? ObjectType else {
            link.current = nil
            return
        }
        link.current = object
        node.observe(object, slot: slot, label: label)
    }
}
