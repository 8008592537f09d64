/// One subscriber of a subject, as the subject's lock guards it: its demand, its ``DeliveryTurn``,
/// whether it is still subscribed, whether it owes the current value (``CurrentValueSubject``),
/// whether the conduit keeps itself alive, and the subscriber itself.
///
/// A value whose transitions return what the caller does after unlocking, in the manner of
/// ``DeliveryTurn`` and ``CombinerMachine``. Its owner (``SubjectConduit``) applies a transition with
/// the subject's lock held and hands the result to the subject's turn runner (``TurnRunner``, the
/// same one every operator's ``TurnStorage`` and a `@Published` property's writes use), which
/// performs it — calls the subscriber, parks until handed the turn, wakes the next waiter,
/// releases the subscriber — with the lock released. Nothing here calls out, sleeps or releases a user object: the subscriber leaves the machine only by being
/// returned (``Leave/released``, ``Termination/release(_:)``), for the caller to drop after
/// unlocking.
///
/// The transitions, as the conduit sequences them (each arrow is one critical section):
///
/// | operation | transitions |
/// |---|---|
/// | send | ``offer(thread:version:subjectCompleted:replays:)`` → [wait → ``resumed()``] → call → ``delivered(_:nested:subjectCompleted:replays:version:)`` (→ call the current value → `delivered` …) |
/// | request | ``request(_:thread:subjectCompleted:)`` → [wait → `resumed()`] → ``takeCurrentIfOwed(subjectCompleted:version:)`` → call → `delivered` … |
/// | completion | ``enterForCompletion(thread:)`` → [wait → `resumed()`] → ``terminate()`` → call → ``leave()`` |
/// | cancel | ``terminate()`` |
///
/// The explorer (`Checkers/`, `Documentation/Engine.md`) runs the real conduit, and so these
/// transitions, through every schedule of small scripts on two and three threads.
@usableFromInline
struct ConduitMachine<Output, Failure: Error>: ~Copyable {
    /// What the subscriber has asked for and not yet been sent.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Who is calling the subscriber, and who waits to. A ``CurrentValueSubject``'s conduit creates
    /// the turn's queue up front: it also keeps the version of the value last replayed.
    @usableFromInline var turn = DeliveryTurn()
    /// The subscriber; `.released` once terminated, except while a thread holds the turn (that
    /// thread may be calling it in place, and releases it when it gives the turn back).
    @usableFromInline var downstream: ConduitDownstream<Output, Failure>
    /// Cancelled, or sent the completion: nothing new starts.
    @usableFromInline var terminated = false
    /// ``CurrentValueSubject``: the subscriber has not seen the latest value and gets it on demand.
    @usableFromInline var owesCurrent: Bool
    /// The conduit holds a retain on itself (terminated while a thread held its turn), which the
    /// thread that gives the turn back drops.
    @usableFromInline var pinned = false

    /// A subscriber with no demand yet; `replaysCurrent` for a ``CurrentValueSubject``'s.
    @inlinable
    init(downstream: consuming ConduitDownstream<Output, Failure>, replaysCurrent: Bool) {
        self.downstream = downstream
        self.owesCurrent = replaysCurrent
        if replaysCurrent {
            turn.queue = TurnQueue(name: "CurrentValueSubject")
        }
    }

    // MARK: Actions

    /// What a thread that wants to call the subscriber does next: drop, call now (nested or not),
    /// or park until handed the turn, then apply ``resumed()`` — performed by the subject's
    /// ``TurnRunner/enterLocked(_:keeping:resumed:giveBack:)``.
    @usableFromInline
    typealias Entry = TurnAdmission

    /// What ``offer(thread:version:subjectCompleted:replays:)`` decided.
    @usableFromInline
    struct Offer {
        @usableFromInline var entry: Entry
        /// The demand was unlimited: what the call returns is not added (it stays unlimited).
        @usableFromInline var unlimited: Bool

        @inlinable
        init(_ entry: Entry, unlimited: Bool = false) {
            self.entry = entry
            self.unlimited = unlimited
        }
    }

    /// What the thread giving the turn back does after unlocking, in this order: wake the next
    /// waiter, release the subscriber (`.released` when nothing is), drop the conduit's pin —
    /// performed by the subject's ``TurnRunner/leaveLocked(_:pinnedBy:)``.
    @usableFromInline
    typealias Leave = TurnLeave<ConduitDownstream<Output, Failure>>

    /// What ``delivered(_:nested:subjectCompleted:replays:version:)`` decided.
    @usableFromInline
    enum AfterDelivery: ~Copyable {
        /// A nested call returned: the outermost call on this thread goes on.
        case nested
        /// Call the subscriber with the subject's current value (charged already), then apply
        /// `delivered` again.
        case deliverCurrent
        /// Give the turn back.
        case leave(Leave)
    }

    /// What ``terminate()`` decided.
    @usableFromInline
    enum Termination: ~Copyable {
        /// Terminated already: nothing to do.
        case none
        /// A thread holds the turn (this one further up its stack, or another): the conduit must
        /// retain itself now, before unlocking; that thread releases the subscriber and the retain
        /// when it gives the turn back.
        case pin
        /// Release the subscriber after unlocking.
        case release(ConduitDownstream<Output, Failure>)
    }

    /// What ``request(_:thread:subjectCompleted:)`` decided.
    @usableFromInline
    enum Request {
        /// Nothing more to do.
        case done
        /// The subscriber has demand now: the subject's upstreams may need asking.
        case askUpstreams
        /// The current value is owed: take the turn as `entry` says, then
        /// ``takeCurrentIfOwed(subjectCompleted:version:)``.
        case deliverCurrent(Entry)
    }

    // MARK: Transitions

    /// The subject sends a value (`version` counts the subject's sends): charge the demand and take
    /// the turn, or drop it — after the subscriber or the subject terminated, without demand (a
    /// ``CurrentValueSubject``'s subscriber then owes the current value), or a value already
    /// replayed to it as the current one.
    @inlinable
    mutating func offer(thread: UInt, version: UInt64, subjectCompleted: Bool, replays: Bool) -> Offer {
        guard !terminated, !subjectCompleted else { return Offer(.drop) }
        if replays, let queue = turn.queue, version <= queue.replayedVersion {
            return Offer(.drop)
        }
        guard demand > 0 else {
            if replays { owesCurrent = true }
            return Offer(.drop)
        }
        let unlimited = demand == .unlimited
        if !unlimited { demand -= 1 }
        if replays { owesCurrent = false }
        return Offer(enter(thread), unlimited: unlimited)
    }

    /// The subject completes: take the turn (values accepted before are delivered first), unless
    /// the subscriber is gone.
    @inlinable
    mutating func enterForCompletion(thread: UInt) -> Entry {
        terminated ? .drop : enter(thread)
    }

    /// The subscriber asks for `demand` more.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand, thread: UInt, subjectCompleted: Bool) -> Request {
        guard !terminated else { return .done }
        self.demand += demand
        guard owesCurrent, !subjectCompleted else { return .askUpstreams }
        return .deliverCurrent(enter(thread))
    }

    /// A thread parked by ``Entry/wait(_:)`` has been handed the turn: `false` if the subscriber
    /// went away meanwhile (then give the turn straight back with ``leave()``).
    @inlinable
    func resumed() -> Bool {
        !terminated
    }

    /// With the turn held: if the current value is owed and can be sent, charge it and return
    /// `true` (the caller sends the subject's current value).
    @inlinable
    mutating func takeCurrentIfOwed(subjectCompleted: Bool, version: UInt64) -> Bool {
        guard !terminated, owesCurrent, demand > 0, !subjectCompleted else { return false }
        owesCurrent = false
        // A CurrentValueSubject's conduit always has its queue.
        turn.queue?.replayedVersion = version
        demand -= 1
        return true
    }

    /// A call returned `returned` (pass `.none` when the demand was unlimited).
    @inlinable
    mutating func delivered(
        _ returned: Subscribers.Demand, nested: Bool, subjectCompleted: Bool, replays: Bool, version: UInt64
    ) -> AfterDelivery {
        if !terminated && returned != .none { demand += returned }
        if nested { return .nested }
        if replays && takeCurrentIfOwed(subjectCompleted: subjectCompleted, version: version) {
            return .deliverCurrent
        }
        return .leave(leave())
    }

    /// The holder gives the turn back: to the next waiter, or, if nobody waits, frees it — and if
    /// the subscriber was terminated meanwhile, lets it go, with the conduit's retain on itself.
    @inlinable
    mutating func leave() -> Leave {
        guard terminated, !turn.hasWaiters else {
            return Leave(exit: turn.leave(), released: .released, unpin: false)
        }
        _ = turn.leave()
        let unpin = pinned
        pinned = false
        return Leave(exit: .idle, released: downstream.take(), unpin: unpin)
    }

    /// Cancelled, or about to be sent the completion (with the turn held): nothing new starts.
    @inlinable
    mutating func terminate() -> Termination {
        guard !terminated else { return .none }
        terminated = true
        guard turn.isHeld else { return .release(downstream.take()) }
        guard !pinned else { return .none }
        pinned = true
        return .pin
    }

    /// Takes the turn for `thread`. (The name is used for the queue of a contended turn, which a
    /// ``CurrentValueSubject``'s conduit creates up front with its own name.)
    @inlinable
    mutating func enter(_ thread: UInt) -> Entry {
        TurnAdmission(turn.enter(thread, name: "PassthroughSubject"))
    }
}
