import RippleTrackingTypes  // TrackingEvent, TrackingPhase (not re-exported: Ripple's, not Combine's)

/// One tracked property's version and the observers armed on it, as a value: what every tracker
/// keeps under its lock (``TrackerStorage``), alone (a ``TrackingRegistrar`` key path's tracker) or
/// inside a larger state (a `@Published` property's ``PublishedState``, the Observation bridge's
/// ``ExternalTrackerState``). Its transitions decide; the storage locks, applies one, unlocks, and
/// then acts (fires what a transition took, releases what it removed).
@usableFromInline
package struct TrackerState {
    /// Bumped with every store.
    @usableFromInline package var version: UInt64
    /// The observers armed on this property: the first inline (the common case is one), the rest
    /// in an array.
    @usableFromInline var firstObserver: TrackingObserver?
    @usableFromInline var moreObservers: ContiguousArray<TrackingObserver> = []

    @inlinable
    package init(version: UInt64 = 0) {
        self.version = version
    }

    /// Whether any observer is armed.
    @inlinable
    var hasObservers: Bool { firstObserver != nil || !moreObservers.isEmpty }

    /// A change in `phase` is announced: removes and returns the observers that fire for it
    /// (one-shots leave; continuous ones stay). Nothing to take, nothing called: inlined, so a
    /// property nobody tracks pays one check.
    @inlinable @inline(__always)
    mutating func takeFiring(_ phase: TrackingPhase) -> FiringList {
        hasObservers ? takeFiringArmed(phase) : FiringList()
    }

    /// ``takeFiring(_:)`` with observers armed.
    @usableFromInline
    mutating func takeFiringArmed(_ phase: TrackingPhase) -> FiringList {
        let mask = TrackingPhases(phase)
        var firing = FiringList()
        if let first = firstObserver, first.phases.contains(mask) {
            if first.isContinuous {
                firing.first = first
            } else {
                firing.first = firstObserver.take()
            }
        }
        if !moreObservers.isEmpty {
            var more = ContiguousArray<TrackingObserver>()
            moreObservers.removeAll { observer in
                guard observer.phases.contains(mask) else { return false }
                more.append(observer)
                return !observer.isContinuous
            }
            if !more.isEmpty { firing.more = more }
        }
        return firing
    }

    /// A store: the version moves on. Returns the new version (for this thread's open scopes, which
    /// absorb their own writes).
    @inlinable @inline(__always)
    mutating func stored() -> UInt64 {
        version &+= 1
        return version
    }

    /// A change announced from outside (a registrar's will-set or did-set, the bridge's report):
    /// a did-set is a store. Returns the version after it and the observers to fire.
    mutating func changed(_ phase: TrackingPhase) -> (version: UInt64, firing: FiringList) {
        if phase == .didSet { version &+= 1 }
        return (version, takeFiring(phase))
    }

    /// Arms `observer`, which read the property at `version`. Returns `false` when the property
    /// changed since: a one-shot observer is then not armed (it fires at once instead), a
    /// continuous one is armed anyway (it fires at once *and* keeps listening).
    mutating func arm(_ observer: TrackingObserver, ifStillAt version: UInt64) -> Bool {
        let current = self.version == version
        guard current || observer.isContinuous else { return false }
        if firstObserver == nil {
            firstObserver = observer
        } else {
            moreObservers.append(observer)
        }
        return current
    }

    /// Removes `observer` if it is armed; returns it, for release after unlocking.
    mutating func disarm(_ observer: TrackingObserver) -> TrackingObserver? {
        if firstObserver === observer { return firstObserver.take() }
        guard let index = moreObservers.firstIndex(where: { $0 === observer }) else { return nil }
        return moreObservers.remove(at: index)
    }
}

/// A state that holds a tracker's ``TrackerState`` (and whatever else its owner keeps under the
/// same lock), so ``TrackerStorage`` can arm and disarm observers on it.
@usableFromInline
package protocol TrackerStateHolder {
    var tracker: TrackerState { get set }
}

extension TrackerState: TrackerStateHolder {
    /// A tracker with nothing else under its lock holds just this.
    @inlinable
    package var tracker: TrackerState {
        get { self }
        _modify { yield &self }
    }
}

/// The storage of every tracker: its lock and its state, as ``TurnLock`` keeps them for the
/// delivery owners — lock, apply a transition, unlock, act. `State` is the tracker's whole state:
/// ``TrackerState`` itself (a ``TrackingRegistrar`` key path's), ``PublishedState`` (a `@Published`
/// property's ``PublishedObservation``), ``ExternalTrackerState`` (``ExternalTracker``).
///
/// A ``TurnRunner``, as ``TurnLock`` is: a tracker whose state keeps a turn (a `@Published`
/// property's writes, ordered by its ``PublishedWriteMachine``) performs it with the same runner
/// code as operators and subjects. Not a ``TurnLock`` subclass: scopes and observers hold trackers
/// of every kind as one non-generic ``PropertyTracker`` (a pointer per read, compared by address),
/// and a class has one base.
///
/// Rules, as for every owner of a ``Lock``: `state` is read and changed only with `lock` held
/// (``PublishedState`` names the two fields also written under its box's lock, for readers that
/// hold only that one); no user code runs with it held; what leaves the state is released after
/// unlocking.
@usableFromInline
package class TrackerStorage<State: TrackerStateHolder>: PropertyTracker, TurnRunner, @unchecked Sendable {
    @usableFromInline package final let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) package final var state: State

    @inlinable
    package init(state: State) {
        self.state = state
        super.init()
    }

    override package final var version: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return state.tracker.version
    }

    override final func arm(_ observer: TrackingObserver, ifStillAt version: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return state.tracker.arm(observer, ifStillAt: version)
    }

    override final func disarm(_ observer: TrackingObserver) {
        lock.lock()
        let removed = state.tracker.disarm(observer)
        lock.unlock()
        _ = removed  // released outside the lock
    }

    /// Tells the observers armed for `phase` about a change; `.didSet` also bumps the version.
    /// For trackers whose value lives elsewhere (``TrackingRegistrar``).
    package final func notify(_ phase: TrackingPhase, object: AnyObject?) {
        lock.lock()
        let (newVersion, firing) = state.tracker.changed(phase)
        lock.unlock()
        if phase == .didSet { absorbOwnWrite(newVersion: newVersion) }
        if !firing.isEmpty { fire(firing, phase, object: object) }
    }
}
