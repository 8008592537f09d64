import Ripple
import RippleTesting
import Testing

@Suite struct ZipTests {
    @Test func pairsElementsInOrder() {
        // Dogfooding RippleTesting's recorder.
        let recorder = [1, 2, 3].publisher.zip(["a", "b"].publisher).map { "\($0)\($1)" }.record()
        #expect(recorder.events == [.value("1a"), .value("2b"), .completion(.finished)])
    }

    // Rule 29: a child that finishes with nothing buffered finishes the zip and cancels the others.
    @Test func finishedChildWithNothingBufferedEndsTheZip() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.zip(b, +))
        a.send(completion: .finished)
        #expect(b.subscription.cancelled)
        #expect(recorder.events == [.subscription, .finished])
    }

    // Rule 29: with buffered values it waits until they are paired.
    @Test func finishedChildWithBufferedValuesWaits() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.zip(b, +))
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        #expect(!recorder.isCompleted)
        b.send(10)
        #expect(recorder.values == [11])
        #expect(!recorder.isCompleted)
        b.send(20)
        #expect(recorder.events == [.subscription, .value(11), .value(22), .finished])
        #expect(b.subscription.cancelled)
    }

    @Test func demandIsForwardedToEveryChild() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.zip(b), demand: .max(2))
        #expect(a.subscription.requests == [.max(2)])
        #expect(b.subscription.requests == [.max(2)])
        recorder.request(.max(1))
        #expect(a.subscription.requests == [.max(2), .max(1)])
    }

    @Test func tuplesWaitForDemand() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.zip(b, +), demand: .max(1))
        a.send(1); b.send(1)
        a.send(2); b.send(2)
        #expect(recorder.values == [2])
        recorder.request(.max(1))
        #expect(recorder.values == [2, 4])
    }

    // Found by the conformance oracle once zip's partner was probed: an upstream that fails inside
    // the request (a current-value subject serving it through a throwing tryMap) cancelled the
    // partner, which was then asked for the same demand anyway.
    @Test func anUpstreamFailingInsideTheRequestLeavesThePartnerUnasked() {
        let a = CurrentValueSubject<Int, any Error>(4).tryMap { _ -> Int in throw TestFailure() }
        let b = ManualPublisher<Int, any Error>()
        let recorder = Recorder(for: a.zip(b, +), demand: nil)
        recorder.request(.max(3))
        #expect(recorder.isCompleted)
        #expect(b.subscription.cancelled)
        #expect(b.subscription.requests == [])
    }

    @Test func failureCancelsTheOthers() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: a.zip(b, +))
        a.send(completion: .failure(TestError(id: 1)))
        #expect(b.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    // Combine's order: every upstream is subscribed before the downstream gets its subscription
    // (from inside the last upstream's), then the downstream's demand goes to each.
    @Test func upstreamsAreSubscribedBeforeTheDownstreamGetsItsSubscription() {
        let log = OrderLog()
        let a = LoggedPublisher<Int, Never>("a", log: log)
        let b = LoggedPublisher<Int, Never>("b", log: log)
        let c = LoggedPublisher<Int, Never>("c", log: log)
        a.zip(b, c).subscribe(LoggedSubscriber<(Int, Int, Int), Never>(log: log, demand: .max(2)))
        #expect(log.entries == [
            "a subscribed", "b subscribed", "c subscribed", "S subscription Zip3",
            "a request max(2)", "b request max(2)", "c request max(2)",
        ])
    }

    // Combine's completion order: a finished child with nothing buffered finishes the downstream,
    // then the others are cancelled.
    @Test func finishesBeforeCancellingTheOthers() {
        let log = OrderLog()
        let a = LoggedPublisher<Int, Never>("a", log: log)
        let b = LoggedPublisher<Int, Never>("b", log: log)
        a.zip(b, +).subscribe(LoggedSubscriber<Int, Never>(log: log, demand: .unlimited))
        a.send(completion: .finished)
        #expect(log.entries.suffix(2) == ["S completion finished", "b cancel"])
    }

    @Test func failsBeforeCancellingTheOthers() {
        let log = OrderLog()
        let a = LoggedPublisher<Int, TestError>("a", log: log)
        let b = LoggedPublisher<Int, TestError>("b", log: log)
        a.zip(b, +).subscribe(LoggedSubscriber<Int, TestError>(log: log, demand: .unlimited))
        b.send(completion: .failure(TestError(id: 3)))
        #expect(log.entries.suffix(2) == ["S completion failure TestError(3)", "a cancel"])
    }

    // A child that completes before the others are subscribed: the downstream gets its subscription
    // first, then the completion.
    @Test func earlyCompletionComesAfterTheSubscription() {
        let recorder = Recorder(for: Empty<Int, Never>().zip(ManualPublisher<Int, Never>(), +))
        #expect(recorder.events == [.subscription, .finished])
        let failing = Recorder(for: Fail<Int, TestError>(error: TestError(id: 2)).zip(Just(1).setFailureType(to: TestError.self), +))
        #expect(failing.events == [.subscription, .failure("TestError(2)")])
    }

    // Combine's demand: what the downstream returns for a tuple goes back, as the return of
    // receive(_:), to the child whose value completed it, and every other child is asked for it
    // (CombineX's ZipSpec "should send as many as demands", recorded against Combine: 12 tuples
    // from two subjects for 10 requested and 2 returned).
    @Test func returnedDemandGoesBackToTheSendingChildAndIsAskedOfTheOthers() {
        let log = OrderLog()
        let a = LoggedPublisher<Int, Never>("a", log: log)
        let b = LoggedPublisher<Int, Never>("b", log: log)
        a.zip(b, +).subscribe(LoggedSubscriber<Int, Never>(log: log, demand: .max(1), onValue: { _ in .max(3) }))
        #expect(a.send(1) == .none)
        #expect(b.send(2) == .max(3))
        #expect(log.entries.suffix(4) == ["a request max(1)", "b request max(1)", "S value 3", "a request max(3)"])
        // The demand counts: three more tuples go out.
        for value in 1...3 {
            a.send(value)
            b.send(value)
        }
        #expect(log.entries.filter { $0.hasPrefix("S value") } == ["S value 3", "S value 2", "S value 4", "S value 6"])
    }

    @Test func subjectsKeepPairingWhenTheSubscriberReturnsItsDemand() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        a.zip(b, +).subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in
                received.withLock { $0.append(value) }
                return .max(1)
            },
            receiveCompletion: { _ in }))
        for value in 1...5 {
            a.send(value)
            b.send(value * 10)
        }
        #expect(received.current == [11, 22, 33, 44, 55])
    }

    @Test func subjectsKeepPairingIntoABufferThatKeepsItselfFull() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        let cancellable = a.zip(b, +).buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
            .sink { value in received.withLock { $0.append(value) } }
        for value in 1...10 {
            a.send(value)
            b.send(value)
        }
        #expect(received.current == Array(stride(from: 2, through: 20, by: 2)))
        cancellable.cancel()
    }

    @Test func subjectsDeliverAsManyTuplesAsRequestedAndReturned() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let count = Locked(0)
        a.zip(b).subscribe(AnySubscriber<(Int, Int), Never>(
            receiveSubscription: { $0.request(.max(10)) },
            receiveValue: { _ in
                count.withLock { count in
                    defer { count += 1 }
                    return [0, 10].contains(count) ? .max(1) : .none
                }
            },
            receiveCompletion: { _ in }))
        for value in 0..<100 {
            a.send(value)
            b.send(value)
        }
        #expect(count.current == 12)
    }

    // A request made from inside the delivery goes to the other children at once and back to the
    // child that completed the tuple as the return of its receive(_:).
    @Test func requestFromInsideTheDeliveryGoesToTheOthersAndBackToTheSendingChild() {
        let log = OrderLog()
        let a = LoggedPublisher<Int, Never>("a", log: log)
        let b = LoggedPublisher<Int, Never>("b", log: log)
        let box = Locked<(any Subscription)?>(nil)
        let subscriber = LoggedSubscriber<Int, Never>(log: log, demand: .max(1), onValue: { _ in
            box.current?.request(.max(2))
            return .none
        })
        a.zip(b, +).subscribe(subscriber)
        box.withLock { $0 = subscriber.subscription }
        a.send(1)
        #expect(b.send(2) == .max(2))
        #expect(log.entries.suffix(2) == ["S value 3", "a request max(2)"])
    }

    @Test func aritiesThreeAndFour() {
        let three = Recorder(for: Just(1).zip(Just(2), Just(3)) { $0 + $1 + $2 })
        #expect(three.values == [6])
        let four = Recorder(for: [1, 2].publisher.zip([3, 4].publisher, [5, 6].publisher, [7].publisher)).values
        #expect(four.count == 1 && four[0] == (1, 3, 5, 7))
    }
}

private struct TestFailure: Error {}
