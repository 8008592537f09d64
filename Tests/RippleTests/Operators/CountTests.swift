import Ripple
import Testing

@Suite struct CountTests {
    @Test func countsAndWaitsForDemand() {
        let upstream = ManualPublisher<String, Never>()
        let recorder = Recorder(for: upstream.count(), demand: nil)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send("a")
        upstream.send("b")
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription, .value(2), .finished])
    }

    @Test func emptyCountsZero() {
        #expect(Recorder(for: Empty<Int, Never>().count()).values == [0])
    }

    @Test func failureDropsTheCount() {
        let recorder = Recorder(for: [1].publisher.setFailureType(to: TestError.self).append(Fail(error: TestError(id: 1))).count())
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    @Test func equatable() {
        #expect(Publishers.Count(upstream: Just(1)) == Publishers.Count(upstream: Just(1)))
        #expect(Publishers.Count(upstream: Just(1)) != Publishers.Count(upstream: Just(2)))
    }
}
