@testable import RippleCore
import Testing

/// `TrackGateMachine`, `track`'s callback gate, row by row as a value.
@Suite struct TrackGateMachineTests {
    let canceller: UInt = 1
    let writer: UInt = 2
    let otherWriter: UInt = 3

    private func waits(_ outcome: TrackGateMachine.CancelOutcome) -> TurnWaiter? {
        if case .wait(let waiter) = outcome { return waiter }
        return nil
    }

    @Test func anOpenGateAdmitsAndAClosedOneRefuses() {
        var gate = TrackGateMachine()
        let r1 = gate.enter(writer)
        #expect(r1)
        let r2 = gate.leave(writer)
        #expect(r2 == nil)
        let r3 = waits(gate.cancel(canceller))  // nothing under way: no wait
        #expect(r3 == nil)
        let r4 = gate.enter(writer)
        #expect(!r4)
    }

    @Test func aCancelWaitsForEveryCallOnOtherThreadsAndTheLastOneWakesIt() {
        var gate = TrackGateMachine()
        let r5 = gate.enter(writer)
        #expect(r5)
        let r6 = gate.enter(otherWriter)
        #expect(r6)
        let waiter = waits(gate.cancel(canceller))
        #expect(waiter != nil)
        #expect(waiter?.thread == canceller)
        #expect(waiter?.queue.owner.load(ordering: .relaxed) == writer)
        let r7 = gate.enter(writer)  // closed: no call starts while the cancel waits
        #expect(!r7)
        let r8 = gate.leave(writer)
        #expect(r8 == nil)
        #expect(waiter?.queue.owner.load(ordering: .relaxed) == otherWriter)
        let r9 = gate.leave(otherWriter)
        #expect(r9 === waiter)
    }

    @Test func aCancelFromInsideTheCallbackDoesNotWait() {
        var gate = TrackGateMachine()
        let r10 = gate.enter(writer)
        #expect(r10)
        let r11 = gate.enter(canceller)
        #expect(r11)
        let r12 = waits(gate.cancel(canceller))
        #expect(r12 == nil)
        let r13 = gate.leave(writer)
        #expect(r13 == nil)
        let r14 = gate.leave(canceller)
        #expect(r14 == nil)
    }

    @Test func onlyTheFirstCancelDoesAnything() {
        var gate = TrackGateMachine()
        let r15 = gate.enter(writer)
        #expect(r15)
        let waiter = waits(gate.cancel(canceller))
        #expect(waiter != nil)
        let r16 = waits(gate.cancel(otherWriter))
        #expect(r16 == nil)
        let r17 = gate.leave(writer)
        #expect(r17 === waiter)
    }
}
