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
    /// The observers armed on this property: the first inline (the common case is one), the rest
    /// in an array. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline
    var firstObserver: TrackingObserver?
    @exclusivity(unchecked) @usableFromInline
    var moreObservers: ContiguousArray<TrackingObserver> = []

    /// Whether any observer is armed. Call with `lock` held.
    @inlinable
    final var hasObserversLocked: Bool {
        firstObserver != nil || !moreObservers.isEmpty
    }
    /// What events name, learned from the first tracked access. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline
    var identity: TrackedIdentity?

    @usableFromInline
    init() {}

    /// Records a read, seen at `version`, in the current thread's tracking scope.
    @usableFromInline
    final func record(version: UInt64, object: AnyObject, identify: () -> TrackedIdentity) {
        ThreadLocalCollector.withCurrent { collector in
            guard let collector, collector.record(self, version: version, object: object) else { return }
            // First read of this property in this scope: make sure events can name it.
            lock.lock()
            let known = identity != nil
            lock.unlock()
            guard !known else { return }
            let made = identify()
            lock.lock()
            if identity == nil { identity = made }
            lock.unlock()
        }
    }

    /// Called with `lock` held: removes and returns the observers that fire for `phase` (one-shots
    /// leave; continuous ones stay).
    @usableFromInline
    final func takeFiringLocked(_ phase: TrackingPhase) -> FiringList {
        let mask = TrackingPhases(phase)
        var firing = FiringList()
        if let first = firstObserver, first.phases.contains(mask) {
            firing.first = first
            if !first.isContinuous { firstObserver = nil }
        }
        if !moreObservers.isEmpty {
            moreObservers.removeAll { observer in
                guard observer.phases.contains(mask) else { return false }
                firing.more.append(observer)
                return !observer.isContinuous
            }
        }
        return firing
    }

    /// Called with `lock` held: the event to hand observers (`object` wins over the remembered one).
    @usableFromInline
    final func eventLocked(_ phase: TrackingPhase, object: AnyObject?) -> TrackingEvent? {
        guard let object else { return nil }  // no owner any more: nobody to tell about it
        return TrackingEvent(object: object, tracker: self, name: identity?.name, keyPath: identity?.keyPath, phase: phase)
    }

    /// Tells the observers armed for `phase` about a change; `.didSet` also bumps the version.
    /// For trackers whose value lives elsewhere (``TrackingRegistrar``).
    @usableFromInline
    final func notify(_ phase: TrackingPhase, object: AnyObject?) {
        lock.lock()
        if phase == .didSet { version &+= 1 }
        guard hasObserversLocked else {
            lock.unlock()
            return
        }
        let firing = takeFiringLocked(phase)
        let event = eventLocked(phase, object: object)
        lock.unlock()
        if let event { fire(firing, event) }
    }

    @usableFromInline
    final func fire(_ observers: FiringList, _ event: TrackingEvent) {
        observers.first?.fire(event)
        for observer in observers.more {
            observer.fire(event)
        }
    }

    /// Arms `observer` on this property. Returns `false` when the property changed since it was read
    /// at `version`; a one-shot observer is then not armed (it fires at once instead), a continuous
    /// one is armed anyway (it fires at once *and* keeps listening).
    final func arm(_ observer: TrackingObserver, ifStillAt version: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let current = self.version == version
        guard current || observer.isContinuous else { return false }
        if firstObserver == nil {
            firstObserver = observer
        } else {
            moreObservers.append(observer)
        }
        return current
    }

    final func disarm(_ observer: TrackingObserver) {
        lock.lock()
        if firstObserver === observer {
            firstObserver = nil
        } else if let index = moreObservers.firstIndex(where: { $0 === observer }) {
            moreObservers.remove(at: index)
        }
        lock.unlock()
    }

    final var identitySnapshot: TrackedIdentity? {
        lock.lock()
        defer { lock.unlock() }
        return identity
    }
}

/// The observers a change fires: the first inline, so the common single observer needs no array.
@usableFromInline
struct FiringList {
    @usableFromInline var first: TrackingObserver?
    @usableFromInline var more: ContiguousArray<TrackingObserver> = []

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { first == nil && more.isEmpty }
}

/// What events say about a tracker's property.
///
/// It holds no reference to the object: a weak reference would give the object a side table and
/// send every later retain and release of it down the runtime's slow path. Writers pass the object.
@usableFromInline
final class TrackedIdentity: @unchecked Sendable {
    /// The property's name (`apples`), when known.
    @usableFromInline let name: String?
    /// The exact key path, for properties announced through ``TrackingRegistrar``.
    @usableFromInline let keyPath: AnyKeyPath?

    @usableFromInline
    init(name: String?, keyPath: AnyKeyPath?) {
        self.name = name
        self.keyPath = keyPath
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

    let phases: TrackingPhases
    let isContinuous: Bool
    private let lock = Lock()
    private var status = Status.armed
    /// The properties this observer is armed on (the first inline).
    private var firstTracker: PropertyTracker?
    private var moreTrackers: [PropertyTracker] = []
    private var onChange: (@Sendable (TrackingEvent) -> Void)?

    init(phases: TrackingPhases, continuous: Bool, onChange: @escaping @Sendable (TrackingEvent) -> Void) {
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
            let current = access.tracker.arm(self, ifStillAt: access.version)
            if current || isContinuous {
                lock.lock()
                if firstTracker == nil { firstTracker = access.tracker } else { moreTrackers.append(access.tracker) }
                lock.unlock()
            }
            if !current {
                if stale == nil { stale = access }
                // A one-shot fires now and is done; a continuous observer keeps arming the rest.
                if !isContinuous { break }
            }
        }
        if let stale {
            let identity = stale.tracker.identitySnapshot
            fire(
                TrackingEvent(
                    object: stale.object, tracker: stale.tracker, name: identity?.name, keyPath: identity?.keyPath,
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
        var leavingFirst: PropertyTracker?
        var leavingMore: [PropertyTracker] = []
        if !isContinuous {
            status = .done
            (leavingFirst, leavingMore) = (firstTracker, moreTrackers)
            (firstTracker, moreTrackers) = (nil, [])
            self.onChange = nil
        }
        lock.unlock()
        leavingFirst?.disarm(self)
        for tracker in leavingMore { tracker.disarm(self) }
        onChange?(event)
    }

    /// Stops the observer at once: it leaves every property and never fires again.
    func cancel() {
        lock.lock()
        status = .done
        let (leavingFirst, leavingMore) = (firstTracker, moreTrackers)
        (firstTracker, moreTrackers) = (nil, [])
        let released = onChange
        onChange = nil
        lock.unlock()
        leavingFirst?.disarm(self)
        for tracker in leavingMore { tracker.disarm(self) }
        _ = released
    }
}

/// A set of ``TrackingPhase``s as a bitmask (no hashing on the notify path).
struct TrackingPhases: OptionSet, Sendable {
    let rawValue: UInt8

    static let willSet = TrackingPhases(rawValue: 1)
    static let didSet = TrackingPhases(rawValue: 2)

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    init(_ phase: TrackingPhase) {
        self = phase == .willSet ? .willSet : .didSet
    }
}
