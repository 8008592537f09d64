import Ripple
import Testing

@Suite struct IgnoreOutputTests {
    @Test func ignoresValuesAndPassesCompletion() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.ignoreOutput(), demand: nil)
        // Nothing it receives can reach the downstream, so it asks for everything at once.
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    @Test func finishes() {
        #expect(Recorder(for: [1, 2].publisher.ignoreOutput()).events == [.subscription, .finished])
    }

    @Test func cancelReachesUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.ignoreOutput())
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
    }
}
