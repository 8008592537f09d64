#if RIPPLE_EXPLORER
/// The interleaving explorer's seam (Checkers/): only in a build with `RIPPLE_EXPLORER` defined
/// (the Checkers package compiles the engine's sources that way); absent from every other build,
/// so it costs nothing there. ``Lock/lock()``, ``Lock/unlock()``, ``Lock/assertHeld()``,
/// ``TurnWaiter/waitForTurn()`` and ``TurnWaiter/wake()`` ask the installed hooks first; a hook
/// answers `false` (or `nil`) for a thread the explorer does not run, which then takes the real
/// path. Every call-out to user code happens after a ``Lock/unlock()`` and before the next
/// ``Lock/lock()``, so the explorer sees each of them between two of its scheduling points.
package protocol ExplorerHooks: AnyObject, Sendable {
    /// The calling thread wants `lock`: a scheduling point; returns once the thread holds it.
    func lock(_ lock: ExplorerLockIdentity) -> Bool
    /// The calling thread releases `lock`.
    func unlock(_ lock: ExplorerLockIdentity) -> Bool
    /// Whether the calling thread holds `lock`; `nil` for a thread the explorer does not run.
    func holds(_ lock: ExplorerLockIdentity) -> Bool?
    /// A waiter was created (under its owner's lock, in the order it joins `queue`).
    func created(_ waiter: AnyObject, queue: AnyObject)
    /// The calling thread waits until `waiter` is woken (at once if it was already).
    func park(_ waiter: AnyObject) -> Bool
    /// `waiter` is handed its turn.
    func wake(_ waiter: AnyObject) -> Bool
}

/// A lock's identity for the explorer (one per ``Lock``, in explorer builds only).
@usableFromInline
package final class ExplorerLockIdentity: Sendable {
    package init() {}
}

/// The explorer's hooks, installed by the checker before it starts its threads.
package nonisolated(unsafe) var explorerHooks: (any ExplorerHooks)?  // unsafe: written once by the checker before it starts any thread, only read after
#endif
