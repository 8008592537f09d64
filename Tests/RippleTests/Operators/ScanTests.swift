import Ripple
import Testing

@Suite struct ScanTests {
    @Test func publishesRunningResults() {
        let recorder = Recorder(for: (1...4).publisher.scan(0, +))
        #expect(recorder.events == [.subscription, .value(1), .value(3), .value(6), .value(10), .finished])
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let publisher = [1, 2].publisher.scan(10, +)
        #expect(Recorder(for: publisher).values == [11, 13])
        #expect(Recorder(for: publisher).values == [11, 13])
    }

    @Test func forwardsFailure() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError()).scan(0, +))
        #expect(recorder.events == [.subscription, .failure("TestError(0)")])
    }
}
