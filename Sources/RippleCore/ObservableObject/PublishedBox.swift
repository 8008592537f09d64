#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif
import RippleTrackingTypes  // TrackingPhase (not re-exported: Ripple's, not Combine's)

/// The part of a `@Published` property's storage that does not depend on its value type, so the
/// object's will-change publisher can be reached from a raw field offset.
///
/// A property nobody observes is its value, a lock and one empty reference: everything that
/// observing it needs (its version, tracking observers, will-change link, `$property` subject)
/// lives in a ``PublishedObservation``, made the first time somebody observes the property and
/// kept from then on.
///
/// Locks: `valueLock` guards the value and `observationSlot`. Once the observation exists, every
/// write goes through the observation's lock, and takes `valueLock` inside it only to store — the
/// lock order is always the observation's lock, then `valueLock`.
@usableFromInline
class PublishedBoxBase: @unchecked Sendable {
    @usableFromInline
    final let valueLock = Lock()
    /// The property's observation machinery, once somebody observes it; never replaced once set.
    /// The box owns a +1 on it, given back in `deinit`: held as `Unmanaged` so that reading it on
    /// the hot paths (a tracked read, an observed write) costs no retain and release. Guarded by
    /// `valueLock`.
    @exclusivity(unchecked) @usableFromInline
    final var observationSlot: Unmanaged<PublishedObservation>?

    @usableFromInline
    init() {}

    deinit {
        observationSlot?.release()
    }

    /// The observation, made on first use.
    @usableFromInline
    final func observation() -> PublishedObservation {
        valueLock.lock()
        defer { valueLock.unlock() }
        if let observationSlot { return observationSlot.takeUnretainedValue() }
        let made = PublishedObservation()
        observationSlot = Unmanaged.passRetained(made)
        return made
    }

    /// The observation a tracked read records against, made on first use — unless nothing on this
    /// thread records the read (a scope is open on another thread): then `nil`, and nothing is made.
    @usableFromInline
    final func observationForTrackedRead() -> PublishedObservation? {
        if let existing = existingObservation { return existing }
        guard TrackingThread.currentCollector != nil || _ExternalTracking.isInstalled else { return nil }
        return observation()
    }

    /// The observation, if somebody has observed the property.
    final var existingObservation: PublishedObservation? {
        valueLock.lock()
        defer { valueLock.unlock() }
        return observationSlot?.takeUnretainedValue()
    }

    /// The object's will-change publisher linked to this box, if any: one critical section of
    /// `valueLock` (the link is written with both locks held).
    final var objectWillChange: ObservableObjectPublisher? {
        valueLock.lock()
        defer { valueLock.unlock() }
        return observationSlot?._withUnsafeGuaranteedRef { $0.willChange }
    }

    /// Links `publisher` unless one is linked already; returns the one linked afterwards.
    final func install(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        let observation = observation()
        observation.lock.lock()
        defer { observation.lock.unlock() }
        if let existing = observation.willChange { return existing }
        valueLock.lock()
        observation.willChange = publisher
        valueLock.unlock()
        return publisher
    }

    /// The bridge's per-object state (see `_ExternalTracking.state`), kept in the first box.
    final func externalState(create: () -> AnyObject) -> AnyObject {
        let observation = observation()
        observation.lock.lock()
        if let existing = observation.externalSlot {
            observation.lock.unlock()
            return existing
        }
        observation.lock.unlock()
        let made = create()  // not under the lock: it is the bridge's code
        observation.lock.lock()
        defer { observation.lock.unlock() }
        if let existing = observation.externalSlot { return existing }
        observation.externalSlot = made
        return made
    }

    /// The property's index in its class, looked up once.
    final func index(in object: AnyObject) -> Int {
        let observation = observation()
        observation.lock.lock()
        let known = observation.propertyIndex
        observation.lock.unlock()
        if known >= 0 { return known }
        let layout = LayoutCache.layout(of: object)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let found = layout.publishedOffsets.firstIndex { unmanagedPublishedBox(of: object, at: $0).toOpaque() == me } ?? -1
        observation.lock.lock()
        observation.propertyIndex = found
        observation.lock.unlock()
        return found
    }

    /// Records a tracked read of this property (not generic, so specialized getters share it).
    @usableFromInline
    final func recordRead(_ observation: PublishedObservation, version: UInt64, object: AnyObject) {
        // The closure runs once per property and scope; captured strongly, `self` and `object`
        // would be retained and released on every read (four atomic operations).
        let unownedSelf = Unmanaged.passUnretained(self)
        let unownedObject = Unmanaged.passUnretained(object)
        observation.record(version: version, object: object) {
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
}

/// What observing one `@Published` property takes, made on first observation: the property's
/// tracker (its version and armed tracking observers), the object's will-change publisher, the
/// `$property` subject, and the turn that orders observed writes.
///
/// Its fields are guarded by its tracker's `lock`, except `version` and `willChange`, which are
/// changed with both that lock and the box's `valueLock` held, so either is enough to read them —
/// the box reads its value and version together, or the will-change link, under `valueLock` alone.
@usableFromInline
final class PublishedObservation: PropertyTracker, @unchecked Sendable {
    /// The owning object's will-change publisher, once somebody asked for it. Like `version`, written
    /// with this lock and the box's `valueLock` held, so either is enough to read it.
    @exclusivity(unchecked) @usableFromInline
    var willChange: ObservableObjectPublisher?
    /// The `$property` subject (a `SubjectCore<Value, Never>` of the box's `Value`), once used.
    @exclusivity(unchecked) @usableFromInline
    var projection: AnyObject?
    /// `assign(to: &$property)` subscriptions: they live as long as the property does.
    @exclusivity(unchecked) @usableFromInline
    var assignments: [AnyCancellable] = []
    /// The owning object, for writes that come through `assign(to:)` (which has no object of its
    /// own). Set only by the projection's setter, so only objects that use `assign(to:)` carry a
    /// weak reference.
    @exclusivity(unchecked) @usableFromInline
    weak var assignOwner: AnyObject?
    /// Which observed writes wait for each other, and whether a write stores (see `setObserved`).
    /// No lock is held while a write's callouts run.
    @exclusivity(unchecked) @usableFromInline
    var writes = PublishedWriteMachine()
    /// The bridge's per-object state (see `_ExternalTracking.state`), kept in the first box.
    @exclusivity(unchecked)
    var externalSlot: AnyObject?
    /// The property's index in its class's layout (-1: not looked up yet).
    @exclusivity(unchecked)
    var propertyIndex = -1

    @usableFromInline
    override init() {}
}

/// The storage of one `@Published` property of one object: its value and, once somebody observes
/// the property, its ``PublishedObservation``.
@usableFromInline
final class PublishedBox<Value>: PublishedBoxBase, @unchecked Sendable {
    /// Guarded by `valueLock`.
    @exclusivity(unchecked) @usableFromInline
    var storedValue: Value

    @inlinable
    init(_ value: Value) {
        storedValue = value
        super.init()
    }

    deinit {
        // The subscriptions kept by `assign(to:)` end with the object (their subscribers hold this
        // box weakly, so this runs). Tracking scopes may keep the observation itself alive longer.
        guard let observation = observationSlot?.takeUnretainedValue() else { return }
        observation.lock.lock()
        let assignments = observation.assignments
        observation.assignments = []
        observation.lock.unlock()
        for assignment in assignments { assignment.cancel() }
    }

    @inlinable
    var value: Value {
        valueLock.lock()
        defer { valueLock.unlock() }
        return storedValue
    }

    /// Reads the value inside a tracking scope: value and version in one critical section, then the
    /// read is recorded.
    @inlinable
    func trackedValue(for object: AnyObject) -> Value {
        valueLock.lock()
        if let observation = observationSlot {
            // The box keeps its observation for good: no need to retain it for the read.
            let value = storedValue
            let version = observation._withUnsafeGuaranteedRef { $0.version }
            valueLock.unlock()
            observation._withUnsafeGuaranteedRef { recordRead($0, version: version, object: object) }
            return value
        }
        valueLock.unlock()
        // The first tracked read: make the observation (if this thread records the read), then read.
        guard observationForTrackedRead() != nil else { return value }
        return trackedValue(for: object)
    }

    /// Writes the value. Unobserved, it is one short critical section; observed, see
    /// `setObserved`.
    @inlinable
    func set(_ newValue: Value, object: AnyObject? = nil) {
        valueLock.lock()
        if let observation = observationSlot {
            // The box keeps its observation for good: no need to retain it for the write.
            valueLock.unlock()
            observation._withUnsafeGuaranteedRef { setObserved(newValue, object: object, observation: $0) }
            return
        }
        guard !externalTrackingInstalled.load(ordering: .relaxed) else {
            valueLock.unlock()
            setObserved(newValue, object: object, observation: observation())
            return
        }
        let old = storedValue
        storedValue = newValue
        valueLock.unlock()
        withExtendedLifetime(old) {}  // the old value's deinit runs here, after unlocking
    }

    /// A write somebody observes. In order: tracking observers armed for will-set, the object's
    /// will-change publisher, the `$property` publisher — all while the old value is still stored —
    /// then the store (and version bump), then observers armed for did-set.
    ///
    /// Once the property has a `$property`, writes are ordered (``PublishedWriteMachine``):
    /// concurrent writers wait for each other, so the order in which `$property` subscribers receive
    /// values is the order in which they are stored — the property and `$property`'s current value
    /// never disagree. A write made from inside this write's callouts on the same thread (a
    /// subscriber that assigns the property) runs nested, without waiting, and stores first; the
    /// outer write stores after it, as in Combine (the property ends with the outer write's value,
    /// and so does `$property`'s current value).
    ///
    /// Neither publisher is retained for the call: the observation holds both for good. `announce`:
    /// `false` for a write that starts over (its will-set callouts ran already).
    @inlinable
    func setObserved(_ newValue: Value, object: AnyObject?, observation: PublishedObservation, announce: Bool = true) {
        let external = externalTrackingInstalled.load(ordering: .relaxed)
        let me = currentThreadID()
        observation.lock.lock()
        let role: PublishedWriteMachine.Role
        switch observation.writes.begin(
            thread: me, ordered: observation.projection != nil, name: "$property (@Published \(Value.self))")
        {
        case .write(let given):
            role = given
        case .wait(let waiter):
            _ = observation.lock.takeTurnLocked(.wait(waiter))
            role = .ordered
        }
        let startVersion = observation.version
        let willSetObservers =
            announce && observation.hasObserversLocked ? observation.takeFiringLocked(.willSet) : FiringList()
        let willChange = announce ? observation.willChange.map { Unmanaged.passUnretained($0) } : nil
        let projection = observation.projection.map {
            Unmanaged.passUnretained(unsafeDowncast($0, to: SubjectCore<Value, Never>.self))
        }
        observation.lock.unlock()
        if announce {
            if external { reportExternally(.willSet, object: object) }
            if !willSetObservers.isEmpty { observation.fire(willSetObservers, .willSet, object: object) }
            willChange?._withUnsafeGuaranteedRef { $0.send() }
        }
        projection?._withUnsafeGuaranteedRef { $0.send(newValue) }
        observation.lock.lock()
        let exit: DeliveryTurn.Exit
        var oldCurrent: Value?
        switch observation.writes.end(
            role, unchanged: observation.version == startVersion, ordered: observation.projection != nil)
        {
        case .startOver:
            // A `$property` was made (from the value before this one) while the callouts ran: this
            // write's value must go through it too. Only while `$property` is first made.
            observation.lock.unlock()
            setObserved(newValue, object: object, observation: observation, announce: false)
            return
        case .store(let given):
            exit = given
        case .storeOverNested(let given):
            // Its subscribers were sent this value before the nested write's: `$property`'s current
            // value becomes this one again, while this write still holds the turn, so that a new
            // subscriber starts from what the property holds.
            exit = given
            oldCurrent = projection?._withUnsafeGuaranteedRef { $0.exchangeCurrent(with: newValue) }
        }
        valueLock.lock()
        let old = storedValue
        storedValue = newValue
        observation.version &+= 1
        valueLock.unlock()
        let newVersion = observation.version
        let didSetObservers =
            observation.hasObserversLocked ? observation.takeFiringLocked(.didSet) : FiringList()
        observation.lock.unlock(handingOver: exit)
        withExtendedLifetime((old, oldCurrent)) {}  // released after unlocking
        observation.absorbOwnWrite(newVersion: newVersion)
        if !didSetObservers.isEmpty { observation.fire(didSetObservers, .didSet, object: object) }
        if external { reportExternally(.didSet, object: object) }
    }

    /// The `$property` machinery, created (seeded with the current value) on first use.
    @inlinable
    func subject() -> SubjectCore<Value, Never> {
        let observation = self.observation()
        observation.lock.lock()
        defer { observation.lock.unlock() }
        if let projection = observation.projection {
            return unsafeDowncast(projection, to: SubjectCore<Value, Never>.self)
        }
        valueLock.lock()
        let current = storedValue
        valueLock.unlock()
        let created = SubjectCore<Value, Never>(current: current)
        observation.projection = created
        return created
    }

    @usableFromInline
    func rememberAssignOwner(_ owner: AnyObject) {
        let observation = self.observation()
        observation.lock.lock()
        if observation.assignOwner == nil { observation.assignOwner = owner }
        observation.lock.unlock()
    }

    /// A write from `assign(to:)`: like a property write, naming the owner if it is still alive.
    @usableFromInline
    func assign(_ newValue: Value) {
        let observation = self.observation()
        observation.lock.lock()
        let owner = observation.assignOwner
        observation.lock.unlock()
        set(newValue, object: owner)
    }

    @usableFromInline
    func keep(_ assignment: AnyCancellable) {
        let observation = self.observation()
        observation.lock.lock()
        observation.assignments.append(assignment)
        observation.lock.unlock()
    }
}

@usableFromInline
enum ExternalPhase {
    case access
    case willSet
    case didSet
}
