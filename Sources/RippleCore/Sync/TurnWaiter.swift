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

/// The waiters for one downstream's ``DeliveryTurn``, in arrival order, and a copy of who holds the
/// turn that the deadlock check (``WaitGraph``) can read without the owner's lock.
@usableFromInline
final class TurnQueue: @unchecked Sendable {
    /// Guarded by the lock of the turn's owner.
    @exclusivity(unchecked) @usableFromInline var waiters = FIFO<TurnWaiter>()
    /// The turn's holder, mirrored here whenever it changes (written under the owner's lock).
    @usableFromInline let owner = AtomicCell<UInt>(0)
    /// What the turn delivers to, for deadlock reports ("PassthroughSubject", "Merge", …).
    @usableFromInline let name: String
    /// A ``CurrentValueSubject``'s conduit (which creates its queue up front) keeps here the version
    /// of the value it last replayed; guarded by the subject's lock. Unused elsewhere.
    @exclusivity(unchecked) @usableFromInline var replayedVersion: UInt64 = 0

    @usableFromInline
    init(name: String) {
        self.name = name
    }

    @inlinable @inline(__always)
    func mirrorOwner(_ thread: UInt) {
        owner.store(thread, ordering: .relaxed)
    }

    #if canImport(Darwin)
    /// Starts overriding the quality of service of the turn's holder with the calling thread's, for
    /// a thread about to wait for the turn; `nil` if the turn is free or the system says no. Call
    /// with the lock of the turn's owner held (the holder is then alive and holds the turn).
    @usableFromInline
    func donateQualityOfServiceLocked() -> pthread_override_t? {
        let holder = owner.load(ordering: .relaxed)
        guard holder != 0, let thread = pthread_t(bitPattern: holder) else { return nil }
        return pthread_override_qos_class_start_np(thread, qos_class_self(), 0)
    }
    #endif
}

/// One thread waiting for a ``DeliveryTurn``. Created by ``DeliveryTurn/enter(_:name:)`` (only under
/// contention); the thread that hands the turn over wakes it.
@usableFromInline
final class TurnWaiter: @unchecked Sendable {
    @usableFromInline let thread: UInt
    /// The queue it waits in (for the deadlock check). Strong: the queue holds its waiters only
    /// until it hands them the turn.
    @usableFromInline let queue: TurnQueue
    /// 0 while waiting, 1 once the turn is this waiter's; 2 while the waiting thread sleeps (so the
    /// thread handing the turn over knows to wake it).
    let signal = AtomicCell<UInt32>(0)
    #if canImport(Darwin)
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    #endif

    @usableFromInline
    init(thread: UInt, queue: TurnQueue) {
        self.thread = thread
        self.queue = queue
        #if RIPPLE_EXPLORER
        explorerHooks?.created(self, queue: queue)
        #endif
        #if canImport(Darwin)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        #endif
    }

    #if canImport(Darwin)
    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }
    #endif

    /// The longest a waiting thread sleeps in the kernel before it looks at its signal again.
    static var sleepMilliseconds: Int32 { 20 }

    /// Waits until the turn is handed to this waiter: re-reads the signal for a while, then — with
    /// the wait recorded for the deadlock check, which traps instead of sleeping forever — sleeps.
    /// Call after unlocking.
    ///
    /// The check is made before sleeping, not before re-reading: a thread that only re-reads
    /// comes back to the check before it sleeps, and of two threads waiting for each other the
    /// second to record its wait finds the cycle. So a hand-over caught while re-reading costs no
    /// trip through the process-wide table (and its lock) at all.
    @usableFromInline @inline(never)
    func waitForTurn() {
        #if RIPPLE_EXPLORER
        if let hooks = explorerHooks, hooks.park(self) { return }
        #endif
        if handedOverWhileSpinning() { return }
        waitGraph.willWait(self, on: queue)
        park()
        waitGraph.didWake(self)
    }

    /// Re-reads the signal for a while: the turn is often handed over within a delivery's time,
    /// and catching it here saves both threads a system call. `true` if it was handed over.
    private func handedOverWhileSpinning() -> Bool {
        #if canImport(Darwin)
        return false
        #else
        // No `pause` between reads: on the two-core test host it made the spin ~20× longer in
        // time, and four threads sending into one subject fell into a sleep-and-wake convoy in
        // half the runs instead of one in six (the spinners took the cores the woken threads needed).
        #if RIPPLE_EXPLORER
        let spins = explorerHooks?.spinIterations(2_000) ?? 2_000
        #else
        let spins = 2_000
        #endif
        for _ in 0..<spins {
            if signal.load(ordering: .acquiring) == 1 { return true }
        }
        return false
        #endif
    }

    private func park() {
        #if canImport(Darwin)
        pthread_mutex_lock(mutex)
        while signal.load(ordering: .acquiring) == 0 {
            pthread_cond_wait(condition, mutex)
        }
        pthread_mutex_unlock(mutex)
        #else
        guard signal.compareExchange(expected: 0, desired: 2, ordering: .acquiring).exchanged else {
            return  // handed over meanwhile
        }
        // Bounded sleeps, each followed by a look at the signal: a wake the kernel refused (the
        // waker then switches the process to yielding) or lost costs at most one sleep's delay.
        while signal.load(ordering: .acquiring) != 1 {
            waitOnWord(signal, whileEqualTo: 2, milliseconds: Self.sleepMilliseconds)
        }
        #endif
    }

    /// Hands the turn over: wakes the waiting thread. Call after unlocking.
    @usableFromInline @inline(never)
    func wake() {
        #if RIPPLE_EXPLORER
        if let hooks = explorerHooks, hooks.wake(self) { return }
        #endif
        #if canImport(Darwin)
        pthread_mutex_lock(mutex)
        signal.store(1, ordering: .releasing)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        #else
        if signal.exchange(1, ordering: .releasing) == 2 {
            wakeOneOnWord(signal)
        }
        #endif
    }
}

/// Every thread that waits for a delivery turn, and what it waits for: the deadlock check.
///
/// Waiting for a turn can deadlock where Combine's recursive locks deadlock too: thread A, inside a
/// delivery, sends into a subject whose subscriber thread B is delivering to, while B, inside that
/// delivery, sends into the subject A is delivering to. Combine hangs there silently. Ripple follows
/// the chain before sleeping — the turn I wait for is held by thread T; T waits for a turn held by
/// U; … — and if it comes back to the calling thread, the wait could never end: it traps with a
/// message naming every link instead.
///
/// The table changes only under contention; it is read and written under its own lock, which is
/// never held while another lock is taken.
@usableFromInline
final class WaitGraph: @unchecked Sendable {
    private let lock = Lock()
    /// Guarded by `lock`: waiting thread → its waiter (whose `queue` is what it waits for).
    private var waiting: [UInt: TurnWaiter] = [:]

    init() {}

    func willWait(_ waiter: TurnWaiter, on queue: TurnQueue) {
        lock.lock()
        waiting[waiter.thread] = waiter
        if let cycle = cycleLocked(from: waiter.thread, queue: queue) {
            waiting[waiter.thread] = nil
            lock.unlock()
            // The report is written after unlocking: no strings are built under the table's lock.
            require(false, Self.report(cycle, me: waiter.thread))
            return
        }
        lock.unlock()
    }

    func didWake(_ waiter: TurnWaiter) {
        lock.lock()
        let removed = waiting.removeValue(forKey: waiter.thread)
        lock.unlock()
        _ = removed
    }

    /// One link of a cycle: `waiter` waits to deliver to `name`, whose turn `holder` holds.
    typealias Link = (waiter: UInt, holder: UInt, name: String)

    /// Follows "waits for a turn held by" from `me`; returns the links if it leads back to `me`.
    private func cycleLocked(from me: UInt, queue start: TurnQueue) -> [Link]? {
        var links: [Link] = []
        var waiter = me
        var queue = start
        for _ in 0...waiting.count {
            let holder = queue.owner.load(ordering: .relaxed)
            // Free, or already handed to the waiter (which has not woken yet): no cycle.
            if holder == 0 || holder == waiter { return nil }
            links.append((waiter, holder, queue.name))
            if holder == me { return links }
            guard let next = waiting[holder] else { return nil }
            waiter = holder
            queue = next.queue
        }
        return nil
    }

    /// The trap's message for a cycle found from `me`.
    private static func report(_ links: [Link], me: UInt) -> String {
        func threadName(_ thread: UInt) -> String {
            let hex = "0x" + String(thread, radix: 16)
            return thread == me ? "\(hex) (this thread)" : hex
        }
        let described = links.map { link in
            "thread \(threadName(link.waiter)) waits to deliver to a \(link.name) subscriber that thread "
                + "\(threadName(link.holder)) is delivering to"
        }
        return "Ripple: deadlock: "
            + described.joined(separator: "; ")
            + ". Each thread is inside a delivery and sends into a subscriber the other is delivering "
            + "to, so neither can ever go on (Combine would hang here). Send from outside the delivery, "
            + "or hop with receive(on:)."
    }
}

/// The process's one ``WaitGraph``.
@usableFromInline
let waitGraph = WaitGraph()
