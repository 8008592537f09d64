#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WinSDK)
import WinSDK
#endif

/// A small non-recursive lock stored in its owner, backed by the operating system: it knows its
/// owner, a thread that finds it taken sleeps in the kernel (donating its priority to the holder
/// where the system can), and a thread that takes a lock it already holds traps with a message
/// instead of hanging.
///
/// - Linux and Android: a futex word stored inline (no allocation) holding the owner's kernel
///   thread ID — the layout of the kernel's priority-inheriting futexes. Taking a free lock is one
///   compare-and-swap of 0 to the caller's ID, unlocking one compare-and-swap back to 0; only a
///   thread that finds the lock taken enters the kernel (``lockSlow(_:)``), with `FUTEX_LOCK_PI`,
///   so the holder runs at the waiter's priority until it unlocks. If the kernel refuses the
///   priority-inheriting calls (a seccomp policy, an old kernel), the lock says so once, for the
///   whole process, and sleeps with plain `FUTEX_WAIT` instead; if that is refused too, it yields
///   the processor between tries. A thread whose `gettid(2)` is refused owns locks under a
///   synthetic ID (``firstSyntheticOwner``), and its first contended lock or unlock moves the
///   process to plain futexes the same way (the kernel's priority-inheriting futexes need real
///   IDs). `RIPPLE_LOCK=plain` in the environment, read the first time a lock has to wait, selects
///   plain futexes from the start (for policies that kill on `FUTEX_LOCK_PI`). Nothing is ever a
///   reason to trap but a self-deadlock.
/// - Windows: the same word and algorithm on `WaitOnAddress` / `WakeByAddressSingle`, owned by the
///   thread's ID.
/// - Darwin: `os_unfair_lock` (macOS 10.12, iOS 10), which knows its owner, donates priority to the
///   holder and traps on a self-deadlock, on a separately allocated word: the kernel knows a waiter
///   by the lock's address, which must not change while the owner is moved or borrowed.
///
/// Rules for every owner: keep all state the lock guards in one struct; decide under the lock,
/// call out after unlocking — and release what leaves the state (old values, subscribers, closures)
/// after unlocking too, since a deinit is user code.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
    #if canImport(Darwin)
    /// The `os_unfair_lock`, allocated by `init` and freed by `deinit`.
    @usableFromInline
    let unfairLock: os_unfair_lock_t

    /// Creates an unlocked lock. Out of line: made once per owner, not on a send.
    @usableFromInline
    package init() {
        unfairLock = .allocate(capacity: 1)
        unfairLock.initialize(to: os_unfair_lock())
    }

    deinit {
        unfairLock.deinitialize(count: 1)
        unfairLock.deallocate()
    }

    /// Takes the lock, sleeping while another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
        os_unfair_lock_lock(unfairLock)
    }

    /// Releases the lock (held by the calling thread).
    @inlinable @inline(__always)
    package func unlock() {
        os_unfair_lock_unlock(unfairLock)
    }

    /// Whether the calling thread holds the lock: traps if it does not (`os_unfair_lock` can only
    /// assert its owner, not report it). For ``assertHeld()``.
    @usableFromInline
    func isHeldByCurrentThread() -> Bool {
        os_unfair_lock_assert_owner(unfairLock)
        return true
    }
    #else
    /// 0 when free; otherwise the holder's ``kernelThreadID()``, with ``waitersBit`` set while
    /// threads may be asleep on it (set by the kernel, or by a sleeper on the plain futex path).
    @usableFromInline
    let word = AtomicCell<UInt32>(0)
    #if RIPPLE_EXPLORER
    @usableFromInline
    let explorerIdentity = ExplorerLockIdentity()
    #endif

    /// Creates an unlocked lock.
    @inlinable
    package init() {}

    /// Takes the lock: one compare-and-swap when it is free, ``lockSlow(_:)`` otherwise. Not
    /// inlined into clients: the thread ID comes from a C function clients need not see.
    @usableFromInline
    package func lock() {
        #if RIPPLE_EXPLORER
        if let hooks = explorerHooks, hooks.lock(explorerIdentity) { return }
        #endif
        let me = kernelThreadID()
        if word.compareExchange(
            expected: 0, desired: me, successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged {
            return
        }
        lockSlow(me)
    }

    /// Releases the lock (held by the calling thread): one compare-and-swap when nobody sleeps on
    /// it, ``unlockSlow(_:)`` otherwise. The fast path does not ask for the thread's ID (the word
    /// holds the owner's; debug builds check it is the caller's, and the slow path always does).
    @usableFromInline
    package func unlock() {
        #if RIPPLE_EXPLORER
        if let hooks = explorerHooks, hooks.unlock(explorerIdentity) { return }
        #endif
        let seen = word.load(ordering: .relaxed)
        assert(seen & Self.ownerMask == kernelThreadID(), "Ripple: a lock was released by a thread that does not hold it")
        // A free word (an unlock too many) goes to the slow path, which traps.
        if seen != 0, seen & Self.waitersBit == 0,
            word.compareExchange(
                expected: seen, desired: 0, successOrdering: .releasing, failureOrdering: .relaxed
            ).exchanged
        {
            return
        }
        unlockSlow(kernelThreadID())
    }

    /// Whether the calling thread holds the lock. For ``assertHeld()``.
    @usableFromInline
    func isHeldByCurrentThread() -> Bool {
        #if RIPPLE_EXPLORER
        if let held = explorerHooks?.holds(explorerIdentity) { return held }
        #endif
        return word.load(ordering: .relaxed) & Self.ownerMask == kernelThreadID()
    }

    /// In `word`: threads may be asleep on the lock (the kernel's `FUTEX_WAITERS`).
    static var waitersBit: UInt32 { 0x8000_0000 }
    /// In `word`: the owner's thread ID (the kernel's `FUTEX_TID_MASK`).
    static var ownerMask: UInt32 { 0x3FFF_FFFF }

    /// Owner IDs from here to ``ownerMask`` are synthetic: given to threads whose `gettid(2)` the
    /// kernel refused (CRippleSync.c, `RIPPLE_FIRST_SYNTHETIC_ID`). No thread has such an ID (real
    /// ones are below the kernel's `PID_MAX_LIMIT`, 2^22), and the kernel cannot hand a
    /// priority-inheriting futex to such an owner, so locks they take use plain futexes.
    static var firstSyntheticOwner: UInt32 { 0x0040_0000 }

    /// The longest a thread sleeps in the kernel before it looks at the word again. Sleeps are
    /// bounded so that a wake lost when the process switches from priority-inheriting to plain
    /// futexes (a policy that starts refusing them while a thread sleeps) costs a delay, never a
    /// hang.
    static var sleepMilliseconds: Int32 { 20 }

    /// Re-reads the word briefly (Ripple's critical sections are a handful of instructions), then
    /// sleeps in the kernel until the lock is this thread's. Traps if the caller already holds it.
    @inline(never)
    func lockSlow(_ me: UInt32) {
        if me >= Self.firstSyntheticOwner {
            // gettid was refused: the kernel would write this thread's real ID into the word on a
            // priority-inheriting hand-over, which this thread does not know as its own.
            LockKernel.refusePriorityInheritance()
        }
        #if RIPPLE_EXPLORER
        let spins = explorerHooks?.spinIterations(40) ?? 40
        #else
        let spins = 40
        #endif
        for _ in 0..<spins {
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(
                    expected: 0, desired: me, successOrdering: .acquiring, failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
        }
        while true {
            let seen = word.load(ordering: .relaxed)
            if seen & Self.ownerMask == me {
                lockTakenTwice()
            }
            switch LockKernel.mode {
            case .priorityInheriting:
                LockKernel.noteSleepWithPriorityInheritance()
                switch withAddress(of: word, { lockPI($0) }) {
                case .acquired:
                    // The kernel wrote this thread's ID; the acquiring load pairs with the releasing
                    // read-modify-write the unlocking thread made before handing over.
                    _ = word.load(ordering: .acquiring)
                    return
                case .again:
                    continue
                case .deadlock:
                    lockWaitNeverEnds()
                case .refused:
                    LockKernel.refusePriorityInheritance()
                    continue
                }
            case .plain, .yielding:
                if seen == 0 {
                    // Taken with the waiters bit set: this thread cannot tell whether others still
                    // sleep, so the unlock will wake one, to be safe.
                    if word.compareExchange(
                        expected: 0, desired: me | Self.waitersBit, successOrdering: .acquiring,
                        failureOrdering: .relaxed
                    ).exchanged {
                        return
                    }
                    continue
                }
                if seen & Self.waitersBit == 0,
                    !word.compareExchange(
                        expected: seen, desired: seen | Self.waitersBit, ordering: .relaxed
                    ).exchanged
                {
                    continue
                }
                waitOnWord(word, whileEqualTo: seen | Self.waitersBit, milliseconds: Self.sleepMilliseconds)
            }
        }
    }

    /// The caller holds the lock, and threads may sleep on it: hands it to one of them.
    ///
    /// Through the kernel whenever a sleeper may be in `FUTEX_LOCK_PI`, whatever the mode says
    /// now: a sleeper that went to sleep before the process moved to plain futexes is still in the
    /// kernel's priority-inheriting state for this word, which names this thread as the owner. A
    /// plain store would free the word behind the kernel's back, and when this thread later ends,
    /// the kernel hands the lock to that sleeper and writes the sleeper's ID over whoever took the
    /// word meanwhile — two holders. `FUTEX_UNLOCK_PI` hands it over, or frees the word itself when
    /// no thread sleeps in the kernel; only if the kernel refuses (a policy, or a plain sleeper
    /// first in line) does the word go free with a plain store and a wake.
    @inline(never)
    func unlockSlow(_ me: UInt32) {
        // Acquiring: the waiters bit seen here was set after a sleeper noted its use of priority
        // inheritance (`LockKernel.noteSleepWithPriorityInheritance()`, releasing).
        let seen = word.load(ordering: .acquiring)
        require(seen & Self.ownerMask == me, "Ripple: a lock was released by a thread that does not hold it")
        if me >= Self.firstSyntheticOwner {
            // A synthetic owner took the lock without the kernel (the fast path, while the process
            // still used priority inheritance): FUTEX_UNLOCK_PI would refuse it anyway, and no
            // thread sleeps in FUTEX_LOCK_PI on its word (the kernel answers ESRCH for it).
            LockKernel.refusePriorityInheritance()
        }
        let mode = LockKernel.mode
        if me < Self.firstSyntheticOwner,
            mode == .priorityInheriting || LockKernel.hasSleptWithPriorityInheritance
        {
            // A releasing read-modify-write that changes nothing: what the kernel writes next is
            // not an atomic operation the acquiring side (or ThreadSanitizer) can pair with.
            _ = word.compareExchange(expected: seen, desired: seen, ordering: .releasing)
            switch withAddress(of: word, { unlockPI($0) }) {
            case .acquired, .again:
                return
            case .deadlock, .refused:
                if mode == .priorityInheriting { LockKernel.refusePriorityInheritance() }
            }
        }
        // Plain futexes: free the word, then wake one sleeper; one that took it meanwhile with the
        // waiters bit set will wake the next.
        word.store(0, ordering: .releasing)
        wakeOneOnWord(word)
    }

    /// The lock is already the calling thread's: waiting would never end.
    private func lockTakenTwice() -> Never {
        fatalError(
            "Ripple: a thread took a lock it already holds (a self-deadlock). This is a bug in Ripple; "
                + "please report it with the stack trace.")
    }

    /// The kernel found that the wait can never end (this thread holds the lock, or a chain of
    /// lock waits leads back to it).
    private func lockWaitNeverEnds() -> Never {
        fatalError(
            "Ripple: waiting for a lock would never end (the kernel reports a deadlock). This is a bug "
                + "in Ripple; please report it with the stack trace.")
    }
    #endif

    /// Debug builds: traps unless the calling thread holds the lock — what a function whose name
    /// ends in `Locked` ("called with the lock held") checks on entry. Optimized builds: nothing
    /// (inlined, so it is compiled with the caller's build settings).
    @inlinable @inline(__always)
    package func assertHeld() {
        assert(isHeldByCurrentThread(), "Ripple: called without holding the lock it needs")
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inlinable @inline(__always)
    package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

#if !canImport(Darwin)
/// The kernel calls a ``Lock`` may use in this process: the best one until the kernel refuses it,
/// then the next, for good. Decided the first time a lock or turn has to wait (with
/// `RIPPLE_LOCK=plain` in the environment: plain futexes from the start), never at load time;
/// lowered by the first refusal; nothing here ever traps.
enum LockKernel {
    /// Which sleeping calls the locks use. Raw value 0 is "not decided yet".
    enum Mode: UInt32 {
        /// `FUTEX_LOCK_PI2` / `FUTEX_LOCK_PI` / `FUTEX_UNLOCK_PI` (Linux): sleepers donate
        /// priority to the holder.
        case priorityInheriting = 1
        /// `FUTEX_WAIT` / `FUTEX_WAKE` (or `WaitOnAddress` on Windows).
        case plain = 2
        /// No sleeping call is allowed: yield the processor between tries.
        case yielding = 3
    }

    /// The current mode (only ever moves down the list once decided).
    static var mode: Mode {
        let raw = lockKernelMode.load(ordering: .relaxed)
        if raw == 0 { return decide() }
        return Mode(rawValue: raw) ?? .yielding
    }

    /// The first wait's decision: the environment's `RIPPLE_LOCK=plain` (for a sandbox that kills
    /// a process on `FUTEX_LOCK_PI`, such as Chromium's), else the best the system has. Read here,
    /// not at load: no environment lookup happens before a lock has to wait.
    @inline(never)
    private static func decide() -> Mode {
        #if os(Windows)
        let chosen = Mode.plain
        #else
        let chosen: Mode = if let value = getenv("RIPPLE_LOCK"), String(cString: value) == "plain" {
            .plain
        } else {
            .priorityInheriting
        }
        #endif
        let (exchanged, found) = lockKernelMode.compareExchange(
            expected: 0, desired: chosen.rawValue, ordering: .relaxed)
        return exchanged ? chosen : Mode(rawValue: found) ?? .yielding
    }

    /// The kernel refused a priority-inheriting call: use plain futexes from now on.
    static func refusePriorityInheritance() {
        lower(to: .plain)
    }

    /// The kernel refused to sleep on a word, or to wake one: yield instead from now on.
    static func refuseSleeping() {
        lower(to: .yielding)
    }

    /// Lowers the mode (from "not decided" too: a refusal decides).
    private static func lower(to mode: Mode) {
        var current = lockKernelMode.load(ordering: .relaxed)
        while current < mode.rawValue {
            let (exchanged, found) = lockKernelMode.compareExchange(
                expected: current, desired: mode.rawValue, ordering: .relaxed)
            if exchanged { return }
            current = found
        }
    }

    /// Whether a lock of this process has ever slept in `FUTEX_LOCK_PI`: from then on an unlock
    /// with sleepers goes through `FUTEX_UNLOCK_PI` first even after the switch to plain futexes
    /// (``Lock/unlockSlow(_:)``), since a sleeper from before the switch may still be in the
    /// kernel. Never set under `RIPPLE_LOCK=plain`, so such a process never makes the call.
    static var hasSleptWithPriorityInheritance: Bool {
        lockKernelSleptWithPI.load(ordering: .acquiring) != 0
    }

    /// Called before each `FUTEX_LOCK_PI` sleep (a store only the first time).
    static func noteSleepWithPriorityInheritance() {
        if lockKernelSleptWithPI.load(ordering: .relaxed) == 0 {
            lockKernelSleptWithPI.store(1, ordering: .releasing)
        }
    }

    /// Forces `mode` (tests of the fallbacks: the mode never moves back up otherwise).
    static func force(_ mode: Mode) {
        lockKernelMode.store(mode.rawValue, ordering: .relaxed)
    }

    /// Forgets the decision, so the next wait decides again (tests of the environment switch).
    static func forgetDecision() {
        lockKernelMode.store(0, ordering: .relaxed)
    }

    #if RIPPLE_EXPLORER
    /// Forgets that a lock slept in `FUTEX_LOCK_PI` (the explorer's scripts of the plain mode).
    static func forgetSleepWithPriorityInheritance() {
        lockKernelSleptWithPI.store(0, ordering: .relaxed)
    }
    #endif
}

/// ``LockKernel/mode``'s raw value, 0 until the first wait decides it. A global, initialised on
/// first use.
private let lockKernelMode = AtomicCell<UInt32>(0)

/// ``LockKernel/hasSleptWithPriorityInheritance``: 1 once a lock slept in `FUTEX_LOCK_PI`.
private let lockKernelSleptWithPI = AtomicCell<UInt32>(0)

/// What a priority-inheriting futex call answered.
enum FutexLockResult {
    /// Done: the lock is the caller's (lock), or handed over (unlock).
    case acquired
    /// Interrupted or timed out: look at the word again.
    case again
    /// The kernel says the caller already holds the lock.
    case deadlock
    /// Refused, or not possible in this state: use plain futexes.
    case refused
}

/// `FUTEX_LOCK_PI` on `word`, for at most ``Lock/sleepMilliseconds``.
private func lockPI(_ word: UnsafeMutablePointer<UInt32>) -> FutexLockResult {
    #if os(Linux) || os(Android)
    switch futexLockPI(word, Lock.sleepMilliseconds) {
    case 0: return .acquired
    case EINTR, ETIMEDOUT, EAGAIN: return .again
    case EDEADLK: return .deadlock
    default: return .refused  // ENOSYS, EPERM (a seccomp filter), EINVAL, ESRCH, …
    }
    #else
    return .refused
    #endif
}

/// `FUTEX_UNLOCK_PI` on `word`.
private func unlockPI(_ word: UnsafeMutablePointer<UInt32>) -> FutexLockResult {
    #if os(Linux) || os(Android)
    switch futexUnlockPI(word) {
    case 0: return .acquired
    default: return .refused
    }
    #else
    return .refused
    #endif
}

/// The calling thread's ID as the operating system knows it (a futex lock's owner), never 0.
@inline(__always)
func kernelThreadID() -> UInt32 {
    #if os(Windows)
    return UInt32(GetCurrentThreadId())
    #else
    return linuxThreadID()
    #endif
}

/// Sleeps while `word` holds `expected`, for at most `milliseconds` (forever if negative); returns
/// at once if it does not, and may return spuriously. Where the kernel refuses, yields instead.
@usableFromInline
func waitOnWord(_ word: borrowing AtomicCell<UInt32>, whileEqualTo expected: UInt32, milliseconds: Int32 = -1) {
    guard LockKernel.mode != .yielding else {
        yieldProcessor()
        return
    }
    withAddress(of: word) { address in
        #if os(Windows)
        var compare = expected
        _ = WaitOnAddress(address, &compare, 4, milliseconds < 0 ? INFINITE : DWORD(milliseconds))
        #else
        switch futexWait(address, expected, milliseconds) {
        case 0, EINTR, EAGAIN, ETIMEDOUT: break
        default:
            LockKernel.refuseSleeping()
            yieldProcessor()
        }
        #endif
    }
}

/// Wakes one thread sleeping in ``waitOnWord(_:whileEqualTo:milliseconds:)`` on `word` (a thread
/// that yields instead looks again by itself). If the kernel refuses the wake (a policy's `EPERM`,
/// `ENOSYS`; not `EINVAL`, its answer while a priority-inheriting sleeper is queued on the word),
/// the process yields instead of sleeping from then on, and the sleeper this wake missed finds the
/// change when its bounded sleep ends: every sleep on a word is bounded, so a refused or lost wake
/// costs a delay.
@usableFromInline
func wakeOneOnWord(_ word: borrowing AtomicCell<UInt32>) {
    withAddress(of: word) { address in
        #if os(Windows)
        WakeByAddressSingle(address)
        #else
        switch futexWake(address, 1) {
        case 0:
            break
        case EINVAL:
            // Not a refusal: a thread from before the move to plain futexes still sleeps on the
            // word in FUTEX_LOCK_PI (its unlocker was refused FUTEX_UNLOCK_PI), and the kernel
            // wakes no plain sleeper past it. Its bounded sleep ends by itself, as does that of a
            // plain sleeper queued behind it. Moving to yielding here would make every later wait
            // of the process spin through sched_yield for good.
            break
        default:
            LockKernel.refuseSleeping()
        }
        #endif
    }
}

/// Gives the processor to another thread (a refused sleep's replacement).
private func yieldProcessor() {
    #if os(Windows)
    SwitchToThread()
    #else
    sched_yield()
    #endif
}

/// Runs `body` with the address of `word`'s four bytes, for the operating system's wait-on-address
/// calls: the portable cell's allocated word, or `Synchronization.Atomic`'s inline storage (whose
/// address is stable while it is borrowed: it is laid out in place, never moved into a temporary).
private func withAddress<R>(of word: borrowing AtomicCell<UInt32>, _ body: (UnsafeMutablePointer<UInt32>) -> R) -> R {
    #if RIPPLE_PORTABLE_ATOMICS || RIPPLE_EXPLORER
    body(word.address)
    #else
    withUnsafePointer(to: word) { pointer in
        body(UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: UInt32.self))
    }
    #endif
}
#endif

/// A number that identifies the calling thread while it runs (never zero).
///
/// Used to tell re-entrant calls (the same thread, further up the stack) from concurrent ones.
@inlinable @inline(__always)
package func currentThreadID() -> UInt {
    #if canImport(WinSDK)
    return UInt(GetCurrentThreadId()) &+ 1
    #elseif canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
