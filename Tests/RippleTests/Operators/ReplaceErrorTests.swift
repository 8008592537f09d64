import Ripple
import Testing

@Suite struct ReplaceErrorTests {
    @Test func replacesFailureWithValueThenFinishes() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError()).replaceError(with: 0))
        #expect(recorder.events == [.subscription, .value(0), .finished])
    }

    @Test func replacementWaitsForDemand() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.replaceError(with: -1), demand: .max(1))
        upstream.send(1)
        upstream.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(-1), .finished])
    }

    @Test func finishedPassesThrough() {
        let recorder = Recorder(for: [1].publisher.setFailureType(to: TestError.self).replaceError(with: 0))
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func cancelReachesUpstream() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.replaceError(with: 0))
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
    }

    /// Nothing is delivered after `cancel()` returns, as with `Just`: a cancel made inside the
    /// replacement's delivery stops the `.finished` (found by the Conformance oracle, seed 160575).
    @Test func cancelInsideTheReplacementStopsTheFinished() {
        let box = Locked<(any Subscription)?>(nil)
        let recorder = Recorder<Int, Never>(
            onValue: { _ in
                box.withLock { $0 }?.cancel()
                return .none
            },
            onSubscription: { subscription in box.withLock { $0 = subscription } })
        Fail<Int, TestError>(error: TestError()).replaceError(with: 7).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(7)])
    }

    @Test func cancelInsideAWaitingReplacementStopsTheFinished() {
        let upstream = ManualPublisher<Int, TestError>()
        let box = Locked<(any Subscription)?>(nil)
        let recorder = Recorder<Int, Never>(
            demand: nil,
            onValue: { _ in
                box.withLock { $0 }?.cancel()
                return .none
            },
            onSubscription: { subscription in box.withLock { $0 = subscription } })
        upstream.replaceError(with: 7).subscribe(recorder)
        upstream.send(completion: .failure(TestError()))
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7)])
    }
}
