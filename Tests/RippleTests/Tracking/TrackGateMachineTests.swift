@testable import RippleCore
import Testing

/// `TrackGateMachine`, `track`'s callback gate, row by row as a value.
@Suite struct TrackGateMachineTests {
    let canceller: UInt = 1
    let writer: UInt = 2
    let otherWriter: UInt = 3

    private func waits(_ closing: TrackGateMachine.Closing) -> TurnWaiter? {
        closing.waiter
    }

    private func newGate() -> TrackGateMachine {
        TrackGateMachine { _ in }
    }

    @Test func anOpenGateAdmitsAndAClosedOneRefuses() {
        var gate = newGate()
        let r1 = gate.enter(writer)
        #expect(r1 != nil)
        let r2 = gate.leave(writer)
        #expect(r2 == nil)
        let r3 = waits(gate.cancel(canceller))  // nothing under way: no wait
        #expect(r3 == nil)
        let r4 = gate.enter(writer)
        #expect(r4 == nil)
    }

    @Test func aCancelWaitsForEveryCallOnOtherThreadsAndTheLastOneWakesIt() {
        var gate = newGate()
        let r5 = gate.enter(writer)
        #expect(r5 != nil)
        let r6 = gate.enter(otherWriter)
        #expect(r6 != nil)
        let waiter = waits(gate.cancel(canceller))
        #expect(waiter != nil)
        #expect(waiter?.thread == canceller)
        #expect(waiter?.queue.owner.load(ordering: .relaxed) == writer)
        let r7 = gate.enter(writer)  // closed: no call starts while the cancel waits
        #expect(r7 == nil)
        let r8 = gate.leave(writer)
        #expect(r8 == nil)
        #expect(waiter?.queue.owner.load(ordering: .relaxed) == otherWriter)
        let r9 = gate.leave(otherWriter)
        #expect(r9 === waiter)
    }

    @Test func aCancelFromInsideTheCallbackDoesNotWait() {
        var gate = newGate()
        let r10 = gate.enter(writer)
        #expect(r10 != nil)
        let r11 = gate.enter(canceller)
        #expect(r11 != nil)
        let r12 = waits(gate.cancel(canceller))
        #expect(r12 == nil)
        let r13 = gate.leave(writer)
        #expect(r13 == nil)
        let r14 = gate.leave(canceller)
        #expect(r14 == nil)
    }

    @Test func onlyTheFirstCancelDoesAnythingAndItHandsBackTheCallbackToRelease() {
        var gate = newGate()
        let admitted = gate.enter(writer)
        #expect(admitted != nil)
        let first = gate.cancel(canceller)
        #expect(first.released != nil)
        #expect(first.waiter != nil)
        let second = gate.cancel(otherWriter)
        #expect(second.released == nil)
        #expect(second.waiter == nil)
        let woken = gate.leave(writer)
        #expect(woken === first.waiter)
    }
}
