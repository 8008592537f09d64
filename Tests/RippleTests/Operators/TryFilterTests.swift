import Ripple
import Testing

@Suite struct TryFilterTests {
    @Test func throwingCancelsUpstreamThenFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryFilter { value in
            if value < 0 { throw TestError(id: value) }
            return value > 1
        })
        #expect(upstream.send(1) == .max(1))
        upstream.send(2)
        upstream.send(-3)
        upstream.send(4)
        #expect(recorder.events == [.subscription, .value(2), .failure("TestError(-3)")])
        #expect(upstream.subscription.cancelled)
    }

    @Test func filterTryFilterFuses() {
        let fused: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> = [1, 2, 3].publisher
            .filter { $0 > 1 }.tryFilter { $0 < 3 }
        #expect(Recorder(for: fused).values == [2])
    }
}
