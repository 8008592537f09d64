import Ripple
import Testing

@Suite struct ReduceTests {
    // Rule 26: subscription first, unlimited upstream, result held until demand.
    @Test func accumulatesAndWaitsForDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.reduce(10, +), demand: nil)
        #expect(recorder.events == [.subscription])
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(13), .finished])
    }

    @Test func emptyUpstreamPublishesTheInitialValue() {
        #expect(Recorder(for: Empty<Int, Never>().reduce(5, +)).events == [.subscription, .value(5), .finished])
    }

    @Test func failureIsForwardedWithoutDemand() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.reduce(0, +), demand: nil)
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 3)))
        #expect(recorder.events == [.subscription, .failure("TestError(3)")])
    }

    @Test func cancelCancelsUpstreamAndSuppressesTheResult() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.reduce(0, +))
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
    }

    // Rule 23: a throw cancels upstream before the failure.
    @Test func tryReduceThrowCancelsUpstreamAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryReduce(0) { sum, value in
            if value < 0 { throw TestError(id: value) }
            return sum + value
        })
        upstream.send(1)
        upstream.send(-4)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(-4)")])
        upstream.send(completion: .finished)
        #expect(recorder.events.count == 2)
    }

    @Test func tryReduceSucceeds() {
        #expect(Recorder(for: [1, 2, 3].publisher.tryReduce(0, +)).values == [6])
    }
}
