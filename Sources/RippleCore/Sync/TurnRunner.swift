/// The one turn runner: the sequence around a delivery turn kept under an owner's lock, written
/// once and performed for every owner of a turn — an operator (``TurnStorage``, one turn), a
/// subject (`SubjectCore`, a ``TurnLock`` keeping one turn per subscriber in each conduit's
/// machine, all under the subject's lock), a `@Published` property's writes (its
/// `PublishedObservation`, a `TrackerStorage`, whose ``PublishedWriteMachine`` keeps the write
/// turn). An owner conforms by having the lock; the owner's machine decides under it, and hands
/// the decision (a ``TurnAdmission``, a ``TurnLeave``) to these methods.
///
/// A protocol, not a base class: trackers already have one (`PropertyTracker`, the non-generic
/// base that scopes and observers hold), so `TrackerStorage` cannot also inherit ``TurnLock``.
/// Every method is always inlined into the conforming owner's code, so a concrete owner pays what
/// a hand-written sequence costs.
///
/// The sequence, each step with the lock held on entry:
///
/// 1. **Enter** (``enterLocked(_:keeping:resumed:giveBack:)``): perform the machine's
///    ``TurnAdmission`` — drop (unlock), call now (nested or not), or park until handed the turn
///    and ask the machine whether to go on. Returns a ``TurnEntry``.
/// 2. **Deliver** (``unlocked(_:)``): call the downstream with the lock released; lock again.
/// 3. **Leave** (``leaveLocked(nested:pinnedBy:_:)``, ``leaveLocked(_:pinnedBy:)``, or
///    ``leaveTurnLocked(_:nested:)`` for a bare ``DeliveryTurn``): unless nested (the outermost
///    call gives the turn back), apply the machine's leave, unlock, wake the next waiter, release
///    what left the state, drop the pin.
///
/// A keeper that can be dropped while a thread holds its turn (a subject's conduit, cancelled
/// mid-delivery) pins itself with ``pinLocked(_:)``; the thread that gives the turn back drops the
/// pin in step 3, as its very last use of the keeper.
///
/// The machine is not passed in `inout`: no access to it may span a park (other threads change it
/// meanwhile), so the runner asks it through the closures it is given, each a fresh access.
@usableFromInline
package protocol TurnRunner: AnyObject {
    /// Guards the owner's state and every turn kept in it.
    var lock: Lock { get }
}

extension TurnRunner {
    /// Gives `turn` back unless `nested`, and unlocks; the next waiter, if any, is woken after
    /// unlocking. Called with `lock` and the turn held.
    @inlinable @inline(__always)
    func leaveTurnLocked(_ turn: inout DeliveryTurn, nested: Bool = false) {
        leaveLocked(nested: nested, pinnedBy: nil) { TurnLeave(exit: turn.leave(), released: (), unpin: false) }
    }

    /// Gives the turn back unless `nested` — then only unlocks: the outermost call on this thread
    /// gives it back — applying `leave` (the machine's leave transition, under the lock) and
    /// performing what it returns with ``leaveLocked(_:pinnedBy:)``. Called with `lock` and the
    /// turn held.
    @inlinable @inline(__always)
    func leaveLocked<Released: ~Copyable>(
        nested: Bool, pinnedBy keeper: AnyObject?, _ leave: () -> TurnLeave<Released>
    ) {
        lock.assertHeld()
        guard !nested else {
            lock.unlock()
            return
        }
        leaveLocked(leave(), pinnedBy: keeper)
    }

    /// Performs what a thread that wants a turn must do, as the turn's machine decided under the
    /// lock (`admission`): ``TurnAdmission/drop`` unlocks and returns ``TurnEntry/released``;
    /// ``TurnAdmission/call(nested:)`` returns ``TurnEntry/entered(nested:)`` at once;
    /// ``TurnAdmission/wait(_:)`` unlocks, parks until the turn is handed over (keeping `keeper`,
    /// the object the turn is kept in, alive meanwhile), locks again and asks `resumed` (a fresh
    /// look at the machine) whether to go on — if not, `giveBack` gives the turn straight back and
    /// unlocks, and the result is ``TurnEntry/released``. Called with `lock` held.
    @inlinable @inline(__always)
    func enterLocked(
        _ admission: TurnAdmission, keeping keeper: AnyObject? = nil,
        resumed: () -> Bool = { true }, giveBack: () -> Void = {}
    ) -> TurnEntry {
        lock.assertHeld()
        switch admission {
        case .drop:
            lock.unlock()
            return .released
        case .call(let nested):
            return .entered(nested: nested)
        case .wait(let waiter):
            lock.parkLocked(waiter, keeping: keeper)
            guard resumed() else {
                giveBack()
                return .released
            }
            return .entered(nested: false)
        }
    }

    /// Unlocks, then performs `leave`: wakes the next waiter, releases what left the state, and,
    /// if `leave` says so, drops `keeper`'s pin — the very last use of `keeper`, which may be gone
    /// when this returns. Called with `lock` held and the turn this thread's.
    @inlinable @inline(__always)
    func leaveLocked<Released: ~Copyable>(_ leave: consuming TurnLeave<Released>, pinnedBy keeper: AnyObject?) {
        lock.assertHeld()
        lock.unlock(handingOver: leave.exit)
        let unpin = leave.unpin
        _ = consume leave  // what it releases may run user code (a deinit): after unlocking
        if unpin, let keeper { Unmanaged.passUnretained(keeper).release() }
    }

    /// `keeper` (the object a turn is kept in) retains itself: it leaves its owner's keeping while
    /// a thread holds its turn, and the thread that gives the turn back drops the retain
    /// (``TurnLeave/unpin``). Called with `lock` held.
    @inlinable @inline(__always)
    func pinLocked(_ keeper: AnyObject) {
        lock.assertHeld()
        _ = Unmanaged.passUnretained(keeper).retain()
    }

    /// Runs `body` (user code: a delivery, a request, a cancel) with `lock` released, and locks
    /// again. Called with `lock` held.
    @inlinable @inline(__always)
    func unlocked<Result>(_ body: () -> Result) -> Result {
        lock.assertHeld()
        lock.unlock()
        let result = body()
        lock.lock()
        return result
    }
}
