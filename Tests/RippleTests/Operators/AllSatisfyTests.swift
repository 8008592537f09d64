import Ripple
import Testing

@Suite struct AllSatisfyTests {
    @Test func allPassPublishesTrue() {
        #expect(Recorder(for: [2, 4].publisher.allSatisfy { $0.isMultiple(of: 2) }).events
            == [.subscription, .value(true), .finished])
    }

    // Rule 26: the first failing element cancels upstream.
    @Test func firstFailureCancelsUpstreamAndPublishesFalse() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.allSatisfy { $0 > 0 }, demand: nil)
        upstream.send(1)
        upstream.send(-1)
        #expect(upstream.subscription.cancelled)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(false), .finished])
    }

    @Test func emptyIsTrue() {
        #expect(Recorder(for: Empty<Int, Never>().allSatisfy { _ in false }).values == [true])
    }

    @Test func tryAllSatisfyThrowFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryAllSatisfy { _ in throw TestError(id: 5) })
        upstream.send(1)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(5)")])
    }
}
