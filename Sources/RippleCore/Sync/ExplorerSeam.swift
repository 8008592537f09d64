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
    // The atomics mode (defaults below).
    func atomicOperation(_ word: UnsafeRawPointer, writes: Bool)
    func spinIterations(_ shipped: Int) -> Int
    func futexWait(_ word: UnsafeMutablePointer<UInt32>, expected: UInt32, milliseconds: Int32) -> Int32?
    func futexWake(_ word: UnsafeMutablePointer<UInt32>, count: Int32) -> Int32?
    func futexLockPI(_ word: UnsafeMutablePointer<UInt32>, me: UInt32, milliseconds: Int32) -> Int32?
    func futexUnlockPI(_ word: UnsafeMutablePointer<UInt32>, me: UInt32) -> Int32?
    func claimed(_ object: ObjectIdentifier, _ what: StaticString)
}

/// A lock's identity for the explorer (one per ``Lock``, in explorer builds only).
@usableFromInline
package final class ExplorerLockIdentity: Sendable {
    package init() {}
}

/// The atomics mode (Documentation/Engine.md, "Atomics outside locks"): a checker that answers
/// these runs the real lock and turn waiter — its ``lock(_:)``, ``unlock(_:)``, ``holds(_:)``,
/// ``park(_:)`` and ``wake(_:)`` answer `false` / `nil` then — and sees every ``AtomicCell``
/// operation as a scheduling point and every futex call as a call into its model of the kernel.
/// The defaults (for a checker that does not use the mode) leave everything to the real code.
extension ExplorerHooks {
    /// An ``AtomicCell`` operation on `word` is about to run on the calling thread (a load if not
    /// `writes`): a scheduling point.
    package func atomicOperation(_ word: UnsafeRawPointer, writes: Bool) {}
    /// How many times a spin loop the code ships with `shipped` iterations re-reads its word.
    package func spinIterations(_ shipped: Int) -> Int { shipped }
    /// `FUTEX_WAIT` on `word`: the `errno` (0 when woken), or `nil` to make the real call.
    package func futexWait(_ word: UnsafeMutablePointer<UInt32>, expected: UInt32, milliseconds: Int32) -> Int32? { nil }
    /// `FUTEX_WAKE` on `word`.
    package func futexWake(_ word: UnsafeMutablePointer<UInt32>, count: Int32) -> Int32? { nil }
    /// `FUTEX_LOCK_PI` on `word` by the thread whose ID is `me`.
    package func futexLockPI(_ word: UnsafeMutablePointer<UInt32>, me: UInt32, milliseconds: Int32) -> Int32? { nil }
    /// `FUTEX_UNLOCK_PI` on `word` by the thread whose ID is `me`.
    package func futexUnlockPI(_ word: UnsafeMutablePointer<UInt32>, me: UInt32) -> Int32? { nil }
    /// The calling thread won `object`'s one-shot claim (`what`): what the claim guards is its
    /// alone (the explorer checks that no object is claimed twice).
    package func claimed(_ object: ObjectIdentifier, _ what: StaticString) {}
}

/// The explorer's hooks, installed by the checker before it starts its threads.
package nonisolated(unsafe) var explorerHooks: (any ExplorerHooks)?  // unsafe: written once by the checker before it starts any thread, only read after
#endif
