import Ripple
import Testing

/// combineLatest's behaviour as recorded against Apple's Combine (the oracle cannot compare
/// combineLatest: OpenCombine 0.14 has none). Each test names the recorded test it was learned from.
@Suite struct CombineLatestAppleRecordedTests {
    /// OpenCombine (after 0.14) `CombineLatestTests.testSendsExpectedValues`, run against Combine:
    /// arities 2 to 4 (with a transform) all describe their subscription as "CombineLatest", and
    /// with unlimited demand every value returns `.none`.
    @Test func everyArityDescribesItselfAsCombineLatest() {
        for arity in 2...4 {
            let children = (0..<arity).map { _ in ManualPublisher<Int, Never>() }
            let recorder: Recorder<Int, Never> =
                switch arity {
                case 2: Recorder(for: children[0].combineLatest(children[1], +))
                case 3: Recorder(for: children[0].combineLatest(children[1], children[2]) { $0 + $1 + $2 })
                default:
                    Recorder(for: children[0].combineLatest(children[1], children[2], children[3]) {
                        $0 + $1 + $2 + $3
                    })
                }
            #expect(recorder.subscription.map { String(describing: $0) } == "CombineLatest")
            for child in children { #expect(child.send(1) == .none) }
            #expect(recorder.values == [arity])
        }
    }

    /// CombineX `CombineLatestSpec` "should combine latest of 2" and "of 3" (run against Combine):
    /// the first tuple comes once every upstream has sent, with each one's latest value; then one
    /// per value.
    @Test func latestValuesOfTwoAndThree() {
        let s0 = PassthroughSubject<String, Never>()
        let s1 = PassthroughSubject<String, Never>()
        let s2 = PassthroughSubject<String, Never>()
        let two = Recorder(for: s0.combineLatest(s1, +))
        let three = Recorder(for: s0.combineLatest(s1, s2) { $0 + $1 + $2 }, demand: .max(10))
        s0.send("0"); s0.send("1"); s1.send("a")
        s0.send("2"); s1.send("b")
        s2.send("A"); s0.send("3"); s1.send("c"); s2.send("B")
        #expect(two.values == ["1a", "2a", "2b", "3b", "3c"])
        #expect(three.values == ["2bA", "3bA", "3cA", "3cB"])
    }

    /// OpenCombine `CombineLatestTests.testCombineLatestDocumentationDemo`, run against Combine.
    @Test func fourUpstreamsWithATransform() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = Recorder(for: subjects[0].combineLatest(subjects[1], subjects[2], subjects[3]) {
            $0 * $1 * $2 * $3
        })
        subjects[0].send(1); subjects[0].send(2); subjects[1].send(2); subjects[2].send(9)
        #expect(recorder.values.isEmpty)
        subjects[3].send(1)
        subjects[0].send(3); subjects[1].send(12); subjects[0].send(13); subjects[2].send(19)
        #expect(recorder.values == [36, 54, 324, 1404, 2964])
    }

    /// CombineX `CombineLatestSpec` "should finish when one sends an error" (run against Combine):
    /// the values, then the failure of one upstream.
    @Test func fourUpstreamsThenAFailure() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, TestError>() }
        let recorder = Recorder(for: subjects[0].combineLatest(subjects[1], subjects[2], subjects[3]) {
            $0 + $1 + $2 + $3
        })
        for value in 0..<10 { subjects[value % 4].send(value) }
        subjects[3].send(completion: .failure(TestError(id: 0)))
        let values: [Event<Int>] = [6, 10, 14, 18, 22, 26, 30].map { .value($0) }
        #expect(recorder.events == [.subscription] + values + [.failure("TestError(0)")])
    }

    /// OpenCombine `CombineLatestTests.testChildDemand`, run against Combine: each request goes to
    /// every upstream as it is; no value gives demand back, not even a first one that cannot make a
    /// tuple yet (CombineX `CombineLatestSpec` "should always return none from sync backpressure").
    /// Ripple gave `.max(1)` back for such a first value before; fixed.
    @Test func requestsGoToEveryUpstreamAndNothingIsGivenBack() {
        for initial in [Subscribers.Demand.unlimited, .max(1)] {
            let a = ManualPublisher<Int, Never>()
            let b = ManualPublisher<Int, Never>()
            let recorder = Recorder(for: a.combineLatest(b, +), demand: initial)
            #expect(a.subscription.requests == [initial] && b.subscription.requests == [initial])
            #expect(a.send(1) == .none)
            #expect(b.send(1) == .none)
            #expect(recorder.values == [2])
            recorder.request(.max(2))
            #expect(a.subscription.requests == [initial, .max(2)])
            #expect(b.subscription.requests == [initial, .max(2)])
        }
    }

    /// OpenCombine `CombineLatestTests.testDownstreamDemandRequestedWhileSendingValue`, run against
    /// Combine: a request made from inside `receive(_:)` goes to every upstream at once, and the
    /// value that completed the tuple returns `.none`.
    @Test func aRequestFromInsideADeliveryGoesToEveryUpstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        var subscription: (any Subscription)?
        let recorder = Recorder<Int, Never>(demand: .max(10), onValue: { _ in
            subscription?.request(.max(666))
            return .none
        })
        a.combineLatest(b, +).subscribe(recorder)
        subscription = recorder.subscription
        #expect(a.send(1) == .none)
        #expect(b.send(1) == .none)
        #expect(a.subscription.requests == [.max(10), .max(666)])
        #expect(b.subscription.requests == [.max(10), .max(666)])
    }

    /// OpenCombine `CombineLatestTests.testUpstreamExceedsDemand`, run against Combine: tuples
    /// beyond the demand are dropped, and a later request does not send the newest one. (Ripple
    /// kept the newest tuple for the next request before; fixed.)
    @Test func tuplesBeyondTheDemandAreDropped() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.combineLatest(b, +), demand: .max(1))
        #expect(a.send(100) == .none)
        #expect(b.send(1) == .none)
        #expect(a.send(200) == .none)
        #expect(a.send(300) == .none)
        #expect(b.send(2) == .none)
        #expect(b.send(3) == .none)
        recorder.request(.max(1))
        #expect(recorder.values == [101])
    }

    /// CombineX `CombineLatestSpec` "should send as many as demands" (run against Combine): as many
    /// tuples as the demand requested plus the demand returned, whatever else arrives.
    @Test func asManyTuplesAsTheDemand() {
        let s0 = PassthroughSubject<Int, Never>()
        let s1 = PassthroughSubject<Int, Never>()
        var count = 0
        let recorder = Recorder<Int, Never>(demand: .max(10), onValue: { _ in
            defer { count += 1 }
            return [0, 10].contains(count) ? .max(1) : .none
        })
        s0.combineLatest(s1, +).subscribe(recorder)
        for value in 0..<100 { (value % 3 == 0 ? s0 : s1).send(value) }
        #expect(recorder.values.count == 12)
    }

    /// OpenCombine `CombineLatestTests.testImmediateFinishWhenOneChildFinishesWithNoSurplus` and
    /// `testAValueAfterAChildFinishedWithoutSurplus`, run against Combine: an upstream that
    /// finishes without a value neither finishes the stream nor cancels the others; it finishes,
    /// with no tuple, once every upstream has.
    @Test func anUpstreamFinishingWithoutAValueWaitsForTheOthers() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.combineLatest(b, +))
        a.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        #expect(!b.subscription.cancelled)
        b.send(1)
        #expect(recorder.events == [.subscription])
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    /// OpenCombine `CombineLatestTests.testAValueAfterAChildFinishedWithSurplus`, run against
    /// Combine: a finished upstream's last value still makes tuples.
    @Test func aFinishedUpstreamsLastValueStillCombines() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: a.combineLatest(b, +))
        a.send(100)
        a.send(completion: .finished)
        b.send(1)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(101), .finished])
    }

    /// OpenCombine `CombineLatestTests.testBCancelledAfterAFailed`, run against Combine: the
    /// failure is delivered; the other upstream is cancelled, the failed one is not.
    @Test func aFailureCancelsOnlyTheOthers() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: a.combineLatest(b, +))
        a.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
        #expect(a.subscription.requests == [.unlimited] && !a.subscription.cancelled)
        #expect(b.subscription.requests == [.unlimited] && b.subscription.cancelled)
    }

    /// OpenCombine `CombineLatestTests.testCombineLatestCurrentValueSubject`, run against Combine:
    /// a finished sequence's value combines with a subject's current value.
    @Test func aFinishedSequenceCombinesWithASubjectsCurrentValue() {
        let subject = CurrentValueSubject<String, Never>("x")
        let recorder = Recorder(for: [42].publisher.combineLatest(subject) { "\($0)\($1)" })
        #expect(recorder.events == [.subscription, .value("42x")])
    }

    /// OpenCombine `CombineLatestTests.testUpstreamValueReceivedWhileSendingValue`, run against
    /// Combine, records that a value an upstream sends from inside the downstream's `receive(_:)`
    /// is not delivered. Ripple delivers it after the current one (its re-entrancy rule, the same
    /// for every operator: `ReentrancyMatrix`). This test pins Ripple's rule; Conformance/README.md
    /// lists the difference.
    @Test func aValueSentFromInsideADeliveryFollowsRipplesReentrancyRule() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(onValue: { value in
            if value == 2 { a.send(5) }
            return .none
        })
        a.combineLatest(b, +).subscribe(recorder)
        a.send(1)
        b.send(1)
        #expect(recorder.values == [2, 6])  // Combine: [2]
    }
}
