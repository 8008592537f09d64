import RippleTrackingTypes  // TrackingPhase (not re-exported: Ripple's, not Combine's)

/// Everything observing one `@Published` property keeps, as one value: the property's tracker
/// (its version and armed tracking observers), the object's will-change publisher, the
/// `$property` subject as far as the box decides it (whether there is one), the writes' order
/// (``PublishedWriteMachine``), and the cold fields (`assign(to:)` subscriptions and owner, the
/// bridge's slot, the property's index). Kept by the property's ``PublishedObservation`` (a
/// ``TrackerStorage``) under its lock; the box's `setObserved` is two rounds of lock → transition
/// → unlock → act: ``beginWrite(thread:name:)`` (after a wait for the turn, if it says so) and
/// ``callouts(_:announce:)``, then the callouts; ``endWrite(_:)``, then the store, the wake and the
/// did-set observers.
///
/// Two fields are also written with the box's `valueLock` held — `tracker.version` (by
/// ``endWrite(_:)``, which the box calls with both locks held, in the same critical section of
/// `valueLock` as the store) and `willChange` (by ``link(_:)``) — so either lock is enough to read
/// them: the box reads its value and version together, or the will-change link, under `valueLock`
/// alone. Transitions write fields one by one, never the whole value, so those reads never meet
/// a write of another field.
@usableFromInline
struct PublishedState: TrackerStateHolder {
    /// The property's version (bumped with every store) and its armed tracking observers.
    @usableFromInline var tracker = TrackerState()
    /// The owning object's will-change publisher, once somebody asked for it; never replaced.
    @usableFromInline var willChange: ObservableObjectPublisher?
    /// The `$property` subject (a `SubjectCore<Value, Never>` of the box's `Value`), once used;
    /// never replaced.
    @usableFromInline var projection: AnyObject?
    /// Which observed writes wait for each other, and whether a write stores.
    @usableFromInline var writes = PublishedWriteMachine()
    /// `assign(to: &$property)` subscriptions: they live as long as the property does.
    var assignments: [AnyCancellable] = []
    /// The owning object, for writes that come through `assign(to:)` (which has no object of its
    /// own). Set only by the projection's setter, so only objects that use `assign(to:)` carry a
    /// weak reference.
    weak var assignOwner: AnyObject?
    /// The bridge's per-object state (see `_ExternalTracking.state`), kept in the first box.
    var externalSlot: AnyObject?
    /// The property's index in its class's layout (-1: not looked up yet).
    var propertyIndex = -1

    @inlinable
    init() {}

    // MARK: A write

    /// What a write does before it stores, decided as it begins. The publishers are borrowed: the
    /// state keeps both for good once set.
    @usableFromInline
    struct Callouts {
        /// How the write takes part in the order of writes.
        @usableFromInline let role: PublishedWriteMachine.Role
        /// The version when it began (a nested write stored meanwhile if it moved).
        @usableFromInline let startVersion: UInt64
        /// The tracking observers armed for will-set, taken from the tracker.
        @usableFromInline var willSet: FiringList
        /// The object's will-change publisher to send to (`nil`: none, or the write starts over).
        @usableFromInline let willChange: Unmanaged<ObservableObjectPublisher>?
        /// The `$property` subject to send the value to, if there is one.
        @usableFromInline let projection: Unmanaged<AnyObject>?

        @inlinable @inline(__always)
        init(
            role: PublishedWriteMachine.Role, startVersion: UInt64, willSet: FiringList,
            willChange: Unmanaged<ObservableObjectPublisher>?, projection: Unmanaged<AnyObject>?
        ) {
            self.role = role
            self.startVersion = startVersion
            self.willSet = willSet
            self.willChange = willChange
            self.projection = projection
        }
    }

    /// How a write ends, once its callouts have run.
    @usableFromInline
    enum End {
        /// Store the value (in the same critical section of the box's `valueLock` as this
        /// transition, which moved the version), then do what the ``Store`` says.
        case store(Store)
        /// A `$property` was made (from the value before this one) while the callouts ran: this
        /// write's value must go through it too. Begin again without announcing the write again.
        case startOver
    }

    /// What a write does once it stored, after unlocking.
    @usableFromInline
    struct Store {
        /// Wake the next writer, if any (``TurnRunner/leaveLocked(_:pinnedBy:)``).
        @usableFromInline let exit: DeliveryTurn.Exit
        /// A nested write stored first (a `$property` subscriber that assigned the property): this
        /// write stored over it, so `$property`'s current value becomes this write's again — done
        /// with the tracker's lock held, the turn still this write's.
        @usableFromInline let resetsProjection: Bool
        /// The version after the store (for this thread's open scopes, which absorb their own writes).
        @usableFromInline let version: UInt64
        /// The tracking observers armed for did-set, taken from the tracker.
        @usableFromInline var didSet: FiringList

        @inlinable @inline(__always)
        init(exit: DeliveryTurn.Exit, resetsProjection: Bool, version: UInt64, didSet: FiringList) {
            self.exit = exit
            self.resetsProjection = resetsProjection
            self.version = version
            self.didSet = didSet
        }
    }

    /// A write begins on `thread`: ``PublishedWriteMachine/Begin/write(_:)`` in a role at once, or
    /// ``PublishedWriteMachine/Begin/wait(_:)`` — sleep until handed the turn
    /// (``TurnRunner/enterLocked(_:keeping:resumed:giveBack:)``), then write as ``PublishedWriteMachine/Role/ordered``.
    /// Either way, take ``callouts(_:announce:)`` in the same critical section. `name` names the
    /// property in a deadlock report.
    @inlinable @inline(__always)
    mutating func beginWrite(thread: UInt, name: @autoclosure () -> String) -> PublishedWriteMachine.Begin {
        writes.begin(thread: thread, ordered: projection != nil, name: name())
    }

    /// What a write in `role` calls out before it stores: the will-set observers (taken from the
    /// tracker), the will-change publisher and `$property`. `announce`: `false` for a write that
    /// starts over (its will-set callouts ran already), which calls out only to `$property`.
    @inlinable @inline(__always)
    mutating func callouts(_ role: PublishedWriteMachine.Role, announce: Bool) -> Callouts {
        Callouts(
            role: role, startVersion: tracker.version,
            willSet: announce ? tracker.takeFiring(.willSet) : FiringList(),
            willChange: announce ? willChange.map { Unmanaged.passUnretained($0) } : nil,
            projection: projection.map { Unmanaged.passUnretained($0) })
    }

    /// A write has made its `callouts`. Call with the box's `valueLock` held too, and store in the
    /// same critical section of it when this returns ``End/store(_:)``: the version moves here.
    @inlinable @inline(__always)
    mutating func endWrite(_ callouts: Callouts) -> End {
        let resetsProjection: Bool
        let exit: DeliveryTurn.Exit
        switch writes.end(callouts.role, unchanged: tracker.version == callouts.startVersion, ordered: projection != nil) {
        case .startOver:
            return .startOver
        case .store(let given):
            exit = given
            resetsProjection = false
        case .storeOverNested(let given):
            exit = given
            resetsProjection = callouts.projection != nil
        }
        let version = tracker.stored()
        return .store(Store(exit: exit, resetsProjection: resetsProjection, version: version, didSet: tracker.takeFiring(.didSet)))
    }

    // MARK: Links and cold fields

    /// Links the object's will-change publisher unless one is linked already; returns the one linked
    /// afterwards. Call with the box's `valueLock` held too.
    mutating func link(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        if let willChange { return willChange }
        willChange = publisher
        return publisher
    }

    /// Records `created` (made from the stored value) as the `$property` subject.
    @usableFromInline
    mutating func project(_ created: AnyObject) {
        require(projection == nil, "a @Published property's $property is made once")
        projection = created
    }

    /// Keeps an `assign(to:)` subscription for the property's lifetime.
    mutating func keep(_ assignment: AnyCancellable) {
        assignments.append(assignment)
    }

    /// The property ends: the `assign(to:)` subscriptions, to cancel after unlocking.
    mutating func takeAssignments() -> [AnyCancellable] {
        defer { assignments = [] }
        return assignments
    }

    /// Remembers the owner `assign(to:)` writes name, unless one is known.
    mutating func rememberAssignOwner(_ owner: AnyObject) {
        if assignOwner == nil { assignOwner = owner }
    }

    /// Keeps `made` as the bridge's slot unless another thread kept one first; returns the one kept.
    mutating func keepExternalSlot(_ made: AnyObject) -> AnyObject {
        if let externalSlot { return externalSlot }
        externalSlot = made
        return made
    }
}
