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
    }
}
