import Ripple
import Testing

@Suite struct CollectTests {
    // Rule 26
    @Test func collectsEverythingAndWaitsForDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.collect(), demand: nil)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value([1, 2]), .finished])
    }

    @Test func emptyUpstreamGivesEmptyArray() {
        #expect(Recorder(for: Empty<Int, Never>().collect()).events == [.subscription, .value([]), .finished])
    }

    @Test func failureDropsTheBuffer() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.collect())
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 2)))
        #expect(recorder.events == [.subscription, .failure("TestError(2)")])
    }

    @Test func ignoresASecondSubscription() {
        let upstream = ManualPublisher<Int, Never>()
        _ = Recorder(for: upstream.collect())
        let second = RecordingSubscription()
        upstream.sendSubscription(second)
        #expect(second.events == [.cancel])
    }
}
