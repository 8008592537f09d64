@testable import Ripple
@testable import RippleCore
import Testing

/// merge's and flatMap's bookkeeping as a value: what each subscription, value, request and
/// completion makes due — no threads (but the caller's), no locks, no subscribers.
@Suite struct MergeStateTests {
    /// The demands of `asks`, checking that they go to `subscriptions`, in that order.
    private func demands(
        _ step: MergeState.Step, to subscriptions: [RecordingSubscription], sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Subscribers.Demand]? {
        guard case .idle(let asks) = step else {
            Issue.record("expected .idle, got \(step)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(asks.map(\.0.combineIdentifier) == subscriptions.map(\.combineIdentifier), sourceLocation: sourceLocation)
        return asks.map(\.1)
    }

    /// A merge of `count` children, each subscribed (with `RecordingSubscription`s).
    private func merge(_ count: Int) -> (MergeState, [RecordingSubscription]) {
        var state = MergeState(merging: count)
        let subscriptions = (0..<count).map { _ in RecordingSubscription() }
        for (index, subscription) in subscriptions.enumerated() {
            let answer1 = state.attach(subscription, index: index, generation: 0)
            #expect(answer1 == .keep)
        }
        return (state, subscriptions)
    }

    // MARK: merge

    @Test func aMergeAsksItsChildrenOnlyOnceThereIsDemand() {
        var (state, subscriptions) = merge(2)
        let step1 = state.next()
        #expect(demands(step1, to: []) == [])
        state.request(.max(2))
        let step2 = state.next()
        #expect(demands(step2, to: subscriptions) == [.max(1), .max(1)])
        // Asked already: not again.
        let step3 = state.next()
        #expect(demands(step3, to: []) == [])
        // A late child is asked as it subscribes.
        var late = MergeState(merging: 1)
        late.request(.max(2))
        let answer2 = late.attach(RecordingSubscription(), index: 0, generation: 0)
        #expect(answer2 == .request(.max(1)))
    }

    @Test func unlimitedDemandAsksEachChildForUnlimitedOnce() {
        var (state, subscriptions) = merge(2)
        state.request(.unlimited)
        let step4 = state.next()
        #expect(demands(step4, to: subscriptions) == [.unlimited, .unlimited])
        let answer3 = state.arrive(index: 1, generation: 0, turnOwner: 0)
        #expect(answer3 == .deliver(wasUnlimited: true))
        let answer4 = state.delivered(.none, index: 1, generation: 0, wasUnlimited: true, nested: false)
        #expect(answer4 == .none)
        let step5 = state.next()
        #expect(demands(step5, to: []) == [])
        #expect(state.demand == .unlimited)
    }

    @Test func aDeliveredValueGivesItsChildMoreWhileThereIsDemand() {
        var (state, _) = merge(1)
        state.request(.max(2))
        _ = state.next()
        let answer5 = state.arrive(index: 0, generation: 0, turnOwner: 0)
        #expect(answer5 == .deliver(wasUnlimited: false))
        #expect(state.demand == .max(1))
        let answer6 = state.delivered(.none, index: 0, generation: 0, wasUnlimited: false, nested: false)
        #expect(answer6 == .max(1))
        let answer7 = state.arrive(index: 0, generation: 0, turnOwner: 0)
        #expect(answer7 == .deliver(wasUnlimited: false))
        // Demand used up: nothing more is asked.
        let answer8 = state.delivered(.none, index: 0, generation: 0, wasUnlimited: false, nested: false)
        #expect(answer8 == .none)
        #expect(state.children[0].requested == false)
    }

    @Test func aNestedDeliveryLeavesTheAskingToTheOuterDrain() {
        var (state, _) = merge(1)
        state.request(.max(3))
        _ = state.next()
        _ = state.arrive(index: 0, generation: 0, turnOwner: 0)
        let answer9 = state.delivered(.none, index: 0, generation: 0, wasUnlimited: false, nested: true)
        #expect(answer9 == .none)
        #expect(state.children[0].requested == false)
    }

    @Test func valuesWithoutDemandWaitAndGoOutInArrivalOrderOnRequest() {
        var (state, subscriptions) = merge(2)
        state.request(.max(2))
        _ = state.next()
        let answer10 = state.arrive(index: 0, generation: 0, turnOwner: 0)
        #expect(answer10 == .deliver(wasUnlimited: false))
        _ = state.delivered(.none, index: 0, generation: 0, wasUnlimited: false, nested: false)
        let answer11 = state.arrive(index: 1, generation: 0, turnOwner: 0)
        #expect(answer11 == .deliver(wasUnlimited: false))
        _ = state.delivered(.none, index: 1, generation: 0, wasUnlimited: false, nested: false)
        // No demand: both wait (a subject ignores demand).
        let answer12 = state.arrive(index: 1, generation: 0, turnOwner: 0)
        #expect(answer12 == .queue)
        let answer13 = state.arrive(index: 0, generation: 0, turnOwner: 0)
        #expect(answer13 == .queue)
        #expect(state.queued == 2)
        state.request(.max(1))
        guard case .deliver(from: nil) = state.next() else {
            Issue.record("the first queued value is not due")
            return
        }
        let answer14 = state.deliveredQueued(.none, from: nil)
        #expect(answer14 == nil)
        // The second still waits; a new value queues behind it even with demand.
        let step6 = state.next()
        #expect(demands(step6, to: []) == [])
        state.request(.max(5))
        let answer15 = state.arrive(index: 0, generation: 0, turnOwner: 0)
        #expect(answer15 == .queue)
        guard case .deliver = state.next(), case .deliver = state.next() else {
            Issue.record("the queued values are not due")
            return
        }
        #expect(state.queued == 0)
        // Then the idle children are asked again.
        let step7 = state.next()
        #expect(demands(step7, to: subscriptions) == [.max(1), .max(1)])
    }

    @Test func aMergeFinishesWhenEveryChildFinishedAndNothingWaits() {
        var (state, _) = merge(2)
        state.request(.max(1))
        _ = state.next()
        _ = state.arrive(index: 0, generation: 0, turnOwner: 0)
        _ = state.delivered(.none, index: 0, generation: 0, wasUnlimited: false, nested: false)
        let answer16 = state.arrive(index: 1, generation: 0, turnOwner: 0)
        #expect(answer16 == .queue)
        guard case .drain(refill: nil) = state.childCompleted(index: 0, generation: 0, failing: false),
            case .drain(refill: nil) = state.childCompleted(index: 1, generation: 0, failing: false)
        else {
            Issue.record("a completion does not drain")
            return
        }
        // A second completion, or a value after it, from the same child is ignored.
        guard case .ignore = state.childCompleted(index: 1, generation: 0, failing: false) else {
            Issue.record("a second completion is not ignored")
            return
        }
        let answer17 = state.arrive(index: 1, generation: 0, turnOwner: 0)
        #expect(answer17 == .drop)
        // One value still waits for demand.
        guard case .idle = state.next() else {
            Issue.record("finished with a value waiting")
            return
        }
        state.request(.max(1))
        guard case .deliver = state.next(), case .finish = state.next() else {
            Issue.record("the waiting value, then the completion, are not due")
            return
        }
        var empty = MergeState(merging: 0)
        guard case .finish = empty.next() else {
            Issue.record("a merge of nothing does not finish at once")
            return
        }
    }

    @Test func theFirstFailureFailsAndLaterOnesOnlyDrain() {
        var (state, _) = merge(3)
        guard case .fail = state.childCompleted(index: 0, generation: 0, failing: true),
            case .drain(refill: nil) = state.childCompleted(index: 1, generation: 0, failing: true)
        else {
            Issue.record("the failures are not told apart")
            return
        }
        #expect(state.failed)
        // Not asking a child from inside the drain: the drain delivers it.
        #expect(state.failsNowWhileAsking(turnOwner: currentThreadID()) == false)
    }

    @Test func terminationHandsOutTheOuterUpstreamFirstThenTheChildren() {
        var state = MergeState(flatMapWithBoundedOuter: false)
        let outer = RecordingSubscription()
        let answer18 = state.acceptOuter(outer)
        #expect(answer18)
        let children = [RecordingSubscription(), RecordingSubscription()]
        for child in children {
            guard let (index, generation) = state.addChild() else {
                Issue.record("no slot for a child")
                return
            }
            let answer19 = state.attach(child, index: index, generation: generation)
            #expect(answer19 == .request(.max(1)))
        }
        _ = state.arrive(index: 1, generation: 0, turnOwner: 0)
        let (cancel, release) = state.terminate()
        #expect(cancel.map(\.combineIdentifier) == ([outer] + children).map(\.combineIdentifier))
        #expect(release.count == 2)
        #expect(state.terminated && state.queued == 0 && state.queuedFrom.isEmpty)
        // Everything after it is dropped or cancelled.
        let late = RecordingSubscription()
        let answer20 = state.attach(late, index: 0, generation: 0)
        #expect(answer20 == .cancel)
        let answer21 = state.arrive(index: 0, generation: 0, turnOwner: 0)
        #expect(answer21 == .drop)
        let answer22 = state.addChild()
        #expect(answer22 == nil)
        let answer23 = state.acceptOuter(late)
        #expect(answer23 == false)
        guard case .ignore = state.outerCompleted(failing: true) else {
            Issue.record("a completion after termination is not ignored")
            return
        }
        let answer24 = state.terminate()
        #expect(answer24.cancel.isEmpty)
    }

    // MARK: flatMap

    @Test func flatMapReusesAFinishedChildsSlotUnderANewGeneration() {
        var state = MergeState(flatMapWithBoundedOuter: true)
        let outer = RecordingSubscription()
        let answer25 = state.acceptOuter(outer)
        #expect(answer25)
        let answer26 = state.acceptOuter(RecordingSubscription())
        #expect(answer26 == false)
        let first = state.addChild()
        let second = state.addChild()
        #expect(first?.index == 0 && first?.generation == 0)
        #expect(second?.index == 1 && second?.generation == 0)
        // A bounded outer upstream is asked for one more per finished child.
        guard case .drain(let refill) = state.childCompleted(index: 0, generation: 0, failing: false) else {
            Issue.record("a finished child does not drain")
            return
        }
        #expect(refill as? RecordingSubscription === outer)
        let third = state.addChild()
        #expect(third?.index == 0 && third?.generation == 1)
        #expect(state.active == 2)
        // The old child's late events are kept out.
        let answer27 = state.attach(RecordingSubscription(), index: 0, generation: 0)
        #expect(answer27 == .cancel)
        let answer28 = state.arrive(index: 0, generation: 0, turnOwner: 0)
        #expect(answer28 == .drop)
        // Not finished while a child runs, nor while the outer upstream does.
        guard case .idle = state.next() else {
            Issue.record("finished early")
            return
        }
        _ = state.childCompleted(index: 0, generation: 1, failing: false)
        _ = state.childCompleted(index: 1, generation: 0, failing: false)
        guard case .idle = state.next(), case .drain(refill: nil) = state.outerCompleted(failing: false),
            case .finish = state.next()
        else {
            Issue.record("does not finish after the outer upstream")
            return
        }
    }

    @Test func flatMapAsksANewChildAtOnceAndAgainAfterEachElementDemandOrNot() {
        var state = MergeState(flatMapWithBoundedOuter: false)
        let answer29 = state.acceptOuter(RecordingSubscription())
        #expect(answer29)
        let child = RecordingSubscription()
        guard let (index, generation) = state.addChild() else {
            Issue.record("no slot for a child")
            return
        }
        let answer30 = state.attach(child, index: index, generation: generation)
        #expect(answer30 == .request(.max(1)))
        // No demand: the element waits, noting its child.
        let answer31 = state.arrive(index: index, generation: generation, turnOwner: 0)
        #expect(answer31 == .queue)
        #expect(state.children[index].requested == false)
        state.request(.max(1))
        guard case .deliver(let from) = state.next() else {
            Issue.record("the queued element is not due")
            return
        }
        #expect(from?.index == index && from?.generation == generation)
        // Its child is asked for the next one at once, though no demand is left.
        let answer32 = state.deliveredQueued(.none, from: from)
        #expect(answer32 as? RecordingSubscription === child)
        #expect(state.askingChild && state.children[index].requested)
        // An element it sends from inside that request waits, even with demand.
        state.request(.max(1))
        let answer33 = state.arrive(index: index, generation: generation, turnOwner: currentThreadID())
        #expect(answer33 == .queue)
        state.askedChild()
        #expect(state.askingChild == false)
        // A delivered element asks its child again, demand or not.
        guard case .deliver(let again) = state.next() else {
            Issue.record("the second element is not due")
            return
        }
        _ = state.deliveredQueued(.none, from: again)
        state.askedChild()
        let answer34 = state.arrive(index: index, generation: generation, turnOwner: 0)
        #expect(answer34 == .queue)
        state.request(.max(1))
        _ = state.next()
        let answer35 = state.deliveredQueued(.none, from: again)
        #expect(answer35 as? RecordingSubscription === child)
        state.askedChild()
        state.request(.max(2))
        let answer36 = state.arrive(index: index, generation: generation, turnOwner: 0)
        #expect(answer36 == .deliver(wasUnlimited: false))
        let answer37 = state.delivered(.none, index: index, generation: generation, wasUnlimited: false, nested: true)
        #expect(answer37 == .max(1))
        let answer38 = state.arrive(index: index, generation: generation, turnOwner: 0)
        #expect(answer38 == .deliver(wasUnlimited: false))
        #expect(state.demand == .none)
        let answer39 = state.delivered(.none, index: index, generation: generation, wasUnlimited: false, nested: false)
        #expect(answer39 == .max(1))
    }

    @Test func flatMapDeliversAFailureAtOnceOnTheThreadAskingAChild() {
        var state = MergeState(flatMapWithBoundedOuter: true)
        let answer40 = state.acceptOuter(RecordingSubscription())
        #expect(answer40)
        guard let (index, generation) = state.addChild() else {
            Issue.record("no slot for a child")
            return
        }
        _ = state.attach(RecordingSubscription(), index: index, generation: generation)
        _ = state.arrive(index: index, generation: generation, turnOwner: 0)
        state.request(.max(1))
        guard case .deliver(let from) = state.next() else {
            Issue.record("the queued element is not due")
            return
        }
        _ = state.deliveredQueued(.none, from: from)
        guard case .fail = state.outerCompleted(failing: true) else {
            Issue.record("the outer upstream's failure does not fail")
            return
        }
        #expect(state.failsNowWhileAsking(turnOwner: currentThreadID()))
        // Another thread's turn: the drain delivers it.
        #expect(state.failsNowWhileAsking(turnOwner: currentThreadID() &+ 1) == false)
        // No new children once failing.
        let answer41 = state.addChild()
        #expect(answer41 == nil)
    }
}
