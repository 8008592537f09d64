import Ripple
import Testing

@Suite struct PrefixWhileTests {
    @Test func republishesWhileThePredicateHoldsThenFinishes() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.prefix { $0 < 3 })
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(upstream.subscription.cancelled)
        upstream.send(1)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func forwardsDemandUnchanged() {
        let upstream = ManualPublisher<Int, Never>()
        _ = Recorder(for: upstream.prefix { _ in true }, demand: .max(2))
        #expect(upstream.subscription.requests == [.max(2)])
    }

    @Test func tryPrefixWhileThrowCancelsAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryPrefix { value in
            if value == 2 { throw TestError(id: 2) }
            return true
        })
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .value(1), .failure("TestError(2)")])
    }

    @Test func upstreamCompletionIsForwarded() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 1)).prefix { _ in true })
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    // Rule 6
    @Test func secondSubscriptionIsCancelled() {
        let upstream = ManualPublisher<Int, Never>()
        _ = Recorder(for: upstream.prefix { _ in true })
        let second = RecordingSubscription()
        upstream.sendSubscription(second)
        #expect(second.cancelled)
    }
}
