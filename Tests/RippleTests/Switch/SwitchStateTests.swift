@testable import Ripple
@testable import RippleCore
import Testing

/// switchToLatest's bookkeeping as a value: what each outer and inner event, request and cancel
/// makes due — no threads, no locks, no publishers.
@Suite struct SwitchStateTests {
    typealias Downstream = Recorder<Int, TestError>
    typealias State = SwitchState<Downstream>

    /// A started state with its outer subscription and the first child (generation 1) subscribed, after the downstream asked
    /// for `demand`.
    private func running(demand: Subscribers.Demand = .none) -> (State, child: RecordingSubscription) {
        var state = State()
        state.start(Downstream())
        let answer1 = state.acceptOuter(RecordingSubscription())
        #expect(answer1)
        _ = state.request(demand)
        guard case .subscribe(generation: 1, cancelling: nil) = state.switchToNewChild() else {
            Issue.record("expected the first child")
            return (state, RecordingSubscription())
        }
        let child = RecordingSubscription()
        let answer2 = state.attachChild(child, generation: 1)
        #expect(answer2 == (demand > 0 ? .request(demand) : .keep))
        return (state, child)
    }

    @Test func theOuterSubscriptionIsAcceptedOnceAndOnlyWhileRunning() {
        var state = State()
        let answer3 = state.acceptOuter(RecordingSubscription())
        #expect(!answer3)  // no downstream yet
        state.start(Downstream())
        let answer4 = state.acceptOuter(RecordingSubscription())
        #expect(answer4)
        let answer5 = state.acceptOuter(RecordingSubscription())
        #expect(!answer5)
    }

    @Test func aNewChildCancelsThePreviousOneUnderTheNextGeneration() {
        var (state, first) = running()
        guard case .subscribe(let generation, let previous) = state.switchToNewChild() else {
            Issue.record("expected a subscribe")
            return
        }
        #expect(generation == 2)
        #expect(same(previous, first))
        // The old child's events are stale now.
        let answer6 = state.attachChild(RecordingSubscription(), generation: 1)
        #expect(answer6 == .cancel)
        let answer7 = state.arrive(7, generation: 1)
        #expect(answer7 == .drop)
        let answer8 = state.childCompleted(.finished, generation: 1)
        #expect(answer8 == .ignore)
    }

    @Test func aChildIsHandedTheOutstandingDemandAndOnlyOneSubscription() {
        var state = State()
        state.start(Downstream())
        _ = state.request(.max(3))
        _ = state.switchToNewChild()
        let child = RecordingSubscription()
        let answer9 = state.attachChild(child, generation: 1)
        #expect(answer9 == .request(.max(3)))
        let answer10 = state.attachChild(RecordingSubscription(), generation: 1)
        #expect(answer10 == .cancel)
        let answer11 = state.request(.max(1))
        #expect(same(answer11, child))
    }

    @Test func aValueWithDemandIsDeliveredAndOneWithoutIsQueuedInOrder() {
        var (state, _) = running(demand: .max(1))
        let answer12 = state.arrive(1, generation: 1)
        #expect(answer12 == .deliver)
        #expect(state.demand == .none)
        let answer13 = state.arrive(2, generation: 1)
        #expect(answer13 == .queued)
        state.delivered(.max(1))
        // Demand again, but an older value waits: this one queues behind it.
        let answer14 = state.arrive(3, generation: 1)
        #expect(answer14 == .queued)
        guard case .deliver(_, 2) = state.next() else { Issue.record("expected 2"); return }
        guard case .idle = state.next() else { Issue.record("expected idle (no demand)"); return }
        state.delivered(.max(1))
        guard case .deliver(_, 3) = state.next() else { Issue.record("expected 3"); return }
        guard case .idle(let child) = state.next() else { Issue.record("expected idle"); return }
        #expect(child != nil)
    }

    @Test func itFinishesOnlyWhenTheOuterAndTheCurrentChildHaveFinished() {
        var (state, child) = running(demand: .max(1))
        let answer15 = state.outerCompleted(.finished)
        #expect(answer15 == .drain)
        let answer16 = state.outerCompleted(.finished)
        #expect(answer16 == .ignore)
        guard case .idle = state.next() else { Issue.record("the child still runs"); return }
        let answer17 = state.childCompleted(.finished, generation: 1)
        #expect(answer17 == .drain)
        guard case .finish(_, .finished, let teardown) = state.next() else { Issue.record("expected finish"); return }
        #expect(teardown.child == nil)  // it finished: nothing to cancel
        #expect(!state.isActive)
        _ = child
    }

    @Test func theFirstFailureWinsAndGoesOutBeforeQueuedValues() {
        var (state, child) = running()
        let answer18 = state.arrive(1, generation: 1)
        #expect(answer18 == .queued)
        let answer19 = state.childCompleted(.failure(TestError(id: 1)), generation: 1)
        #expect(answer19 == .drain)
        let answer20 = state.outerCompleted(.failure(TestError(id: 2)))
        #expect(answer20 == .drain)
        guard case .finish(_, .failure(TestError(id: 1)), let teardown) = state.next() else {
            Issue.record("expected the first failure"); return
        }
        #expect(teardown.dropped.count == 1)
        #expect(teardown.child == nil)
        // After the end nothing is accepted.
        let answer21 = state.arrive(2, generation: 1)
        #expect(answer21 == .drop)
        guard case .ignore = state.switchToNewChild() else { Issue.record("expected ignore"); return }
        _ = child
    }

    @Test func aFailureStopsNewChildrenBeforeItIsDelivered() {
        var (state, _) = running()
        let answer22 = state.outerCompleted(.failure(TestError()))
        #expect(answer22 == .drain)
        guard case .ignore = state.switchToNewChild() else { Issue.record("expected ignore"); return }
    }

    @Test func aCompletionBeforeTheChildsSubscriptionIsABrokenChild() {
        var state = State()
        state.start(Downstream())
        _ = state.switchToNewChild()
        let answer23 = state.childCompleted(.finished, generation: 1)
        #expect(answer23 == .brokenChild)
    }

    @Test func cancelTakesEverythingOutOfTheState() {
        var (state, child) = running()
        let answer24 = state.arrive(1, generation: 1)
        #expect(answer24 == .queued)
        let teardown = state.cancel()
        #expect(teardown.outer != nil)
        #expect(same(teardown.child, child))
        #expect(teardown.downstream != nil)
        #expect(teardown.dropped.count == 1)
        #expect(!state.isActive)
        let answer25 = state.request(.max(1))
        #expect(answer25 == nil)
        let answer26 = state.outerCompleted(.finished)
        #expect(answer26 == .ignore)
        guard case .idle(nil) = state.next() else { Issue.record("expected idle"); return }
    }
}

/// Whether `subscription` is `expected` (subscriptions are not class-bound: compared by identifier).
private func same(_ subscription: (any Subscription)?, _ expected: RecordingSubscription) -> Bool {
    subscription?.combineIdentifier == expected.combineIdentifier
}
