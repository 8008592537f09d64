@testable import Ripple
@testable import RippleCore
import Testing

/// The serial-delivery state machine as a value: which thread calls, who waits, who is handed the
/// turn — no threads, no locks.
@Suite struct DeliveryTurnTests {
    @Test func aFreeTurnIsTakenAndGivenBack() {
        var turn = DeliveryTurn()
        guard case .call(nested: false) = turn.enter(1, name: "X") else {
            Issue.record("expected an outermost call")
            return
        }
        #expect(turn.owner == 1)
        #expect(turn.leave() == .idle)
        #expect(turn.owner == 0)
        #expect(!turn.isHeld)
    }

    @Test func theHolderReEnteringIsNestedAndDoesNotGiveTheTurnBack() {
        var turn = DeliveryTurn()
        _ = turn.enter(1, name: "X")
        guard case .call(nested: true) = turn.enter(1, name: "X") else {
            Issue.record("expected a nested call")
            return
        }
        #expect(turn.owner == 1)
        #expect(turn.queue == nil)  // no allocation without contention
    }

    @Test func otherThreadsWaitAndAreHandedTheTurnInArrivalOrder() {
        var turn = DeliveryTurn()
        _ = turn.enter(1, name: "X")
        guard case .wait(let second) = turn.enter(2, name: "X"),
            case .wait(let third) = turn.enter(3, name: "X")
        else {
            Issue.record("expected two waiters")
            return
        }
        #expect(second.thread == 2 && third.thread == 3)
        #expect(turn.queue?.owner.load(ordering: .relaxed) == 1)
        #expect(turn.hasWaiters)

        #expect(turn.leave() == .handOff(second))
        #expect(turn.owner == 2)
        #expect(turn.queue?.owner.load(ordering: .relaxed) == 2)

        // A thread arriving now queues behind the earlier waiter.
        guard case .wait(let fourth) = turn.enter(4, name: "X") else {
            Issue.record("expected a waiter")
            return
        }
        #expect(turn.leave() == .handOff(third))
        #expect(turn.leave() == .handOff(fourth))
        #expect(turn.leave() == .idle)
        #expect(turn.owner == 0)
        #expect(turn.queue?.owner.load(ordering: .relaxed) == 0)
        #expect(!turn.hasWaiters)
    }

    @Test func theQueueNamesWhatItDeliversTo() {
        var turn = DeliveryTurn()
        _ = turn.enter(1, name: "Merge")
        _ = turn.enter(2, name: "Merge")
        #expect(turn.queue?.name == "Merge")
    }
}
