import Ripple
import RippleTesting
import Testing

@Suite struct MergeTests {
    @Test func interleavesInArrivalOrder() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = a.merge(with: b).record()  // RippleTesting's recorder
        a.send(1)
        b.send(2)
        a.send(3)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func finishesOnlyWhenEveryUpstreamHasFinished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: a.merge(with: b))
        a.send(completion: .finished)
        #expect(!recorder.isCompleted)
        b.send(1)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func firstFailureCancelsTheOthers() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: a.merge(with: b))
        a.send(completion: .failure(TestError(id: 1)))
        #expect(b.subscription.cancelled)
        b.send(2)
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    // Bounded demand: each upstream has at most one element outstanding; the rest waits upstream.
    @Test func boundedDemandAsksEachUpstreamForOneAtATime() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.merge(with: b), demand: .max(1))
        #expect(a.subscription.requests == [.max(1)])
        #expect(b.subscription.requests == [.max(1)])
        #expect(a.send(1) == .none)
        // The downstream has no demand left: b's element waits here.
        #expect(b.send(2) == .none)
        #expect(recorder.values == [1])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2])
        // Both upstreams are asked again now that there is demand.
        #expect(a.subscription.requests == [.max(1), .max(1)])
        #expect(b.subscription.requests == [.max(1), .max(1)])
    }

    @Test func unlimitedDemandIsForwardedToEveryUpstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.merge(with: b), demand: .max(1))
        recorder.request(.unlimited)
        #expect(a.subscription.requests == [.max(1), .unlimited])
        #expect(b.subscription.requests == [.max(1), .unlimited])
        for value in 0..<5 { a.send(value) }
        #expect(recorder.values == [0, 1, 2, 3, 4])
    }

    @Test func finishWaitsForQueuedElements() {
        let a = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.merge(with: Empty()), demand: .max(1))
        a.send(1)
        a.send(2)  // beyond demand: queued
        a.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func arities3To8AndMergeMany() {
        let j = { (value: Int) in Just(value) }
        #expect(Recorder(for: j(1).merge(with: j(2), j(3))).values == [1, 2, 3])
        #expect(Recorder(for: j(1).merge(with: j(2), j(3), j(4))).values == [1, 2, 3, 4])
        #expect(Recorder(for: j(1).merge(with: j(2), j(3), j(4), j(5))).values == [1, 2, 3, 4, 5])
        #expect(Recorder(for: j(1).merge(with: j(2), j(3), j(4), j(5), j(6))).values.count == 6)
        #expect(Recorder(for: j(1).merge(with: j(2), j(3), j(4), j(5), j(6), j(7))).values.count == 7)
        let eight = j(1).merge(with: j(2), j(3), j(4), j(5), j(6), j(7), j(8))
        #expect(Recorder(for: eight).values == Array(1...8))
        #expect(eight.h == Just(8))
        #expect(Recorder(for: Publishers.MergeMany([j(1), j(2)]).merge(with: j(3))).values == [1, 2, 3])
        #expect(Recorder(for: Publishers.MergeMany<Just<Int>>([])).events == [.subscription, .finished])
        #expect(Publishers.Merge(j(1), j(2)) == Publishers.Merge(j(1), j(2)))
    }

    @Test func cancelCancelsEveryUpstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.merge(with: b))
        recorder.cancel()
        #expect(a.subscription.cancelled && b.subscription.cancelled)
        a.send(1)
        #expect(recorder.events == [.subscription])
    }

    // Re-entrancy: the downstream sends into an upstream from inside receive.
    @Test func reentrantSendIsDeliveredAfterTheCurrentOne() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(onValue: { value in
            if value == 1 { b.send(2) }
            return .none
        })
        a.merge(with: b).subscribe(recorder)
        a.send(1)
        a.send(3)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func releasedAfterCompletion() {
        weak var weakCore: AnyObject?
        do {
            let recorder = Recorder(for: Just(1).merge(with: Just(2)))
            weakCore = recorder.subscription as AnyObject
            #expect(recorder.values == [1, 2])
        }
        #expect(weakCore == nil)
    }
}
