import Ripple
import Testing

@Suite struct MapErrorTests {
    struct Wrapped: Error, CustomStringConvertible {
        let inner: TestError
        var description: String { "Wrapped(\(inner.id))" }
    }

    @Test func convertsTheFailure() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 3)).mapError { Wrapped(inner: $0) })
        #expect(recorder.events == [.subscription, .failure("Wrapped(3)")])
    }

    @Test func valuesPassThroughWithTheUpstreamSubscription() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.mapError { Wrapped(inner: $0) })
        #expect(recorder.subscription?.combineIdentifier == upstream.subscription.combineIdentifier)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }
}
