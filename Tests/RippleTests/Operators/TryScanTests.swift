import Ripple
import Testing

@Suite struct TryScanTests {
    @Test func publishesEachPartialResult() {
        #expect(Recorder(for: [1, 2, 3].publisher.tryScan(0, +)).values == [1, 3, 6])
    }

    // Rule 23
    @Test func throwCancelsUpstreamBeforeTheFailure() {
        let upstream = ManualPublisher<Int, Never>()
        let cancelledFirst = Locked(false)
        let recorder = Recorder<Int, any Error>(onCompletion: { _ in
            cancelledFirst.withLock { $0 = upstream.subscription.cancelled }
        })
        upstream.tryScan(0) { sum, value in
            if value == 0 { throw TestError(id: 0) }
            return sum + value
        }.subscribe(recorder)
        upstream.send(2)
        upstream.send(0)
        upstream.send(5)
        #expect(recorder.events == [.subscription, .value(2), .failure("TestError(0)")])
        #expect(cancelledFirst.current)
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let publisher = [1, 1].publisher.tryScan(10, +)
        #expect(Recorder(for: publisher).values == [11, 12])
        #expect(Recorder(for: publisher).values == [11, 12])
    }

    // Rule 23: stateless-in-shape operators forward the upstream subscription (demand passes through).
    @Test func demandPassesThrough() {
        let upstream = ManualPublisher<Int, Never>()
        _ = Recorder(for: upstream.tryScan(0, +), demand: .max(2))
        #expect(upstream.subscription.requests == [.max(2)])
    }
}
