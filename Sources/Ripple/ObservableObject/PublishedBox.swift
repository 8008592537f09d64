#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Engine/AtomicCell.swift)
#endif

/// The part of a `@Published` property's storage that does not depend on its value type, so the
/// object's will-change publisher can be reached from a raw field offset.
///
/// It owns the property's ``PropertyTracker`` (its version and the armed tracking observers) and
/// keeps its own state under the tracker's lock, so that a store and its version bump are one
/// critical section. The storage uses the tracker; the tracker knows nothing of the storage.
@usableFromInline
class PublishedBoxBase: @unchecked Sendable {
    /// The property's version and tracking observers. Its `lock` also guards this box's fields.
    @usableFromInline
    final let tracker = PropertyTracker()

    /// The owning object's will-change publisher, once somebody has asked for it. Written once
    /// (compare-and-swap from `nil`), read with one atomic load; the box owns a +1 on it.
    @usableFromInline
    let willChangeSlot = AtomicCell<Unmanaged<ObservableObjectPublisher>?>(nil)

    @usableFromInline
    init() {}

    deinit {
        willChangeSlot.load(ordering: .acquiring)?.release()
    }

    /// The bridge's per-object state (see `_ExternalTracking.state`), kept in the first box.
    @exclusivity(unchecked) @usableFromInline
    var externalSlot: AnyObject?
    /// This property's index in its class's layout (-1: not looked up yet). Guarded by `tracker.lock`.
    @exclusivity(unchecked) @usableFromInline
    var propertyIndex = -1

    final func externalState(create: () -> AnyObject) -> AnyObject {
        tracker.lock.lock()
        if let existing = externalSlot {
            tracker.lock.unlock()
            return existing
        }
        tracker.lock.unlock()
        let made = create()
        tracker.lock.lock()
        defer { tracker.lock.unlock() }
        if let existing = externalSlot { return existing }
        externalSlot = made
        return made
    }

    /// The property's index in its class, looked up once.
    final func index(in object: AnyObject) -> Int {
        tracker.lock.lock()
        let known = propertyIndex
        tracker.lock.unlock()
        if known >= 0 { return known }
        let layout = LayoutCache.layout(of: object)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let found = layout.publishedOffsets.firstIndex { unmanagedPublishedBox(of: object, at: $0).toOpaque() == me } ?? -1
        tracker.lock.lock()
        propertyIndex = found
        tracker.lock.unlock()
        return found
    }

    /// Records a tracked read of this property (not generic, so specialized getters share it).
    @usableFromInline
    final func recordRead(version: UInt64, object: AnyObject) {
        // The closure runs once per property and scope; captured strongly, `self` and `object`
        // would be retained and released on every read (four atomic operations).
        let unownedSelf = Unmanaged.passUnretained(self)
        let unownedObject = Unmanaged.passUnretained(object)
        tracker.record(version: version, object: object) {
            TrackedIdentity(
                name: publishedPropertyName(
                    of: unownedObject.takeUnretainedValue(), box: unownedSelf.takeUnretainedValue()),
                keyPath: nil)
        }
        if _ExternalTracking.isInstalled {
            reportExternally(.access, object: object)
        }
    }

    /// Reports to the external tracking hook, if one is installed.
    @usableFromInline
    final func reportExternally(_ phase: ExternalPhase, object: AnyObject?) {
        guard let hook = _ExternalTracking.hook, let object else { return }
        let property = index(in: object)
        guard property >= 0 else { return }
        switch phase {
        case .access: hook.access(object, property: property)
        case .willSet: hook.willSet(object, property: property)
        case .didSet: hook.didSet(object, property: property)
        }
    }

    /// The publisher linked to this box, if any.
    @inlinable
    final var objectWillChange: ObservableObjectPublisher? {
        willChangeSlot.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// Stores `publisher` unless one is there already; returns the one that is there afterwards.
    @usableFromInline
    final func install(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        let candidate = Unmanaged.passRetained(publisher)
        let (exchanged, existing) = willChangeSlot.compareExchange(
            expected: nil, desired: candidate, ordering: .acquiringAndReleasing)
        if exchanged { return publisher }
        candidate.release()
        return existing!.takeUnretainedValue()
    }
}

/// The storage of one `@Published` property of one object: its value, its `$` publisher (created
/// on first use) and the object's will-change publisher (linked when somebody first asks for it).
@usableFromInline
final class PublishedBox<Value>: PublishedBoxBase, @unchecked Sendable {
    /// Guarded by `tracker.lock`.
    @exclusivity(unchecked) @usableFromInline
    var storedValue: Value
    /// The `$property` publisher's machinery, created on first use. Guarded by `tracker.lock`.
    @exclusivity(unchecked) @usableFromInline
    var projection: SubjectCore<Value, Never>?
    /// `assign(to: &$property)` subscriptions: they live as long as the property does.
    @exclusivity(unchecked) @usableFromInline
    var assignments: [AnyCancellable] = []
    /// The owning object, for writes that come through `assign(to:)` (which has no object of its
    /// own). Set only by the projection's setter, so only objects that use `assign(to:)` carry a
    /// weak reference. Guarded by `tracker.lock`.
    @exclusivity(unchecked) @usableFromInline
    weak var assignOwner: AnyObject?
    /// Whose observed write with a `$property` is under way, and who waits to write (see
    /// `setObserved`): the delivery turn every push path shares. Guarded by `tracker.lock`; no lock is held
    /// while a write's callouts run.
    @exclusivity(unchecked) @usableFromInline
    var writeTurn = DeliveryTurn()

    @inlinable
    init(_ value: Value) {
        storedValue = value
        super.init()
    }

    deinit {
        // The subscriptions kept by `assign(to:)` end with the object (their subscribers hold this
        // box weakly, so this runs).
        for assignment in assignments { assignment.cancel() }
    }

    @inlinable
    var value: Value {
        tracker.lock.lock()
        defer { tracker.lock.unlock() }
        return storedValue
    }

    /// Reads the value inside a tracking scope: value and version in one critical section, then the
    /// read is recorded.
    @inlinable
    func trackedValue(for object: AnyObject) -> Value {
        tracker.lock.lock()
        let value = storedValue
        let version = tracker.version
        tracker.lock.unlock()
        recordRead(version: version, object: object)
        return value
    }

    /// Writes the value. In order: tracking observers armed for will-set, the object's will-change
    /// publisher, the `$property` publisher — all while the old value is still stored — then the
    /// store (and version bump), then observers armed for did-set. With nobody observing it is one
    /// short critical section.
    ///
    /// Neither publisher is retained for the call: the box holds both for good (the will-change
    /// publisher from the moment it is linked, the projection from its creation).
    @inlinable
    func set(_ newValue: Value, object: AnyObject? = nil) {
        let willChange = willChangeSlot.load(ordering: .acquiring)
        tracker.lock.lock()
        let external = externalTrackingInstalled.load(ordering: .relaxed)
        if !writeTurn.isHeld && willChange == nil && projection == nil && !tracker.hasObserversLocked && !external {
            let old = replaceStoredLocked(newValue)
            let newVersion = tracker.version
            tracker.lock.unlock()
            withExtendedLifetime(old) {}  // the old value's deinit runs here, after unlocking
            tracker.absorbOwnWrite(newVersion: newVersion)
            return
        }
        tracker.lock.unlock()
        setObserved(newValue, object: object, willChange: willChange, external: external)
    }

    /// Stores `newValue` and bumps the version (call with `tracker.lock` held); returns the old value, to be
    /// released by the caller after unlocking (a deinit is user code).
    @inlinable
    func replaceStoredLocked(_ newValue: Value) -> Value {
        let old = storedValue
        storedValue = newValue
        tracker.version &+= 1
        return old
    }

    /// A write somebody observes. With a `$property`, it is taken as one turn: concurrent writers of
    /// this property wait for each other, so the order in which `$property` subscribers receive values is the order in which
    /// they are stored — the property and `$property`'s current value never disagree. A write made
    /// from inside this write's callouts on the same thread (a subscriber that assigns the property)
    /// runs nested, without waiting; when it stores, the outer write's value is not stored after it
    /// (the property ends with the value `$property` delivered last).
    @inlinable
    func setObserved(
        _ newValue: Value, object: AnyObject?, willChange: Unmanaged<ObservableObjectPublisher>?, external: Bool
    ) {
        let me = currentThreadID()
        tracker.lock.lock()
        var nested = writeTurn.owner == me
        // The turn orders `$property` deliveries with stores; without a `$property` there is nothing
        // to keep in step, and the write costs what it did before.
        var takesTurn = false
        if !nested && projection != nil {
            // Another thread's write may be under way: wait for it (in arrival order), then write.
            let entry = writeTurn.enter(me, name: "$property (@Published \(Value.self))")
            nested = tracker.lock.takeTurnLocked(entry)
            takesTurn = !nested
        }
        let startVersion = tracker.version
        let willSetObservers = tracker.hasObserversLocked ? tracker.takeFiringLocked(.willSet) : FiringList()
        let projection = self.projection.map { Unmanaged.passUnretained($0) }
        tracker.lock.unlock()
        if external { reportExternally(.willSet, object: object) }
        if !willSetObservers.isEmpty { tracker.fire(willSetObservers, .willSet, object: object) }
        willChange?._withUnsafeGuaranteedRef { $0.send() }
        projection?._withUnsafeGuaranteedRef { $0.send(newValue) }
        tracker.lock.lock()
        // A nested write stored a newer value meanwhile: that one stays (it is what `$property`
        // delivered last). Writes outside a turn always store, as before.
        let stores = !(takesTurn || nested) || tracker.version == startVersion
        let old: Value? = stores ? replaceStoredLocked(newValue) : nil
        let newVersion = tracker.version
        let didSetObservers = stores && tracker.hasObserversLocked ? tracker.takeFiringLocked(.didSet) : FiringList()
        let exit = takesTurn ? writeTurn.leave() : .idle
        tracker.lock.unlock(handingOver: exit)
        withExtendedLifetime(old) {}  // released after unlocking
        guard stores else { return }
        tracker.absorbOwnWrite(newVersion: newVersion)
        if !didSetObservers.isEmpty { tracker.fire(didSetObservers, .didSet, object: object) }
        if external { reportExternally(.didSet, object: object) }
    }

    /// The `$property` machinery, created (seeded with the current value) on first use.
    @inlinable
    func subject() -> SubjectCore<Value, Never> {
        tracker.lock.lock()
        defer { tracker.lock.unlock() }
        if let projection { return projection }
        let created = SubjectCore<Value, Never>(current: storedValue)
        projection = created
        return created
    }

    @usableFromInline
    func rememberAssignOwner(_ owner: AnyObject) {
        tracker.lock.lock()
        if assignOwner == nil { assignOwner = owner }
        tracker.lock.unlock()
    }

    /// A write from `assign(to:)`: like a property write, naming the owner if it is still alive.
    @usableFromInline
    func assign(_ newValue: Value) {
        tracker.lock.lock()
        let owner = assignOwner
        tracker.lock.unlock()
        set(newValue, object: owner)
    }

    @usableFromInline
    func keep(_ assignment: AnyCancellable) {
        tracker.lock.lock()
        assignments.append(assignment)
        tracker.lock.unlock()
    }
}

@usableFromInline
enum ExternalPhase {
    case access
    case willSet
    case didSet
}
