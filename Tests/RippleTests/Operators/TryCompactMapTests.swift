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
}
