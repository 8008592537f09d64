@testable import Ripple
@testable import RippleCore
import Testing

/// drop(untilOutputFrom:)'s and prefix(untilOutputFrom:)'s bookkeeping as a value: what each
/// trigger and upstream event, request and cancel makes due — no threads, no locks, no publishers.
@Suite struct UntilOutputStateTests {
    typealias Downstream = Recorder<Int, TestError>
    typealias State = UntilOutputState<Downstream>

    @Test func theTriggerIsAcceptedOnceAndFiresOnce() {
        var state = State(downstream: Downstream())
        let trigger = RecordingSubscription()
        let answer1 = state.acceptTrigger(trigger)
        #expect(answer1)
        let answer2 = state.acceptTrigger(RecordingSubscription())
        #expect(!answer2)
        guard case .fired(let cancelling, handedDown: false) = state.fire() else { Issue.record("fired"); return }
        #expect(same(cancelling, trigger))
        guard case .ignore = state.fire() else { Issue.record("only once"); return }
        let answer3 = state.triggerCompleted()
        #expect(answer3)
    }

    @Test func aTriggerThatEndedCannotFire() {
        var state = State(downstream: Downstream())
        let answer4 = state.triggerCompleted()
        #expect(!answer4)
        guard case .ignore = state.fire() else { Issue.record("ended"); return }
    }

    @Test func dropKeepsDemandAskedBeforeTheUpstreamSubscribed() {
        var state = State(downstream: Downstream())
        #expect(state.dropArrival() == .broken)
        let answer5 = state.dropRequest(.max(2))
        #expect(answer5 == nil)
        let answer6 = state.dropRequest(.max(1))
        #expect(answer6 == nil)
        let upstream = RecordingSubscription()
        guard case .keep(requesting: .max(3)) = state.acceptDropUpstream(upstream) else { Issue.record("keep"); return }
        guard case .cancel = state.acceptDropUpstream(RecordingSubscription()) else { Issue.record("once"); return }
        let answer7 = state.dropRequest(.max(1))
        #expect(same(answer7, upstream))
    }

    @Test func dropDeliversOnlyOnceTheTriggerFired() {
        var state = State(downstream: Downstream())
        _ = state.acceptDropUpstream(RecordingSubscription())
        #expect(state.dropArrival() == .drop)
        _ = state.fire()
        #expect(state.dropArrival() == .deliver)
    }

    @Test func prefixHandsDownItsSubscriptionOrFinishesIfTheTriggerFiredFirst() {
        var state = State(downstream: Downstream())
        guard case .handDown = state.acceptPrefixUpstream(RecordingSubscription()) else { Issue.record("hand down"); return }
        guard case .fired(_, handedDown: true) = state.fire() else { Issue.record("fired after"); return }

        var early = State(downstream: Downstream())
        guard case .fired(_, handedDown: false) = early.fire() else { Issue.record("fired before"); return }
        guard case .handDownAndFinish = early.acceptPrefixUpstream(RecordingSubscription()) else {
            Issue.record("finish on arrival"); return
        }
        #expect(!early.isActive)
        #expect(early.upstreamSubscription == nil)
    }

    @Test func theStreamEndsOnceAndTakesBothSubscriptionsOut() {
        var state = State(downstream: Downstream())
        let trigger = RecordingSubscription()
        let upstream = RecordingSubscription()
        _ = state.acceptTrigger(trigger)
        _ = state.acceptDropUpstream(upstream)
        let teardown = state.end()
        #expect(same(teardown?.upstream, upstream))
        #expect(same(teardown?.trigger, trigger))
        let answer8 = state.end()
        #expect(answer8 == nil)
        #expect(!state.isActive)
        guard case .ignore = state.fire() else { Issue.record("ended"); return }
        #expect(state.dropArrival() == .drop)
    }

    @Test func cancelTakesEverythingOutOfTheState() {
        var state = State(downstream: Downstream())
        _ = state.acceptTrigger(RecordingSubscription())
        let (upstream, trigger, released) = state.cancel()
        #expect(upstream == nil)  // not subscribed yet
        #expect(trigger != nil)
        #expect(released != nil)
        let answer9 = state.acceptTrigger(RecordingSubscription())
        #expect(!answer9)
        guard case .cancel = state.acceptDropUpstream(RecordingSubscription()) else { Issue.record("cancelled"); return }
    }
}

/// Whether `subscription` is `expected` (subscriptions are not class-bound: compared by identifier).
private func same(_ subscription: (any Subscription)?, _ expected: RecordingSubscription) -> Bool {
    subscription?.combineIdentifier == expected.combineIdentifier
}
