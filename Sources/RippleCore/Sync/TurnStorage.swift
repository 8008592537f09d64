#if canImport(Darwin)
import Darwin
#endif

/// ``TurnLock`` with one turn: the storage behind every operator that delivers to one downstream in
/// turns (merge, combineLatest, zip, switchToLatest, buffer, the until-output operators) — the lock,
/// the ``DeliveryTurn`` and the operator's state struct it guards. Its methods are thin wrappers
/// that run the one ``TurnRunner`` sequence (the one a subject's conduits run, one turn per subscriber)
/// on this one turn:
///
/// 1. **Enter** (``enterTurnLocked(name:)``): apply ``DeliveryTurn/enter(_:name:)`` under the lock,
///    and perform it with ``TurnRunner/enterLocked(_:keeping:resumed:giveBack:)``: call now, nested
///    if this thread already holds the turn further up its stack, or park until the turn is handed
///    over (the lock is released while the thread sleeps, held again after).
/// 2. **Deliver** (``unlocked(_:)``, ``callInTurnLocked(name:to:_:)``): call the downstream with the
///    lock released, then lock again.
/// 3. **Leave** (``leaveTurnLocked(nested:)``): apply ``DeliveryTurn/leave()`` under the lock (unless
///    nested: the outermost call gives the turn back), and perform it with
///    ``TurnRunner/leaveLocked(_:pinnedBy:)``: unlock, and wake the next waiter after unlocking.
///
/// Operators subclass it (`final class MergeCore<…>: TurnStorage<MergeState>`), so the lock, the turn
/// and the state stay inline in the operator's object (no extra allocation, no indirection), and every
/// method here is inlined into the operator's specialized code: the single-thread fast path costs
/// what the hand-written sequence did.
///
/// Rules, as for every owner of a ``Lock``: the state is read and changed only with `lock` held; no
/// user code runs with it held (the closures given to the methods that run "under the lock" must not
/// call out); what leaves the state is released after unlocking.
@usableFromInline
package class TurnStorage<State>: TurnLock<State> {
    /// Who is calling the downstream, and who waits to. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) final var turn = DeliveryTurn()

    /// Storage starting in `state`, with nobody holding the turn.
    @inlinable
    package override init(state: State) {
        super.init(state: state)
    }

    /// Takes this thread's turn: at once if it is free or this thread already holds it (then
    /// `true`: nested, do not give it back), or after sleeping until another thread hands it over
    /// (the lock is released meanwhile). Called with `lock` held; returns with it held and the turn
    /// this thread's. `name` names the downstream in a deadlock report.
    @inlinable @inline(__always)
    final func enterTurnLocked(name: @autoclosure () -> String) -> Bool {
        // The transition's access to `turn` ends before the thread parks: other threads change the
        // turn meanwhile.
        let admission = TurnAdmission(turn.enter(currentThreadID(), name: name()))
        // An operator's turn admits every caller, and nothing ends it while a thread waits: never
        // `.released`.
        guard case .entered(let nested) = enterLocked(admission) else {
            require(false, "an operator's turn released a thread it admitted")
            return false
        }
        return nested
    }

    /// Takes the turn, which must be free (an owner that admits one caller at a time, as `observe`'s
    /// loop does); `false` when it is not — held by this thread or another. Called with `lock` held.
    @inlinable @inline(__always)
    package final func takeFreeTurnLocked(name: @autoclosure () -> String) -> Bool {
        lock.assertHeld()
        guard case .call(nested: false) = turn.enter(currentThreadID(), name: name()) else { return false }
        return true
    }

    /// Gives the turn back unless `nested`, and unlocks; the next waiter, if any, is woken after
    /// unlocking. Called with `lock` and the turn held.
    @inlinable @inline(__always)
    package final func leaveTurnLocked(nested: Bool = false) {
        leaveTurnLocked(&turn, nested: nested)
    }

    /// Enters the turn, then calls `call` with the lock released on what `target` returns under the
    /// lock (the downstream), and locks again. ``TurnCall/called(_:nested:)``: the call's result and
    /// whether it was nested, with `lock` and the turn held — the caller updates the state and gives
    /// the turn back (``leaveTurnLocked(nested:)``, or a drain that does). ``TurnCall/released``:
    /// `target` returned `nil` (the downstream went away while this thread waited); the turn was
    /// given back and `lock` released. Called with `lock` held.
    @inlinable @inline(__always)
    final func callInTurnLocked<Target, Result>(
        name: @autoclosure () -> String, to target: () -> Target?, _ call: (Target) -> Result
    ) -> TurnCall<Result> {
        let nested = enterTurnLocked(name: name())
        guard let target = target() else {
            leaveTurnLocked(nested: nested)
            return .released
        }
        lock.unlock()
        let result = call(target)
        lock.lock()
        return .called(result, nested: nested)
    }

    /// Enters the turn, runs `inTurn` under the lock (say, to add a request's demand: it counts from
    /// this thread's turn on), then: nested, unlocks (the outermost call on this thread drains);
    /// otherwise calls `drain`, with `lock` and the turn held, which must give the turn back and
    /// unlock. Called with `lock` held; returns `inTurn`'s result.
    @inlinable @inline(__always)
    final func takeTurnLocked<Result>(
        name: @autoclosure () -> String, _ inTurn: () -> Result, drain: () -> Void
    ) -> Result {
        let nested = enterTurnLocked(name: name())
        let result = inTurn()
        if nested {
            lock.unlock()
        } else {
            drain()
        }
        return result
    }

    /// Waits for this thread's turn (after the delivery another thread has in progress; at once,
    /// nested, from inside a delivery on this thread), gives it straight back, and unlocks: for a
    /// completion to a downstream already detached from the state, which the caller then delivers
    /// (nobody else calls it after). Called with `lock` held.
    @inlinable @inline(__always)
    package final func awaitTurnLocked(name: @autoclosure () -> String) {
        leaveTurnLocked(nested: enterTurnLocked(name: name()))
    }
}

/// How ``TurnStorage/callInTurnLocked(name:to:_:)`` left the lock: the exit state in the type, for
/// the caller to switch on.
@usableFromInline
enum TurnCall<Result> {
    /// The downstream was called and returned `Result`; `nested` if this thread held the turn
    /// already. The lock is held and the turn is this thread's.
    case called(Result, nested: Bool)
    /// There was nobody to call: the turn was given back and the lock released.
    case released
}

/// How ``TurnRunner/enterLocked(_:keeping:resumed:giveBack:)`` left the lock: the exit state in the
/// type, for the caller to switch on.
@usableFromInline
enum TurnEntry {
    /// The turn is this thread's (`nested` if it held it already); the lock is held.
    case entered(nested: Bool)
    /// There is nothing to call (dropped, or ended while this thread waited): the lock was
    /// released.
    case released
}

/// What a thread that wants a turn does next, as the turn's machine decided under the lock: a
/// ``DeliveryTurn/Entry``, or nothing at all (a subject's conduit drops a value its subscriber has
/// no demand for). Performed by ``TurnRunner/enterLocked(_:keeping:resumed:giveBack:)``.
@usableFromInline
enum TurnAdmission {
    /// Nothing to call: give up.
    case drop
    /// Call now; `nested` when this thread already holds the turn further up its stack (the nested
    /// call must not give it back).
    case call(nested: Bool)
    /// Park until handed the turn (``TurnWaiter``), then ask the machine whether to go on.
    case wait(TurnWaiter)

    /// What ``DeliveryTurn/enter(_:name:)`` returned.
    @inlinable @inline(__always)
    init(_ entry: DeliveryTurn.Entry) {
        switch entry {
        case .call(let nested): self = .call(nested: nested)
        case .wait(let waiter): self = .wait(waiter)
        }
    }
}

/// What a thread giving a turn back does after unlocking, in this order, as the turn's machine
/// decided under the lock: wake the next waiter (the turn is already its own), release what left
/// the state (`Released`: a subject's subscriber, or nothing), drop the keeper's pin (its retain on
/// itself, taken by ``TurnRunner/pinLocked(_:)``) as the very last use of the keeper. Performed by
/// ``TurnRunner/leaveLocked(_:pinnedBy:)``.
@usableFromInline
struct TurnLeave<Released: ~Copyable>: ~Copyable {
    /// Wake the next waiter, or nothing.
    @usableFromInline var exit: DeliveryTurn.Exit
    /// Released by dropping it, after unlocking.
    @usableFromInline var released: Released
    /// Drop the keeper's retain on itself.
    @usableFromInline var unpin: Bool

    @inlinable @inline(__always)
    init(exit: DeliveryTurn.Exit, released: consuming Released, unpin: Bool) {
        self.exit = exit
        self.released = released
        self.unpin = unpin
    }
}

/// The storage of an owner that keeps its state and its turns under one lock: the lock, the state
/// it guards, and — as a ``TurnRunner`` — the one sequence around a delivery turn, written once for
/// any number of turns. ``TurnStorage`` keeps one (an operator's downstream) and wraps the runner's
/// methods for it; a subject (`SubjectCore`) keeps one per subscriber, in each subscriber's conduit
/// machine, all under the subject's lock, and its conduits call the runner's methods with their
/// machine's decisions.
///
/// Rules, as for every owner of a ``Lock``: the state (and every turn kept under the lock) is read
/// and changed only with `lock` held; no user code runs with it held; what leaves the state is
/// released after unlocking.
@usableFromInline
package class TurnLock<State>: TurnRunner {
    /// Guards `state`, and the turns and fields the subclass says it guards.
    @usableFromInline package final let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) package final var state: State

    /// Storage starting in `state`.
    @inlinable
    package init(state: State) {
        self.state = state
    }
}

/// The two primitives of a ``DeliveryTurn`` with the owner's lock — park until handed the turn,
/// unlock and wake the next waiter — which ``TurnRunner`` performs for every owner of a turn.
extension Lock {
    /// Unlocks, sleeps until `waiter` is handed the turn, locks again. Out of line: only under
    /// contention.
    @usableFromInline @inline(never)
    func parkLocked(_ waiter: TurnWaiter, keeping owner: AnyObject?) {
        // A retain of its own: the caller's reference may be borrowed from a list that can drop it
        // meanwhile. Given back with the lock held again, which is safe because it is never the
        // last reference: an owner dropped while a thread waits for its turn keeps itself alive
        // until that turn is given back (a subject's conduit pins itself).
        let kept = owner.map { Unmanaged.passRetained($0) }
        #if canImport(Darwin)
        // The turn's holder runs at this thread's quality of service until the turn is handed
        // over (the condition variable the waiter sleeps on donates nothing by itself). Started
        // with the lock held, while the holder cannot give the turn back, let alone exit.
        let donation = waiter.queue.donateQualityOfServiceLocked()
        #endif
        unlock()
        waiter.waitForTurn()
        #if canImport(Darwin)
        if let donation { _ = pthread_override_qos_class_end_np(donation) }
        #endif
        lock()
        kept?.release()
    }

    /// Unlocks, then performs what ``DeliveryTurn/leave()`` returned: wakes the next waiter.
    @inlinable @inline(__always)
    func unlock(handingOver exit: DeliveryTurn.Exit) {
        unlock()
        if case .handOff(let next) = exit { next.wake() }
    }
}
