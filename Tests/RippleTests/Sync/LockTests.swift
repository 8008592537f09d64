@testable import Ripple
@testable import RippleCore
import Foundation
import Testing

/// The lock under contention: mutual exclusion, no lost wake-up (a sleeper whose unlock went
/// unnoticed would hang the test), its owner in the word, a self-deadlock that traps, and the
/// fallbacks it takes when the kernel refuses priority-inheriting futexes, or sleeping at all.
@Suite(.serialized, .exitTestWatchdog) struct LockTests {
    /// A lock and what it guards, shared by the test's threads.
    final class Guarded: @unchecked Sendable {
        let lock = Lock()
        /// Guarded by `lock`.
        var count = 0
        #if !canImport(Darwin)
        var word: UInt32 { lock.word.load(ordering: .relaxed) }
        #endif
    }

    #if os(Linux)
    /// The thread ID the lock writes is the kernel's (the futex calls are Swift declarations of
    /// `syscall(2)` with per-architecture numbers): on the test's thread and on threads started
    /// after it, each asked twice (the second answer comes from the thread's slot).
    @Test func theOwnersIDIsTheKernelsThreadID() throws {
        @Sendable func kernelsAnswer() throws -> UInt32 {
            // "/proc/thread-self" links to "<pid>/task/<tid>".
            let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
            return try #require(link.split(separator: "/").last.flatMap { UInt32($0) })
        }
        #expect(kernelThreadID() == (try kernelsAnswer()))
        #expect(kernelThreadID() == (try kernelsAnswer()))
        let answers = Locked<[(UInt32, UInt32, UInt32)]>([])
        let threads = (0..<4).map { _ in
            Thread {
                let first = kernelThreadID()
                let second = kernelThreadID()
                let kernel = (try? kernelsAnswer()) ?? 0
                answers.withLock { $0.append((first, second, kernel)) }
            }
        }
        threads.forEach { $0.start() }
        while answers.current.count < 4 { Thread.sleep(forTimeInterval: 0.001) }
        for (first, second, kernel) in answers.current {
            #expect(first == kernel && second == kernel)
        }
        #expect(Set(answers.current.map(\.0)).count == 4)
    }
    #endif

    @Test func anUncontendedLockHoldsItsOwnersIDAndIsFreeAfterwards() {
        let guarded = Guarded()
        for _ in 0..<1_000 {
            guarded.lock.lock()
            #if !canImport(Darwin)
            #expect(guarded.word == kernelThreadID())
            #endif
            guarded.count += 1
            guarded.lock.unlock()
        }
        #expect(guarded.count == 1_000)
        #if !canImport(Darwin)
        #expect(guarded.word == 0)
        #endif
    }

    @Test func aThreadTakingALockItHoldsTrapsInsteadOfHanging() async {
        await #expect(processExitsWith: .failure) {
            let lock = Lock()
            lock.lock()
            lock.lock()
        }
    }

    /// What a function named "…Locked" checks on entry: the calling thread holds the lock. Debug
    /// builds only (`assertHeld` compiles to nothing in optimized ones).
    @Test func aLockedFunctionCalledWithoutTheLockTrapsInDebugBuilds() async {
        let lock = Lock()
        lock.lock()
        lock.assertHeld()  // held: passes
        lock.unlock()
        guard !runningOptimized else { return }
        await #expect(processExitsWith: .failure) {
            let lock = Lock()
            lock.assertHeld()
        }
        await #expect(processExitsWith: .failure) {
            let storage = TurnStorage(state: 0)
            storage.awaitTurnLocked(name: "never locked")
        }
    }

    #if !canImport(Darwin)
    @Test func aSleeperIsWokenByTheUnlock() {
        let guarded = Guarded()
        guarded.lock.lock()
        let acquired = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            guarded.lock.lock()
            guarded.count += 1
            guarded.lock.unlock()
            acquired.signal()
        }
        // Wait until the other thread has stopped re-reading the word and sleeps on it: the kernel
        // (or the plain path) has set the waiters bit.
        let deadline = Date().addingTimeInterval(30)
        while guarded.word & Lock.waitersBit == 0 && Date() < deadline {
            usleep(100)
        }
        #expect(guarded.word == kernelThreadID() | Lock.waitersBit)
        guarded.count += 1
        guarded.lock.unlock()
        #expect(acquired.wait(timeout: .now() + 30) == .success, "the sleeper was never woken")
        guarded.lock.lock()
        #expect(guarded.count == 2)
        guarded.lock.unlock()
    }

    /// Each way of sleeping the lock may be left with, forced for the whole process for the test.
    @Test(.timeLimit(.minutes(2)), arguments: [LockKernel.Mode.priorityInheriting, .plain, .yielding])
    func contendedThreadsExcludeEachOtherAndNoneSleepsForever(mode: LockKernel.Mode) {
        let previous = LockKernel.mode
        LockKernel.force(mode)
        defer { LockKernel.force(previous) }
        let guarded = Guarded()
        let threads = 4
        let iterations = raceIterations(mode == .yielding ? 5_000 : 20_000)
        let finished = completesWithin(seconds: 90) {
            runConcurrently(threads: threads) { index in
                for iteration in 0..<iterations {
                    guarded.lock.lock()
                    let seen = guarded.count
                    if iteration % 97 == index {
                        // Hold the lock long enough that the others stop re-reading and sleep.
                        usleep(20)
                    }
                    guarded.count = seen + 1
                    guarded.lock.unlock()
                }
            }
        }
        #expect(finished, "a thread waiting for the lock was never woken")
        guard finished else { return }
        guarded.lock.lock()
        #expect(guarded.count == threads * iterations)
        guarded.lock.unlock()
        #expect(guarded.word == 0)
    }

    /// A turn waiter whose wake never comes (the kernel refused it, or it was lost) still sees the
    /// turn handed over: it sleeps in bounded slices and re-reads its signal after each.
    @Test(.timeLimit(.minutes(1))) func aTurnWaiterWhoseWakeIsLostStillSeesTheTurn() {
        let waiter = TurnWaiter(thread: UInt.max - 7, queue: TurnQueue(name: "LockTests"))
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            waiter.waitForTurn()
            returned.signal()
        }
        // Wait until it sleeps in the kernel (signal 2), then hand the turn over without a wake.
        let deadline = Date().addingTimeInterval(20)
        while waiter.signal.load(ordering: .acquiring) != 2, Date() < deadline { usleep(100) }
        #expect(waiter.signal.load(ordering: .acquiring) == 2, "the waiter never went to sleep")
        usleep(5_000)
        waiter.signal.store(1, ordering: .releasing)
        #expect(returned.wait(timeout: .now() + 5) == .success, "the waiter slept on although its turn was handed over")
    }

    #if os(Linux)
    /// `RIPPLE_LOCK=plain`, read when the first lock has to wait (not at load), selects plain
    /// futexes from the start; anything else leaves priority inheritance.
    @Test func theEnvironmentSelectsPlainFutexesAtTheFirstWait() {
        let previous = LockKernel.mode
        defer {
            unsetenv("RIPPLE_LOCK")
            LockKernel.force(previous)
        }
        setenv("RIPPLE_LOCK", "plain", 1)
        LockKernel.forgetDecision()
        #expect(LockKernel.mode == .plain)
        setenv("RIPPLE_LOCK", "pi", 1)
        LockKernel.forgetDecision()
        #expect(LockKernel.mode == .priorityInheriting)
        unsetenv("RIPPLE_LOCK")
        LockKernel.forgetDecision()
        #expect(LockKernel.mode == .priorityInheriting)
    }
    #endif

    /// A process that starts refusing priority-inheriting futexes while threads sleep in them
    /// (say, a daemon that sandboxes itself after start): a sleeper whose wake is lost in the
    /// switch looks again within its bounded sleep, so every thread still gets the lock.
    @Test(.timeLimit(.minutes(2))) func switchingToPlainFutexesWhileThreadsSleepLosesNoThread() {
        let previous = LockKernel.mode
        LockKernel.force(.priorityInheriting)
        defer { LockKernel.force(previous) }
        let guarded = Guarded()
        let threads = 4
        let iterations = raceIterations(5_000)
        let finished = completesWithin(seconds: 90) {
            runConcurrently(threads: threads) { index in
                for iteration in 0..<iterations {
                    if index == 0 && iteration == iterations / 2 { LockKernel.force(.plain) }
                    guarded.lock.lock()
                    let seen = guarded.count
                    if iteration % 31 == index { usleep(20) }
                    guarded.count = seen + 1
                    guarded.lock.unlock()
                }
            }
        }
        #expect(finished, "a thread waiting for the lock was never woken")
        guard finished else { return }
        #expect(guarded.count == threads * iterations)
    }

    #if os(Linux)
    /// The switch's hazard, made to happen: a thread asleep in `FUTEX_LOCK_PI` when the process
    /// moves to plain futexes, its holder unlocking after the switch and then ending. The kernel
    /// still counts the ended holder as the owner of the sleeper's priority-inheriting state; had
    /// the unlock freed the word with a plain store (and a third thread taken it), the holder's
    /// exit would hand the lock to the sleeper and the kernel would write the sleeper's ID over
    /// the third thread's. The unlock hands the lock to the sleeper through the kernel instead, so
    /// the word keeps naming its one holder.
    @Test(.timeLimit(.minutes(1))) func aPrioritySleeperOutlivingTheSwitchAndItsHolderTakesNoHeldLock() {
        let previous = LockKernel.mode
        defer { LockKernel.force(previous) }
        for _ in 0..<10 {
            LockKernel.force(.priorityInheriting)
            let guarded = Guarded()
            let holderLocked = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holderUnlocked = DispatchSemaphore(value: 0)
            let thirdHolds = DispatchSemaphore(value: 0)
            let sleeperDone = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                guarded.lock.lock()
                holderLocked.signal()
                release.wait()
                guarded.count += 1
                guarded.lock.unlock()
                holderUnlocked.signal()
                thirdHolds.wait()
                // Ends here, with the test's thread holding the lock.
            }
            holderLocked.wait()
            Thread.detachNewThread {
                guarded.lock.lock()
                guarded.count += 1
                guarded.lock.unlock()
                sleeperDone.signal()
            }
            // The sleeper is in the kernel once the kernel has set the waiters bit.
            let deadline = Date().addingTimeInterval(20)
            while guarded.word & Lock.waitersBit == 0, Date() < deadline { usleep(50) }
            LockKernel.force(.plain)
            release.signal()
            holderUnlocked.wait()
            guarded.lock.lock()
            thirdHolds.signal()
            // Longer than a bounded sleep: the sleeper is back in user space by then either way.
            usleep(60_000)
            let holds = guarded.word & Lock.ownerMask == kernelThreadID()
            #expect(holds, "the kernel handed a held lock to a priority-inheriting sleeper")
            guard holds else { return }  // the sleeper holds it too: leave it to the sleeper
            guarded.count += 1
            guarded.lock.unlock()
            #expect(sleeperDone.wait(timeout: .now() + 20) == .success, "the sleeper never got the lock")
            guarded.lock.lock()
            #expect(guarded.count == 3)
            guarded.lock.unlock()
        }
    }
    #endif
    #endif
}
