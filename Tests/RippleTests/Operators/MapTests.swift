import Ripple
import Testing

@Suite struct MapTests {
    @Test func transformsValuesAndForwardsCompletion() {
        let recorder = Recorder(for: [1, 2].publisher.map { $0 * 10 })
        #expect(recorder.events == [.subscription, .value(10), .value(20), .finished])
    }

    // Rule 23: the upstream subscription is forwarded, not wrapped.
    @Test func forwardsTheUpstreamSubscription() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.map { $0 }, demand: .max(2))
        #expect(recorder.subscription?.combineIdentifier == upstream.subscription.combineIdentifier)
        #expect(upstream.subscription.requests == [.max(2)])
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
    }

    @Test func passesReturnedDemandUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<String, Never>(demand: .max(1)) { _ in .max(3) }
        upstream.map(String.init).subscribe(recorder)
        #expect(upstream.send(1) == .max(3))
        #expect(recorder.values == ["1"])
    }

    @Test func forwardsFailure() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 1)).map { $0 + 1 })
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    // Rule 25
    // Generic, so the Sequence publisher's own eager `map` does not apply.
    func mapTwice<P: Publisher>(_ upstream: P) -> Publishers.Map<P, String> where P.Output == Int {
        upstream.map { $0 + 1 }.map { "\($0)" }
    }

    @Test func mapMapFusesIntoOneMap() {
        let upstream = [1, 2].publisher
        let fused = mapTwice(upstream)
        #expect(fused.upstream == upstream)
        #expect(Recorder(for: fused).values == ["2", "3"])
    }

    func mapThenTryMap<P: Publisher>(_ upstream: P) -> Publishers.TryMap<P, Int> where P.Output == Int {
        upstream.map { $0 }.tryMap { $0 * 2 }
    }

    @Test func mapTryMapFusesIntoOneTryMap() {
        #expect(Recorder(for: mapThenTryMap([1].publisher)).values == [2])
    }
}
