import Ripple
import Testing

/// merge's behaviour as recorded against Apple's Combine (the oracle cannot compare merge:
/// OpenCombine 0.14 has none). Each test names the recorded test it was learned from.
@Suite struct MergeAppleRecordedTests {
    /// OpenCombine (after 0.14) `MergeTests.testSendsExpectedValues`, run against Combine: every
    /// arity's subscription describes itself as "Merge" — MergeMany's too — and with unlimited
    /// demand each value is delivered at once with `.none` returned.
    @Test func everyArityDescribesItselfAsMerge() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let two = Recorder(for: a.merge(with: b))
        #expect(two.subscription.map { String(describing: $0) } == "Merge")
        let children = (0..<9).map { _ in ManualPublisher<Int, Never>() }
        let many = Recorder(for: Publishers.MergeMany(children))
        #expect(many.subscription.map { String(describing: $0) } == "Merge")
        for (index, child) in children.enumerated() { #expect(child.send(index) == .none) }
        #expect(many.values == Array(0..<9))
    }

    /// CombineX `MergeSpec` "should merge 8 upstreams" and "should merge many upstreams" (run
    /// against Combine): with unlimited demand, values from any upstream arrive in sending order.
    @Test func eightUpstreamsAndManyKeepTheSendingOrder() {
        let subjects = (0..<9).map { _ in PassthroughSubject<Int, Never>() }
        let eight = Recorder(for: Publishers.Merge8(
            subjects[0], subjects[1], subjects[2], subjects[3],
            subjects[4], subjects[5], subjects[6], subjects[7]))
        let many = Recorder(for: Publishers.MergeMany(subjects))
        for value in 0..<40 { subjects[(value * 5) % 8].send(value) }
        #expect(eight.values == Array(0..<40))
        #expect(many.values == Array(0..<40))
    }

    /// OpenCombine `MergeTests.testMergeCurrentValueSubject`, run against Combine: upstreams are
    /// subscribed in order, so `[42].publisher` delivers before the subject's current value.
    @Test func upstreamsAreSubscribedInOrder() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = Recorder(for: [42].publisher.merge(with: subject))
        #expect(recorder.events == [.subscription, .value(42), .value(0)])
    }

    /// OpenCombine `MergeTests.testBCancelledAfterAFailed`, run against Combine: the first failure
    /// is delivered and the other upstream is cancelled. (Combine also cancels the upstream that
    /// failed, after its completion; Ripple sends nothing to a subscription that has completed —
    /// Conformance/README.md's rule "forwards requests and cancels to an upstream that already
    /// completed" — so this test pins Ripple's side of that.)
    @Test func aFailureIsDeliveredAndTheOtherUpstreamCancelled() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: a.merge(with: b))
        a.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
        #expect(b.subscription.requests == [.unlimited])
        #expect(b.subscription.cancelled)
        #expect(!a.subscription.cancelled)
    }

    /// OpenCombine `MergeTests.testImmediateFinishWhenOneChildFinishesWithNoSurplus`, run against
    /// Combine: one upstream finishing finishes nothing and cancels nobody.
    @Test func oneUpstreamFinishingCancelsNobody() {
        let upstreams = (0..<3).map { _ in ManualPublisher<Int, Never>() }
        let recorder = Recorder(for: upstreams[0].merge(with: upstreams[1], upstreams[2]))
        upstreams[1].send(completion: .finished)
        #expect(recorder.events == [.subscription])
        for upstream in upstreams {
            #expect(upstream.subscription.requests == [.unlimited])
            #expect(!upstream.subscription.cancelled)
        }
    }

    /// OpenCombine `MergeTests.testAValueAfterAChildFinishedWithSurplus` and
    /// `testMergeCompletesOnlyAfterAllChildrenComplete`, run against Combine: the others' values
    /// still arrive after one finished; `.finished` comes with the last.
    @Test func valuesAfterOneFinishedStillArrive() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: a.merge(with: b))
        a.send(100)
        a.send(completion: .finished)
        a.send(200)
        b.send(1)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(100), .value(1), .finished])
    }

    /// OpenCombine `MergeTests.testNoDemandOnSubscriptionNoCrashes`, run against Combine:
    /// requesting `.none` from a merge does not trap (Ripple trapped before; it now asks nothing).
    @Test func requestingNoneDoesNotTrap() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.merge(with: b), demand: nil)
        recorder.request(.none)
        recorder.request(.max(1))
        a.send(1)
        #expect(recorder.values == [1])
    }

    /// OpenCombine `MergeTests.testIncreasedDemand`, run against Combine: a subscriber that asked
    /// for nothing receives nothing, whatever it would return for a value.
    @Test func aSubscriberThatAskedNothingReceivesNothing() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: nil, onValue: { _ in .max(1) })
        a.merge(with: b).subscribe(recorder)
        #expect(a.send(1) == .none)
        #expect(recorder.events == [.subscription])
    }

    /// OpenCombine `MergeTests.testChildDemand`, `testUpstreamExceedsDemand` and
    /// `testMergeReceiveSubscriptionTwice`, run against Combine, record a different demand rule:
    /// Combine asks every upstream for `.max(1)` as soon as it is subscribed (before any demand),
    /// returns `.max(1)` from `receive(_:)` for each value it delivers under bounded demand, and
    /// keeps one value per upstream beyond the demand (a newer one replaces it; they go out in
    /// upstream order). Ripple's rule (the Porting article: where Apple documents no rule for how
    /// merge passes demand upstream, Ripple defines one) asks each upstream for one value once
    /// there is demand, requests the next, and queues what arrives beyond the demand in arrival
    /// order. This test pins Ripple's rule; Conformance/README.md lists the difference.
    @Test func boundedDemandFollowsRipplesDocumentedRule() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.merge(with: b), demand: nil)
        #expect(a.subscription.requests.isEmpty)  // Combine: [.max(1)]
        recorder.request(.max(1))
        #expect(a.subscription.requests == [.max(1)])
        #expect(a.send(100) == .none)  // Combine: .max(1)
        #expect(b.send(1) == .none)
        #expect(a.send(200) == .none)
        #expect(a.send(300) == .none)
        recorder.request(.max(1))
        #expect(recorder.values == [100, 1])  // Combine: [100, 300]
    }
}
