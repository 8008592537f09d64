import Ripple
import Testing

@Suite struct CombineLatestTests {
    // Rule 29: emits only once every input has emitted.
    @Test func emitsOnceEveryInputHasAValue() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let recorder = Recorder(for: a.combineLatest(b).map { "\($0)\($1)" })
        a.send(1)
        a.send(2)
        #expect(recorder.values.isEmpty)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(recorder.values == ["2x", "3x", "3y"])
    }

    @Test func transformOverloadsAndArities() {
        let a = CurrentValueSubject<Int, Never>(1)
        let b = CurrentValueSubject<Int, Never>(2)
        let c = CurrentValueSubject<Int, Never>(3)
        let d = CurrentValueSubject<Int, Never>(4)
        #expect(Recorder(for: a.combineLatest(b, +)).values == [3])
        #expect(Recorder(for: a.combineLatest(b, c) { $0 + $1 + $2 }).values == [6])
        #expect(Recorder(for: a.combineLatest(b, c, d) { $0 + $1 + $2 + $3 }).values == [10])
        let four = Recorder(for: a.combineLatest(b, c, d)).values
        #expect(four.count == 1 && four[0] == (1, 2, 3, 4))
    }

    @Test func finishesWhenAllFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: a.combineLatest(b, +))
        a.send(1)
        b.send(1)
        a.send(completion: .finished)
        b.send(5)  // a's last value still combines
        #expect(!recorder.isCompleted)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2), .value(6), .finished])
    }

    @Test func failureCancelsTheOthersAtOnce() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: a.combineLatest(b, +))
        b.send(completion: .failure(TestError(id: 2)))
        #expect(a.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(2)")])
    }

    /// Combine's rule, recorded against it: OpenCombine `CombineLatestTests.testChildDemand` and
    /// `testUpstreamExceedsDemand`. Each request goes to every upstream; nothing is given back; a
    /// tuple beyond the demand is dropped (the values stay the latest) and no later request sends it.
    @Test func demandIsForwardedAndATupleBeyondTheDemandIsDropped() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.combineLatest(b, +), demand: .max(1))
        #expect(a.subscription.requests == [.max(1)])
        #expect(b.subscription.requests == [.max(1)])
        #expect(a.send(1) == .none)
        #expect(b.send(10) == .none)
        #expect(recorder.values == [11])
        a.send(2)
        a.send(3)
        #expect(recorder.values == [11])
        recorder.request(.max(1))
        #expect(recorder.values == [11])
        #expect(a.subscription.requests == [.max(1), .max(1)])
        #expect(b.subscription.requests == [.max(1), .max(1)])
        b.send(20)
        #expect(recorder.values == [11, 23])
    }

    @Test func cancelCancelsEveryUpstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.combineLatest(b))
        recorder.cancel()
        #expect(a.subscription.cancelled && b.subscription.cancelled)
    }

    @Test func reentrantSendFromTheDownstream() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(onValue: { value in
            if value == 11 { a.send(2) }
            return .none
        })
        a.combineLatest(b, +).subscribe(recorder)
        a.send(1)
        b.send(10)
        #expect(recorder.values == [11, 12])
    }

    @Test func releasedAfterCompletion() {
        weak var weakCore: AnyObject?
        do {
            let recorder = Recorder(for: Just(1).combineLatest(Just(2)))
            weakCore = recorder.subscription as AnyObject
            #expect(recorder.events.count == 3)
        }
        #expect(weakCore == nil)
    }
}
