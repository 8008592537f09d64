import Ripple
import Testing

@Suite struct FirstWhereTests {
    // Rule 26: short-circuits.
    @Test func firstMatchCancelsUpstreamAndWaitsForDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.first { $0 > 1 }, demand: nil)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        #expect(!upstream.subscription.cancelled)
        upstream.send(2)
        #expect(upstream.subscription.cancelled)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(2), .finished])
    }

    @Test func noMatchJustFinishes() {
        #expect(Recorder(for: [1].publisher.first { $0 > 1 }).events == [.subscription, .finished])
    }

    @Test func tryFirstWhereThrowFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryFirst { _ in throw TestError(id: 8) })
        upstream.send(1)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(8)")])
    }

    @Test func tryFirstWhereMatches() {
        #expect(Recorder(for: [1, 2, 3].publisher.tryFirst { $0 == 2 }).values == [2])
    }
}
