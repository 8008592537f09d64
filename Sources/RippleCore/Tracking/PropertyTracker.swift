#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif
import RippleTrackingTypes  // TrackingEvent, TrackingPhase (not re-exported: Ripple's, not Combine's)

/// One tracked property of one object, as scopes and observers see it: what a read records (by
/// address), what observers arm on, what events name. Its version and observers are a
/// ``TrackerState`` kept by its storage, ``TrackerStorage`` — the one subclass, which implements
/// the three overridable members below: every `@Published` property's ``PublishedObservation``
/// (whose ``PublishedState`` holds the tracker's state beside the property's write machine),
/// ``TrackingRegistrar``'s trackers (one per key path, for hand-written classes), and the
/// Observation bridge's ``ExternalTracker``, which stands for another system's reads.
@usableFromInline
package class PropertyTracker: @unchecked Sendable {
    /// What events name, learned from the first tracked access: set once, then read with one
    /// atomic load (the tracker owns a +1 on it).
    @usableFromInline
    final let identityStorage = AtomicCell<Unmanaged<TrackedIdentity>?>(nil)

    @usableFromInline
    init() {}

    deinit {
        identityStorage.load(ordering: .acquiring)?.release()
    }

    /// The current version (one critical section of the tracker's lock). Overridden by
    /// ``TrackerStorage``, the only subclass.
    package var version: UInt64 { abstractTracker() }

    /// Arms `observer` on this property. Returns `false` when the property changed since it was read
    /// at `version`; a one-shot observer is then not armed (it fires at once instead), a continuous
    /// one is armed anyway (it fires at once *and* keeps listening). See ``TrackerState/arm(_:ifStillAt:)``.
    func arm(_ observer: TrackingObserver, ifStillAt version: UInt64) -> Bool { abstractTracker() }

    /// Removes `observer`, if armed. See ``TrackerState/disarm(_:)``.
    func disarm(_ observer: TrackingObserver) { abstractTracker() }

    /// What events say about this property, once known.
    package final var identity: TrackedIdentity? {
        identityStorage.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// Sets the identity unless one is set already.
    package final func setIdentityIfAbsent(_ make: () -> TrackedIdentity) {
        guard identityStorage.load(ordering: .acquiring) == nil else { return }
        let candidate = Unmanaged.passRetained(make())
        if !identityStorage.compareExchange(expected: nil, desired: candidate, ordering: .acquiringAndReleasing).exchanged {
            candidate.release()
        }
    }

    /// Records a read, seen at `version`, in the current thread's tracking scope.
    @usableFromInline
    package final func record(version: UInt64, object: AnyObject, identify: () -> TrackedIdentity) {
        // No closure around the collector: one capturing `self` and `object` retained and
        // released both on every read.
        guard let collector = TrackingThread.currentCollector,
            collector._withUnsafeGuaranteedRef({ $0.record(self, version: version, object: object) })
        else { return }
        // First read of this property in this scope: make sure events can name it.
        setIdentityIfAbsent(identify)
    }

    /// Hands `observers` (taken from this tracker under its lock) an event about `object`.
    @usableFromInline
    final func fire(_ observers: FiringList, _ phase: TrackingPhase, object: AnyObject?) {
        guard let object else { return }  // no owner any more: nobody to tell about it
        fire(observers, TrackingEvent(object: object, tracker: self, phase: phase))
    }

    /// Hands `observers` (taken from this tracker under its lock) `event`.
    final func fire(_ observers: FiringList, _ event: TrackingEvent) {
        observers.first?.fire(event, from: self)
        if let more = observers.more {
            for observer in more { observer.fire(event, from: self) }
        }
    }
}

/// Traps: ``PropertyTracker``'s storage is its one subclass, ``TrackerStorage``.
private func abstractTracker() -> Never {
    fatalError("PropertyTracker is abstract: its storage is TrackerStorage")
}

/// The observers a change fires: the first inline, so the common single observer needs no array
/// (and an empty list holds no references at all).
@usableFromInline
struct FiringList {
    @usableFromInline var first: TrackingObserver?
    @usableFromInline var more: ContiguousArray<TrackingObserver>?

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { first == nil && more == nil }
}

/// What events say about a tracker's property.
///
/// It holds no reference to the object: a weak reference would give the object a side table and
/// send every later retain and release of it down the runtime's slow path. Writers pass the object.
@usableFromInline
package final class TrackedIdentity: @unchecked Sendable {
    /// The property's name (`apples`), when known.
    @usableFromInline package let name: String?
    /// The exact key path, for properties announced through ``TrackingRegistrar``.
    @usableFromInline package let keyPath: AnyKeyPath?

    @usableFromInline
    package init(name: String?, keyPath: AnyKeyPath?) {
        self.name = name
        self.keyPath = keyPath
    }
}

/// A callback armed on the properties a tracking scope read.
///
/// A one-shot observer fires at most once — even when several threads write at the same moment —
/// and then leaves every property it was armed on. A continuous one fires on every change until
/// cancelled.
///
/// It keeps a lock of its own rather than a state in a storage: it arms on, fires from and leaves
/// many trackers, each taking its own tracker's lock, so its lists are taken under a lock it holds
/// alone, never inside a tracker's — one lock order across trackers.
///
/// Ownership: the list of properties is written once, under `lock`, before the observer is armed
/// anywhere (and not at all if it has finished by then); the thread that flips `finished` (the first
/// to fire, or a cancel) takes the list and the closure under `lock`, and lets them go after
/// unlocking. A continuous observer's closure, which fires repeatedly while a cancel may release
/// it, is read under `lock` too.
@usableFromInline
package final class TrackingObserver: @unchecked Sendable {
    let phases: TrackingPhases
    let isContinuous: Bool
    /// Whether another thread can reach the observer before ``arm(on:)`` returns — through a
    /// cancel token (`track`), or `observe`'s loop, which publishes it first. Then its lists and
    /// closure are written and taken under `lock`. A `withTracking` observer is reachable only
    /// through the trackers it is armed on, after its lists are written, and only the thread that
    /// flips `finished` takes them: it needs no lock.
    private let shared: Bool
    private let finished = AtomicCell<Bool>(false)
    private let lock = Lock()
    /// The properties this observer is armed on (the first inline). See the ownership note above.
    @exclusivity(unchecked) private var firstTracker: PropertyTracker?
    @exclusivity(unchecked) private var moreTrackers: [PropertyTracker]?
    @exclusivity(unchecked) private var onChange: (@Sendable (TrackingEvent) -> Void)?

    package init(
        phases: TrackingPhases, continuous: Bool, shared: Bool = true,
        onChange: @escaping @Sendable (TrackingEvent) -> Void
    ) {
        self.phases = phases
        self.isContinuous = continuous
        self.shared = shared || continuous
        self.onChange = onChange
    }

    /// Arms the observer on everything in `accesses`. If any of them changed after it was read,
    /// the observer fires at once (with a did-set event) instead of missing that write.
    package func arm(on accesses: [AccessCollector.Access]) {
        guard let first = accesses.first else { return }
        // Written before the observer is reachable from any tracker, under `lock` because a cancel
        // may come from another thread at any time (see the ownership note).
        let more = accesses.count > 1 ? accesses.dropFirst().map(\.tracker) : nil
        if shared {
            lock.lock()
            guard !finished.load(ordering: .acquiring) else {
                lock.unlock()
                return
            }
            firstTracker = first.tracker
            moreTrackers = more
            lock.unlock()
        } else if more != nil || first.isExternal {
            firstTracker = first.tracker
            moreTrackers = more
        }
        // (Not shared and armed on one property's tracker, which its object keeps alive: the lists
        // stay empty. Only that tracker fires the observer, or `arm` does for it, so there is
        // nothing to leave when it fires, and there is no cancel.)
        var stale: AccessCollector.Access?
        // By index: iterating the array itself would retain and release its buffer.
        for position in accesses.indices {
            let access = accesses[position]
            if finished.load(ordering: .acquiring) { return }
            let current = access.trackerReference._withUnsafeGuaranteedRef { $0.arm(self, ifStillAt: access.version) }
            if current || isContinuous, finished.load(ordering: .acquiring) {
                // Finished between the check and the arming (a write on another thread, or a
                // cancel): whoever finished it may have passed this tracker already.
                access.tracker.disarm(self)
                return
            }
            if !current {
                if stale == nil { stale = access }
                // A one-shot fires now and is done; a continuous observer keeps arming the rest.
                if !isContinuous { break }
            }
        }
        if let stale {
            // A one-shot was not added to the stale tracker, so that one needs no disarming.
            let event =
                (stale.tracker as? ExternalTracker)?.staleEvent
                ?? TrackingEvent(object: stale.object, tracker: stale.tracker, phase: .didSet)
            fire(event, from: stale.tracker)
        }
    }

    /// Calls `onChange` with `event`. A one-shot finishes first: it leaves every property except
    /// `firing`, which already dropped it (one-shots leave the tracker that fires them).
    func fire(_ event: TrackingEvent, from firing: PropertyTracker?) {
        if isContinuous {
            lock.lock()
            let onChange = self.onChange
            lock.unlock()
            onChange?(event)
            return
        }
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }  // the first to fire wins
        #if RIPPLE_EXPLORER
        explorerHooks?.claimed(ObjectIdentifier(self), "TrackingObserver.finished")
        #endif
        // This thread owns the observer's trackers and closure from here on.
        if shared { lock.lock() }
        let first = firstTracker.take()
        let more = moreTrackers.take()
        let onChange = self.onChange.take()
        if shared { lock.unlock() }
        if let first, first !== firing { first.disarm(self) }
        if let more {
            for tracker in more where tracker !== firing { tracker.disarm(self) }
        }
        onChange?(event)
    }

    /// Stops the observer at once: it leaves every property and never fires again.
    package func cancel() {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        #if RIPPLE_EXPLORER
        explorerHooks?.claimed(ObjectIdentifier(self), "TrackingObserver.finished")
        #endif
        // `arm` may be writing the lists on another thread, and a continuous observer's closure
        // may be being read by a writer's `fire`: all of it is taken under the lock.
        lock.lock()
        let first = firstTracker.take()
        let more = moreTrackers.take()
        let released = onChange.take()
        lock.unlock()
        first?.disarm(self)
        if let more {
            for tracker in more { tracker.disarm(self) }
        }
        _ = released  // released after unlocking: its captures' deinits are user code
    }
}

/// A set of ``TrackingPhase``s as a bitmask (no hashing on the notify path).
package struct TrackingPhases: OptionSet, Sendable {
    package let rawValue: UInt8

    static let willSet = TrackingPhases(rawValue: 1)
    static let didSet = TrackingPhases(rawValue: 2)

    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    package init(_ phase: TrackingPhase) {
        self = phase == .willSet ? .willSet : .didSet
    }
}
