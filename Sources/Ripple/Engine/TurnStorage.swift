/// The one storage behind every operator that delivers to one downstream in turns (merge,
/// combineLatest, zip, switchToLatest, buffer, the until-output operators): the lock, the
/// ``DeliveryTurn`` and the operator's state struct it guards, and, written once, the sequence every
/// such operator follows around a delivery:
///
/// 1. **Enter** (``enterTurnLocked(name:)``): apply ``DeliveryTurn/enter(_:name:)`` under the lock;
///    call now, nested if this thread already holds the turn further up its stack, or park until
///    the turn is handed over (the lock is released while the thread sleeps, held again after).
/// 2. **Deliver** (``unlocked(_:)``, ``callInTurnLocked(name:to:_:)``): call the downstream with the
///    lock released, then lock again.
/// 3. **Leave** (``leaveTurnLocked(nested:)``): apply ``DeliveryTurn/leave()`` under the lock (unless
///    nested: the outermost call gives the turn back), unlock, and wake the next waiter after
///    unlocking.
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
class TurnStorage<State>: TurnLock<State> {
    /// Who is calling the downstream, and who waits to. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) final var turn = DeliveryTurn()

    /// Storage starting in `state`, with nobody holding the turn.
    @inlinable
    override init(state: State) {
        super.init(state: state)
    }

    /// Takes this thread's turn: at once if it is free or this thread already holds it (then
    /// `true`: nested, do not give it back), or after sleeping until another thread hands it over
    /// (the lock is released meanwhile). Called with `lock` held; returns with it held and the turn
    /// this thread's. `name` names the downstream in a deadlock report.
    @inlinable @inline(__always)
    final func enterTurnLocked(name: @autoclosure () -> String) -> Bool {
        enterTurnLocked(&turn, name: name())
    }

    /// Gives the turn back unless `nested`, and unlocks; the next waiter, if any, is woken after
    /// unlocking. Called with `lock` and the turn held.
    @inlinable @inline(__always)
    final func leaveTurnLocked(nested: Bool = false) {
        leaveTurnLocked(&turn, nested: nested)
    }

    /// Enters the turn, then calls `call` with the lock released on what `target` returns under the
    /// lock (the downstream), and locks again. Returns the call's result and whether it was nested,
    /// with `lock` and the turn held: the caller updates the state and gives the turn back
    /// (``leaveTurnLocked(nested:)``, or a drain that does). If `target` returns `nil` (the
    /// downstream went away while this thread waited), gives the turn back, unlocks and returns
    /// `nil`. Called with `lock` held.
    @inlinable @inline(__always)
    final func callInTurnLocked<Target, Result>(
        name: @autoclosure () -> String, to target: () -> Target?, _ call: (Target) -> Result
    ) -> (result: Result, nested: Bool)? {
        let nested = enterTurnLocked(name: name())
        guard let target = target() else {
            leaveTurnLocked(nested: nested)
            return nil
        }
        lock.unlock()
        let result = call(target)
        lock.lock()
        return (result, nested)
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
    final func awaitTurnLocked(name: @autoclosure () -> String) {
        leaveTurnLocked(nested: enterTurnLocked(name: name()))
    }
}

/// A lock, the state it guards, and the sequence around a delivery turn kept under that lock,
/// written once for any number of turns: ``TurnStorage`` keeps one (an operator's downstream); a
/// subject keeps one per subscriber, in each subscriber's conduit, all under the subject's lock.
///
/// Rules, as for every owner of a ``Lock``: the state (and every turn kept under the lock) is read
/// and changed only with `lock` held; no user code runs with it held; what leaves the state is
/// released after unlocking.
@usableFromInline
class TurnLock<State> {
    /// Guards `state`, and the turns and fields the subclass says it guards.
    @usableFromInline final let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) final var state: State

    /// Storage starting in `state`.
    @inlinable
    init(state: State) {
        self.state = state
    }

    /// Takes this thread's turn of `turn` (kept under `lock`): at once if it is free or this thread
    /// already holds it (then `true`: nested, do not give it back), or after sleeping until another
    /// thread hands it over, with the lock released meanwhile (``enterTurnSlowLocked(_:_:keeping:)``).
    /// Called with `lock` held; returns with it held and the turn this thread's. `name` names the
    /// downstream in a deadlock report.
    @inlinable @inline(__always)
    final func enterTurnLocked(
        _ turn: inout DeliveryTurn, thread: UInt = currentThreadID(), name: @autoclosure () -> String,
        keeping owner: AnyObject? = nil
    ) -> Bool {
        switch turn.enter(thread, name: name()) {
        case .call(let nested):
            return nested
        case .wait(let waiter):
            enterTurnSlowLocked(waiter, turn.queue.unsafelyUnwrapped, keeping: owner)
            return false
        }
    }

    /// Sleeps until `waiter` is handed the turn, with the lock released meanwhile, keeping `owner`
    /// (the object the turn is kept in) alive while the thread holds no lock and, perhaps, no other
    /// reference to it. Out of line: only under contention.
    @inlinable @inline(never)
    final func enterTurnSlowLocked(_ waiter: TurnWaiter, _ queue: TurnQueue, keeping owner: AnyObject?) {
        // A retain of its own: the caller's reference may be borrowed from a list that can drop it
        // meanwhile. Given back with the lock held again, which is safe because it is never the
        // last reference: an owner dropped while a thread waits for its turn keeps itself alive
        // until that turn is given back (a subject's conduit pins itself), and then it is
        // released after unlocking.
        let kept = owner.map { Unmanaged.passRetained($0) }
        waiter.waitForTurn(on: queue, releasing: lock)
        kept?.release()
    }

    /// Gives `turn` back unless `nested`, and unlocks; the next waiter, if any, is woken after
    /// unlocking. Called with `lock` and the turn held.
    @inlinable @inline(__always)
    final func leaveTurnLocked(_ turn: inout DeliveryTurn, nested: Bool = false) {
        guard !nested else {
            lock.unlock()
            return
        }
        let exit = turn.leave()
        lock.unlock()
        if case .handOff(let next) = exit { next.wake() }
    }

    /// Runs `body` (user code: a delivery, a request, a cancel) with `lock` released, and locks
    /// again. Called with `lock` held.
    @inlinable @inline(__always)
    final func unlocked<Result>(_ body: () -> Result) -> Result {
        lock.unlock()
        let result = body()
        lock.lock()
        return result
    }
}
