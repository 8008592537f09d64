/// One tracked property of one object: a version, bumped with every store, and the observers armed
/// on it. Every `@Published` property's storage box is one (sharing the box's lock, so the value and
/// its version change in one critical section); ``TrackingRegistrar`` keeps one per key path for
/// hand-written classes.
@usableFromInline
class PropertyTracker: @unchecked Sendable {
    @usableFromInline
    let lock = Lock()
    /// Bumped with every store. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline
    var version: UInt64 = 0
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline
    var observers: ContiguousArray<TrackingObserver> = []
    /// What events name, learned from the first tracked access. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline
    var identity: TrackedIdentity?

    @usableFromInline
    init() {}

    /// Records a read, seen at `version`, in the current thread's tracking scope.
    @usableFromInline
    final func record(version: UInt64, object: AnyObject, keyPath: AnyKeyPath, storage: AnyKeyPath?) {
        guard let collector = ThreadLocalCollector.current else { return }
        lock.lock()
        if identity == nil {
            identity = TrackedIdentity(object: object, keyPath: keyPath, storageKeyPath: storage)
        }
        lock.unlock()
        collector.record(self, version: version, object: object)
    }

    /// Called with `lock` held: removes and returns the observers that fire for `phase` (one-shots
    /// leave the list; continuous ones stay).
    @usableFromInline
    final func takeFiringLocked(_ phase: TrackingPhase) -> ContiguousArray<TrackingObserver> {
        var firing: ContiguousArray<TrackingObserver> = []
        var remaining: ContiguousArray<TrackingObserver> = []
        for observer in observers {
            if observer.phases.contains(phase) {
                firing.append(observer)
                if !observer.isContinuous { continue }
            }
            remaining.append(observer)
        }
        observers = remaining
        return firing
    }

    /// Called with `lock` held: the event to hand observers (`object` wins over the remembered one).
    @usableFromInline
    final func eventLocked(_ phase: TrackingPhase, object: AnyObject?) -> TrackingEvent? {
        guard let subject = object ?? identity?.object else { return nil }
        return TrackingEvent(
            object: subject, keyPath: identity?.keyPath, storageKeyPath: identity?.storageKeyPath, phase: phase)
    }

    /// Tells the observers armed for `phase` about a change; `.didSet` also bumps the version.
    /// For trackers whose value lives elsewhere (``TrackingRegistrar``).
    @usableFromInline
    final func notify(_ phase: TrackingPhase, object: AnyObject?) {
        lock.lock()
        if phase == .didSet { version &+= 1 }
        guard !observers.isEmpty else {
            lock.unlock()
            return
        }
        let firing = takeFiringLocked(phase)
        let event = eventLocked(phase, object: object)
        lock.unlock()
        if let event { fire(firing, event) }
    }

    @usableFromInline
    final func fire(_ observers: ContiguousArray<TrackingObserver>, _ event: TrackingEvent) {
        for observer in observers {
            observer.fire(event)
        }
    }

    /// Arms `observer` unless the property changed since it was read at `version`; returns whether
    /// it was armed (`false`: the caller treats it as changed).
    final func arm(_ observer: TrackingObserver, ifStillAt version: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard self.version == version else { return false }
        observers.append(observer)
        return true
    }

    final func disarm(_ observer: TrackingObserver) {
        lock.lock()
        if let index = observers.firstIndex(where: { $0 === observer }) {
            observers.remove(at: index)
        }
        lock.unlock()
    }

    final var identitySnapshot: TrackedIdentity? {
        lock.lock()
        defer { lock.unlock() }
        return identity
    }
}

/// Which object and property a tracker stands for (the object weakly: the tracker lives inside it).
@usableFromInline
struct TrackedIdentity {
    @usableFromInline weak var object: AnyObject?
    @usableFromInline let keyPath: AnyKeyPath
    @usableFromInline let storageKeyPath: AnyKeyPath?

    @usableFromInline
    init(object: AnyObject, keyPath: AnyKeyPath, storageKeyPath: AnyKeyPath?) {
        self.object = object
        self.keyPath = keyPath
        self.storageKeyPath = storageKeyPath
    }
}

/// A callback armed on the properties a tracking scope read.
///
/// A one-shot observer fires at most once — even when several threads write at the same moment —
/// and then leaves every property it was armed on. A continuous one fires on every change until
/// cancelled.
@usableFromInline
final class TrackingObserver: @unchecked Sendable {
    private enum Status {
        case armed
        case done
    }

    let phases: Set<TrackingPhase>
    let isContinuous: Bool
    private let lock = Lock()
    private var status = Status.armed
    private var trackers: [PropertyTracker] = []
    private var onChange: (@Sendable (TrackingEvent) -> Void)?

    init(phases: Set<TrackingPhase>, continuous: Bool, onChange: @escaping @Sendable (TrackingEvent) -> Void) {
        self.phases = phases
        self.isContinuous = continuous
        self.onChange = onChange
    }

    /// Arms the observer on everything in `accesses`. If any of them changed after it was read,
    /// the observer fires at once (with a did-set event) instead of missing that write.
    func arm(on accesses: [AccessCollector.Access]) {
        var stale: AccessCollector.Access?
        for access in accesses {
            lock.lock()
            let active = status == .armed
            lock.unlock()
            guard active else { return }
            if access.tracker.arm(self, ifStillAt: access.version) {
                lock.lock()
                trackers.append(access.tracker)
                lock.unlock()
            } else {
                stale = access
                break
            }
        }
        if let stale {
            let identity = stale.tracker.identitySnapshot
            fire(
                TrackingEvent(
                    object: stale.object, keyPath: identity?.keyPath, storageKeyPath: identity?.storageKeyPath,
                    phase: .didSet))
        }
    }

    func fire(_ event: TrackingEvent) {
        lock.lock()
        guard case .armed = status else {
            lock.unlock()
            return
        }
        let onChange = self.onChange
        var leaving: [PropertyTracker] = []
        if !isContinuous {
            status = .done
            leaving = trackers
            trackers = []
            self.onChange = nil
        }
        lock.unlock()
        for tracker in leaving { tracker.disarm(self) }
        onChange?(event)
    }

    /// Stops the observer at once: it leaves every property and never fires again.
    func cancel() {
        lock.lock()
        status = .done
        let leaving = trackers
        trackers = []
        let released = onChange
        onChange = nil
        lock.unlock()
        for tracker in leaving { tracker.disarm(self) }
        _ = released
    }
}
