import Ripple
import Testing

@Suite struct ReplaceEmptyTests {
    @Test func emptyStreamGetsTheReplacementOnDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.replaceEmpty(with: 7), demand: nil)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func nonEmptyStreamPassesThrough() {
        #expect(Recorder(for: [1, 2].publisher.replaceEmpty(with: 7)).events
            == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func failureIsNotReplaced() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 1)).replaceEmpty(with: 7))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    @Test func demandIsForwardedAndCancelReachesUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.replaceEmpty(with: 7), demand: .max(2))
        #expect(upstream.subscription.requests == [.max(2)])
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
    }

    /// As with `Just`: a cancel made inside the replacement's delivery stops the `.finished`, both
    /// when the downstream had asked already and when the replacement waited for its request.
    @Test(arguments: [true, false])
    func cancelInsideTheReplacementStopsTheFinished(askedFirst: Bool) {
        let box = Locked<(any Subscription)?>(nil)
        let recorder = Recorder<Int, Never>(
            demand: askedFirst ? .max(1) : nil,
            onValue: { _ in
                box.withLock { $0 }?.cancel()
                return .none
            },
            onSubscription: { subscription in box.withLock { $0 = subscription } })
        Empty<Int, Never>().replaceEmpty(with: 7).subscribe(recorder)
        if !askedFirst { recorder.request(.max(1)) }
        #expect(recorder.events == [.subscription, .value(7)])
    }
}

