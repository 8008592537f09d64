import Ripple
import Testing

@Suite struct FirstTests {
    // Rule 26
    @Test func sendsSubscriptionFirstRequestsUnlimitedAndCancelsOnTheAnswer() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.first(), demand: nil)
        #expect(recorder.events == [.subscription])
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        #expect(upstream.subscription.cancelled)
        // The answer waits for demand.
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func emptyUpstreamFinishesOnceAsked() {
        // As Combine: a finished upstream's `.finished` waits for the downstream's first request.
        let recorder = Recorder(for: Empty<Int, Never>().first(), demand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func failureIsForwardedWithoutDemand() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 1)).first(), demand: nil)
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    @Test func cancelBeforeTheAnswerCancelsUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.first())
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
        upstream.send(1)
        #expect(recorder.events == [.subscription])
    }
}
