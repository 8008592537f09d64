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
/// write goes through the observation's lock (its ``PublishedState``), and takes `valueLock` inside
/// it only to store — the lock order is always the observation's lock, then `valueLock`.
///
/// Why the value keeps a lock of its own (`valueLock`, beside the observation's storage): the
/// unobserved read and write are one short critical section on the value inline in the box (about
/// 53 instructions); moving the value into the observation's state would make an observation, an
/// allocation, per property.
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
        return observationSlot?._withUnsafeGuaranteedRef { $0.state.willChange }
    }

    /// Links `publisher` unless one is linked already; returns the one linked afterwards.
    final func install(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        let observation = observation()
        observation.lock.lock()
        defer { observation.lock.unlock() }
        valueLock.lock()
        defer { valueLock.unlock() }
        return observation.state.link(publisher)
    }

    /// The bridge's per-object state (see `_ExternalTracking.state`), kept in the first box.
    final func externalState(create: () -> AnyObject) -> AnyObject {
        let observation = observation()
        observation.lock.lock()
        let existing = observation.state.externalSlot
        observation.lock.unlock()
        if let existing { return existing }
        let made = create()  // not under the lock: it is the bridge's code
        observation.lock.lock()
        defer { observation.lock.unlock() }
        return observation.state.keepExternalSlot(made)
    }

    /// The property's index in its class, looked up once.
    final func index(in object: AnyObject) -> Int {
        let observation = observation()
        observation.lock.lock()
        let known = observation.state.propertyIndex
        observation.lock.unlock()
        if known >= 0 { return known }
        let layout = LayoutCache.layout(of: object)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let found = layout.publishedOffsets.firstIndex { unmanagedPublishedBox(of: object, at: $0).toOpaque() == me } ?? -1
        observation.lock.lock()
        observation.state.propertyIndex = found
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

/// What observing one `@Published` property takes, made on first observation: the storage of
/// its ``PublishedState`` — the property's tracker (its version and armed tracking observers), the
/// object's will-change publisher, the `$property` subject, and the turn that orders observed
/// writes — under one lock. As a ``PropertyTracker`` it is what tracking scopes record and
/// observers arm on.
@usableFromInline
final class PublishedObservation: TrackerStorage<PublishedState>, @unchecked Sendable {
    @usableFromInline
    init() {
        super.init(state: PublishedState())
    }
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
        let assignments = observation.state.takeAssignments()
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
            let version = observation._withUnsafeGuaranteedRef { $0.state.tracker.version }
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
    /// Two rounds of lock → transition → unlock → act on the observation's ``PublishedState``:
    /// ``PublishedState/beginWrite(thread:name:)`` (after a wait for the turn, if it says so) and
    /// ``PublishedState/callouts(_:announce:)``, then the callouts; ``PublishedState/endWrite(_:)``
    /// with `valueLock` held too and the store beside it, then the wake, the release of what was
    /// replaced and the did-set observers. The write turn's wait and hand-over are performed by the
    /// one turn runner (``TurnRunner/enterLocked(_:keeping:resumed:giveBack:)``,
    /// ``TurnRunner/leaveLocked(_:pinnedBy:)``), as an operator's and a subject's are. `announce`:
    /// `false` for a write that starts over (its will-set callouts ran already).
    @inlinable
    func setObserved(_ newValue: Value, object: AnyObject?, observation: PublishedObservation, announce: Bool = true) {
        let external = externalTrackingInstalled.load(ordering: .relaxed)
        let me = currentThreadID()
        observation.lock.lock()
        let role: PublishedWriteMachine.Role
        switch observation.state.beginWrite(thread: me, name: "$property (@Published \(Value.self))") {
        case .write(let given):
            role = given
        case .wait(let waiter):
            // The transition's access to the state ended before the thread parks. The box keeps its
            // observation for good (no keeper), and nothing ends a write's turn while it waits.
            guard case .entered = observation.enterLocked(.wait(waiter)) else {
                require(false, "a @Published property's write turn released a writer it admitted")
                return
            }
            role = .ordered
        }
        let callouts = observation.state.callouts(role, announce: announce)
        observation.lock.unlock()
        let projection = callouts.projection.map {
            $0._withUnsafeGuaranteedRef { Unmanaged.passUnretained(unsafeDowncast($0, to: SubjectCore<Value, Never>.self)) }
        }
        if announce {
            if external { reportExternally(.willSet, object: object) }
            if !callouts.willSet.isEmpty { observation.fire(callouts.willSet, .willSet, object: object) }
            callouts.willChange?._withUnsafeGuaranteedRef { $0.send() }
        }
        projection?._withUnsafeGuaranteedRef { $0.send(newValue) }
        observation.lock.lock()
        valueLock.lock()
        guard case .store(let store) = observation.state.endWrite(callouts) else {
            // `.startOver`: a `$property` was made while the callouts ran.
            valueLock.unlock()
            observation.lock.unlock()
            setObserved(newValue, object: object, observation: observation, announce: false)
            return
        }
        let old = storedValue
        storedValue = newValue
        valueLock.unlock()
        // Its subscribers were sent this value before the nested write's: `$property`'s current
        // value becomes this one again, while this write still holds the turn, so that a new
        // subscriber starts from what the property holds.
        let oldCurrent = store.resetsProjection ? projection?._withUnsafeGuaranteedRef { $0.exchangeCurrent(with: newValue) } : nil
        // Unlock, wake the next writer, then release what was replaced.
        observation.leaveLocked(TurnLeave(exit: store.exit, released: (old, oldCurrent), unpin: false), pinnedBy: nil)
        observation.absorbOwnWrite(newVersion: store.version)
        if !store.didSet.isEmpty { observation.fire(store.didSet, .didSet, object: object) }
        if external { reportExternally(.didSet, object: object) }
    }

    /// The `$property` machinery, created (seeded with the current value) on first use.
    @inlinable
    func subject() -> SubjectCore<Value, Never> {
        let observation = self.observation()
        observation.lock.lock()
        defer { observation.lock.unlock() }
        if let projection = observation.state.projection {
            return unsafeDowncast(projection, to: SubjectCore<Value, Never>.self)
        }
        valueLock.lock()
        let current = storedValue
        valueLock.unlock()
        let created = SubjectCore<Value, Never>(current: current)
        observation.state.project(created)
        return created
    }

    @usableFromInline
    func rememberAssignOwner(_ owner: AnyObject) {
        let observation = self.observation()
        observation.lock.lock()
        observation.state.rememberAssignOwner(owner)
        observation.lock.unlock()
    }

    /// A write from `assign(to:)`: like a property write, naming the owner if it is still alive.
    @usableFromInline
    func assign(_ newValue: Value) {
        let observation = self.observation()
        observation.lock.lock()
        let owner = observation.state.assignOwner
        observation.lock.unlock()
        set(newValue, object: owner)
    }

    @usableFromInline
    func keep(_ assignment: AnyCancellable) {
        let observation = self.observation()
        observation.lock.lock()
        observation.state.keep(assignment)
        observation.lock.unlock()
    }
}

@usableFromInline
enum ExternalPhase {
    case access
    case willSet
    case didSet
}
