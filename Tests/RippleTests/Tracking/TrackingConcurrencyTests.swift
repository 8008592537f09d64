import Foundation
import Ripple
import Testing

extension Heavy {
    /// Rule 40 under real contention.
    @Suite struct TrackingConcurrencyTests {
        final class Counter: ObservableObject, @unchecked Sendable {
            @Published var value = 0
            @Published var other = 0
        }

        @Test func hundredThousandWritesOneShotOnceContinuousEndsOnTheFinalValue() {
            let counter = Counter()
            let oneShotFires = Locked(0)
            withTracking { _ = counter.value } onChange: { _ in oneShotFires.withLock { $0 += 1 } }
            let lastSeen = Locked(-1)
            let runs = Locked(0)
            let token = observe {
                let value = counter.value
                lastSeen.withLock { $0 = value }
                runs.withLock { $0 += 1 }
            }
            let writers = 4
            let perWriter = 25_000
            runConcurrently(threads: writers) { writer in
                for step in 1...perWriter {
                    counter.value = writer * 1_000_000 + step
                }
            }
            #expect(oneShotFires.current == 1)
            #expect(lastSeen.current == counter.value)  // the continuous observer saw the final value
            #expect(runs.current >= 2)
            token.cancel()
        }

        @Test func oneShotArmedBeforeSimultaneousWritersFiresExactlyOnce() {
            for _ in 0..<300 {
                let counter = Counter()
                let fires = Locked(0)
                withTracking { _ = counter.value + counter.other } onChange: { _ in fires.withLock { $0 += 1 } }
                runConcurrently(threads: 4) { writer in
                    if writer.isMultiple(of: 2) { counter.value = writer } else { counter.other = writer }
                }
                #expect(fires.current == 1)
            }
        }

        @Test func observersArmedWhileAWriterRunsNeverMissALaterWrite() {
            // Every did-set observer armed during the writes read some value; if that value is older
            // than the final one, a later write happened and the observer must have fired — at arming
            // (the write fell between read and arming) or when the write landed.
            let counter = Counter()
            let done = Locked(false)
            let armed = Locked<[(seen: Int, fired: Locked<Bool>)]>([])
            runConcurrently(threads: 2) { role in
                if role == 0 {
                    for value in 1...20_000 { counter.value = value }
                    done.withLock { $0 = true }
                } else {
                    while !done.current {
                        let fired = Locked(false)
                        let seen = withTracking({ counter.value }, phase: .didSet) { _ in fired.withLock { $0 = true } }
                        armed.withLock { $0.append((seen, fired)) }
                    }
                }
            }
            let final = counter.value
            let missed = armed.current.filter { $0.seen != final && !$0.fired.current }
            #expect(!armed.current.isEmpty)
            #expect(missed.isEmpty)
        }

        @Test func concurrentTrackedReadsAndWritesAreSafe() {
            let counter = Counter()
            let fires = Locked(0)
            runConcurrently(threads: 4) { index in
                for step in 0..<2_000 {
                    if index < 2 {
                        counter.value = step
                    } else {
                        withTracking { _ = counter.value } onChange: { _ in fires.withLock { $0 += 1 } }
                    }
                }
            }
            counter.value = -1  // fires every one-shot still armed
            #expect(fires.current == 4_000)
        }

        /// Tokens cancelled while another thread writes: no crash, and no body starts after
        /// `cancel()` returned (each body checks its own token's flag, set right after cancel). A
        /// writer that keeps changing what the body reads keeps the runner re-running, without
        /// deepening its stack (it once recursed until the stack overflowed). The same race with
        /// the Observation bridge installed: `BridgedObserveCancelRaceTests`.
        /// `RIPPLE_RACE_ITERATIONS=1000000` runs it a million times (see the Reliability notes).
        @Test func cancelRacingWritersIsMemorySafeAndFinal() {
            let counter = Counter()
            let iterations = raceIterations(10_000)
            let done = Locked(false)
            let lateRuns = Locked(0)
            let runs = Locked(0)
            runConcurrently(threads: 2) { role in
                if role == 0 {
                    for _ in 0..<iterations {
                        let cancelled = Locked(false)
                        let token = observe {
                            if cancelled.current { lateRuns.withLock { $0 += 1 } }
                            runs.withLock { $0 += 1 }
                            _ = counter.value
                        }
                        token.cancel()
                        cancelled.withLock { $0 = true }
                    }
                    done.withLock { $0 = true }
                } else {
                    var step = 0
                    while !done.current {
                        step += 1
                        if step.isMultiple(of: 2) { counter.value = step } else { counter.other = step }
                    }
                }
            }
            #expect(lateRuns.current == 0)
            #expect(runs.current >= iterations)
        }

        /// Tracking a scope with many reads costs O(n): 20,000 distinct properties in one scope.
        @Test func aScopeWithManyReadsTracksEveryOne() {
            let counters = (0..<20_000).map { _ in Counter() }
            let fired = Locked(0)
            let token = track({ for counter in counters { _ = counter.value } }, phase: .didSet) { _ in
                fired.withLock { $0 += 1 }
            }
            counters[19_999].value = 1
            counters[0].value = 1
            counters[10_000].other = 1  // not read
            #expect(fired.current == 2)
            token.cancel()
        }
    }
}
