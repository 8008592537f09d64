import Ripple
import Testing

@Suite struct TryRemoveDuplicatesTests {
    @Test func removesConsecutiveDuplicatesAndReturnsDemandForThem() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryRemoveDuplicates(by: ==), demand: .max(5))
        upstream.send(1)
        #expect(upstream.send(1) == .max(1))
        upstream.send(2)
        upstream.send(1)
        #expect(recorder.values == [1, 2, 1])
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryRemoveDuplicates { _, _ in throw TestError(id: 1) })
        upstream.send(1)  // first element: nothing to compare, passes
        upstream.send(2)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .value(1), .failure("TestError(1)")])
    }
}
