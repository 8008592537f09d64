@testable import Ripple
import Foundation
import Testing

/// The lock under contention: mutual exclusion, no lost wake-up (a sleeper whose unlock went
/// unnoticed would hang the test), and the one-time switch to fenced unlocks on first contention.
@Suite struct LockTests {
    /// A lock and what it guards, shared by the test's threads.
    final class Guarded: @unchecked Sendable {
        let lock = Lock()
        /// Guarded by `lock`.
        var count = 0
        var sleepers: UInt32 { lock.sleepers.load(ordering: .relaxed) }
    }

    @Test func anUncontendedLockNeverTouchesItsSleeperCount() {
        let guarded = Guarded()
        for _ in 0..<1_000 {
            guarded.lock.lock()
            guarded.count += 1
            guarded.lock.unlock()
        }
        #expect(guarded.count == 1_000)
        #expect(guarded.sleepers == 0)
    }

    @Test func aSleeperIsWokenByTheUnlockAndTheLockSwitchesToFencedUnlocks() {
        let guarded = Guarded()
        guarded.lock.lock()
        let acquired = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            guarded.lock.lock()
            guarded.count += 1
            guarded.lock.unlock()
            acquired.signal()
        }
        // Wait until the other thread has stopped re-reading the word and counted itself a sleeper.
        let deadline = Date().addingTimeInterval(30)
        while guarded.sleepers & Lock.sleeperCount == 0 && Date() < deadline {
            usleep(100)
        }
        #expect(guarded.sleepers & Lock.sleeperCount == 1)
        guarded.count += 1
        guarded.lock.unlock()
        #expect(acquired.wait(timeout: .now() + 30) == .success, "the sleeper was never woken")
        guarded.lock.lock()
        #expect(guarded.count == 2)
        guarded.lock.unlock()
        // Contended once: every later unlock fences; nobody sleeps any more.
        #expect(guarded.sleepers == Lock.fenced | Lock.ready)
    }

    @Test(.timeLimit(.minutes(2))) func contendedThreadsExcludeEachOtherAndNoneSleepsForever() {
        let guarded = Guarded()
        let threads = 4
        let iterations = raceIterations(20_000)
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
        #expect(guarded.sleepers & Lock.sleeperCount == 0)
    }
}
