import Ripple
import Testing

@Suite struct DeferredTests {
    // Rule 21
    @Test func callsTheFactoryOnEachSubscribeAndNeverEarlier() {
        let calls = Locked(0)
        let deferred = Deferred { () -> Just<Int> in
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            return Just(call)
        }
        #expect(calls.current == 0)
        #expect(Recorder(for: deferred).values == [1])
        #expect(Recorder(for: deferred).values == [2])
        #expect(calls.current == 2)
    }
}
