import Ripple
import Testing

@Suite(.exitTestWatchdog) struct CollectByCountTests {
    @Test func groupsAndFlushesTheRestOnFinish() {
        #expect(Recorder(for: (1...5).publisher.collect(2)).events
            == [.subscription, .value([1, 2]), .value([3, 4]), .value([5]), .finished])
    }

    @Test func requestsCountTimesTheDownstreamDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<[Int], Never>(demand: .max(2), onValue: { _ in .max(1) })
        upstream.collect(3).subscribe(recorder)
        #expect(upstream.subscription.requests == [.max(6)])
        upstream.send(1)
        upstream.send(2)
        // The downstream's extra `.max(1)` becomes three more elements upstream.
        #expect(upstream.send(3) == .max(3))
        #expect(recorder.values == [[1, 2, 3]])
    }

    @Test func failureDropsTheBuffer() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.collect(2))
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    @Test func cancelReachesUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.collect(2))
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
    }

    @Test func zeroCountTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).collect(0)
        }
    }

    /// As with `Just`: a cancel made inside the delivery of the last, partial group stops the
    /// `.finished` (found by the Conformance oracle, seed 364563).
    @Test func cancelInsideTheLastGroupStopsTheFinished() {
        let box = Locked<(any Subscription)?>(nil)
        let recorder = Recorder<[Int], Never>(
            onValue: { _ in
                box.withLock { $0 }?.cancel()
                return .none
            },
            onSubscription: { subscription in box.withLock { $0 = subscription } })
        Just(5).collect(3).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value([5])])
    }
}

