import Ripple
import Testing

@Suite struct TryCompactMapTests {
    // Rule 24: every dropped element gives `.max(1)` back upstream.
    @Test func dropsNilAndReturnsDemandForIt() {
        let upstream = ManualPublisher<String, Never>()
        let recorder = Recorder(for: upstream.tryCompactMap { Int($0) }, demand: .max(1))
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("4") == .none)
        #expect(recorder.values == [4])
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryCompactMap { value -> Int? in throw TestError(id: value) })
        upstream.send(6)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(6)")])
    }

    // Combine's `Publishers.TryCompactMap.compactMap(_:)` returns a `TryCompactMap` over the same
    // upstream (Apple's documentation: Publishers.TryCompactMap, compactMap(_:)).
    @Test func compactMapOnTryCompactMapIsOneTryCompactMapOverTheSameUpstream() {
        let upstream = PassthroughSubject<String, Never>()
        let fused: Publishers.TryCompactMap<PassthroughSubject<String, Never>, String> =
            upstream.tryCompactMap { Int($0) }.compactMap { $0 > 1 ? "#\($0)" : nil }
        #expect(fused.upstream === upstream)
        let recorder = Recorder(for: fused)
        upstream.send("x")
        upstream.send("1")
        upstream.send("2")
        #expect(recorder.values == ["#2"])
    }

    @Test func theFusedClosureFailsTheStreamWithWhatItThrows() {
        let upstream = ManualPublisher<Int, Never>()
        let fused = upstream.tryCompactMap { $0 }.compactMap { value -> Int? in throw TestError(id: value) }
        let recorder = Recorder(for: fused)
        upstream.send(3)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(3)")])
    }
}
