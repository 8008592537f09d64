import Foundation

/// How many `objectWillChange` events `body` caused on `object`.
///
/// ```swift
/// let changes = willChangeCount(of: basket) {
///     basket.apples += 1
///     basket.peaches += 1
/// }
/// #expect(changes == 2)
/// ```
public func willChangeCount<Object: ObservableObject>(of object: Object, during body: () throws -> Void) rethrows -> Int {
    let count = Counter()
    let token = object.objectWillChange.sink { _ in count.increment() }
    defer { token.cancel() }
    try body()
    return count.value
}

/// `willChangeCount(of:during:)` under the name the issue tracker asked for: returns the number of
/// will-change events `body` caused, for `#expect(expectWillChange(of: model) { … } == 1)`.
@discardableResult
public func expectWillChange<Object: ObservableObject>(of object: Object, during body: () throws -> Void) rethrows -> Int {
    try willChangeCount(of: object, during: body)
}

/// The tracked properties `body` read, as `"Type.property"` names.
///
/// ```swift
/// #expect(propertiesRead { _ = basket.apples } == ["Basket.apples"])
/// ```
///
/// Lists the properties Ripple tracks itself — `@Published` ones and those of classes that use a
/// `TrackingRegistrar` — in the order first read, then, with the Observation bridge installed
/// (`ObservationBridge.install()`, in RippleObservation), those of toolchain `@Observable` models,
/// sorted: Observation records what was read as a set. Without the bridge, reads of `@Observable`
/// models are not seen (as `observe` does not see them); an empty answer then prints a warning
/// naming the fix, once per process.
public func propertiesRead<E: Error>(_ body: () throws(E) -> Void) throws(E) -> [String] {
    var outcome: Result<[TrackedRead], E> = .success([])
    let observed = _ExternalTracking.otherSystemsPropertiesRead {
        do throws(E) {
            outcome = .success(try trackedReads(body).reads)
        } catch {
            outcome = .failure(error)
        }
    }
    let names = try outcome.get().map(\.description) + observed
    if names.isEmpty, !externalScopeHookIsInstalled {
        // Maybe it read an @Observable model, which only the bridge makes visible: say so, once.
        RuntimeWarning.propertiesReadSawNothing.raise()
    }
    return names
}

/// Watches objects through weak references, to assert they were released.
///
/// ```swift
/// let lifetimes = LifetimeTracker()
/// do {
///     let model = Model()
///     lifetimes.track(model, "model")
///     …
/// }
/// #expect(lifetimes.alive.isEmpty)
/// ```
public final class LifetimeTracker: @unchecked Sendable {
    private struct Entry {
        weak var object: AnyObject?
        let name: String
    }

    private let entries = LockedValue<[Entry]>([])

    /// Creates a tracker watching nothing.
    public init() {}

    /// Starts watching `object`, under `name` for the report.
    public func track(_ object: AnyObject, _ name: String? = nil) {
        let entry = Entry(object: object, name: name ?? "\(type(of: object))")
        entries.withLock { $0.append(entry) }
    }

    /// The names of the watched objects still alive.
    public var alive: [String] { entries.withLock { $0.filter { $0.object != nil }.map(\.name) } }

    /// Whether every watched object has been released.
    public var allReleased: Bool { alive.isEmpty }
}

/// Counts from any thread.
private final class Counter: @unchecked Sendable {
    private let count = LockedValue(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
