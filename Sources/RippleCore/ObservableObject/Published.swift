#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

/// A type that publishes a property marked with an attribute.
///
/// Marking a property of a class with `@Published` makes it observable two ways:
/// - the enclosing ``ObservableObject``'s `objectWillChange` emits **before** every assignment, so a
///   subscriber that reads the property sees the old value;
/// - `$property` is a publisher that emits the current value on the first demand, then every new
///   value, also before it is stored.
///
/// ```swift
/// final class Weather: ObservableObject {
///     @Published var temperature = 20
/// }
/// let weather = Weather()
/// let cancellable = weather.$temperature.sink { print("temperature:", $0) }
/// weather.temperature = 25
/// // Prints "temperature: 20", then "temperature: 25"
/// ```
///
/// Reads and writes are thread-safe; each write produces one will-change event. A write made from
/// inside a `$property` subscriber runs at once, nested, and the outer write stores over it, as in
/// Combine. `@Published` is only available on properties of classes.
///
/// Differs from Combine: once the property has a `$property`, writes from several threads take
/// turns, so its subscribers receive values in the order they are stored and a new subscriber starts
/// from what the property holds. Combine's `@Published` is not safe to write from several threads.
@propertyWrapper
public struct Published<Value> {
    /// The storage shared by the property, its projection and the object's will-change publisher.
    /// The only stored property, so the object's field holds exactly one class reference — the
    /// layout `objectWillChangePublisher(of:)` relies on (see `Documentation/PublishedStorage.md`).
    @usableFromInline
    var box: PublishedBox<Value>

    /// Creates the published instance with an initial wrapped value.
    @inlinable
    public init(wrappedValue: Value) {
        box = PublishedBox(wrappedValue)
    }

    /// Creates the published instance with an initial value.
    @inlinable
    public init(initialValue: Value) {
        box = PublishedBox(initialValue)
    }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }  // swiftlint:disable:this unused_setter_value
    }

    /// The property's publisher (`$property`): the current value on first demand, then each new value.
    ///
    /// The setter exists so the projection can be passed `inout` to ``Publisher/assign(to:)``;
    /// assigning a projection (`a.$value = b.$value`) has no effect, as in Combine: the property
    /// keeps its own storage.
    public var projectedValue: Publisher {
        mutating get { Publisher(box: box) }
        set {}  // swiftlint:disable:this unused_setter_value
    }

    /// Reads and writes the property through its enclosing object.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get {
            // The box is borrowed, not retained: the object keeps it alive, and it is only replaced
            // by `$property = …`, which racing with this read is a data race in the caller anyway.
            // The key paths are deliberately not used: referencing them on any path makes every read
            // materialize both key-path objects (~200 instructions). Tracking names the property from
            // the class's field descriptors instead.
            Unmanaged.passUnretained(object[keyPath: storageKeyPath].box)._withUnsafeGuaranteedRef { box in
                guard openTrackingScopes.load(ordering: .relaxed) != 0 else { return box.value }
                return box.trackedValue(for: object)
            }
        }
        set {
            Unmanaged.passUnretained(object[keyPath: storageKeyPath].box)._withUnsafeGuaranteedRef {
                $0.set(newValue, object: object)
            }
        }
    }

    /// The property's publisher, through its enclosing object. The setter — what
    /// `assign(to: &$property)` goes through — also tells the storage its owner, so writes that come
    /// from that subscription can name the object in tracking events.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        projected projectedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Publisher {
        get {
            Publisher(box: object[keyPath: storageKeyPath].box)
        }
        set {
            // Only `assign(to: &$property)` writes back the projection it was given (this property's
            // own); any other assigned projection is ignored, as in Combine.
            let box = object[keyPath: storageKeyPath].box
            if newValue.box === box { box.rememberAssignOwner(object) }
        }
    }

    /// The publisher of a `@Published` property (its `$` projection).
    ///
    /// It emits the current value when the subscriber first asks, then each new value before it is
    /// stored (the property still holds the old value while subscribers run). With zero demand it
    /// keeps only the latest value and delivers it on the next request. It never completes.
    public struct Publisher: RippleCore.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        @usableFromInline
        let box: PublishedBox<Value>

        @inlinable
        init(box: PublishedBox<Value>) {
            self.box = box
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.subject().receive(subscriber: subscriber)
        }
    }
}

extension Published.Publisher: _SubjectBacked {
    /// Attaches the closures to the property's subject (used by `sink`).
    @inlinable
    public func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Never>) -> Void)?,
        receiveValue: @escaping (Value) -> Void
    ) -> AnyCancellable {
        box.subject().attachSink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    }
}

extension Published: Sendable where Value: Sendable {}
extension Published.Publisher: Sendable where Value: Sendable {}

/// What the per-class layout looks for: a stored property whose type is some `Published<T>`.
protocol PublishedField {
    /// The property's storage box.
    var storageBox: PublishedBoxBase { get }
    /// The tracker of the property's storage box, if somebody has observed the property.
    var storageTracker: PropertyTracker? { get }
}

/// The tracker of `value`'s storage box when `value` is a `Published` property wrapper whose
/// property somebody has observed, else `nil`.
package func publishedStorageTracker(of value: Any?) -> PropertyTracker? {
    (value as? any PublishedField)?.storageTracker
}

extension Published: PublishedField {
    var storageBox: PublishedBoxBase { box }
    var storageTracker: PropertyTracker? { box.existingObservation }
}
