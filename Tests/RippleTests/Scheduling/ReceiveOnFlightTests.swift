@testable import RippleCore
import Testing

/// `ReceiveOnFlight`, `receive(on:)`'s count of values in flight, row by row as a value.
@Suite struct ReceiveOnFlightTests {
    typealias Flight = ReceiveOnFlight
    let here: UInt = 1
    let there: UInt = 2

    @Test func aCompletionWithNothingInFlightIsDeliveredAtOnce() {
        var flight = Flight()
        let r1 = flight.completionArrived(on: here)
        #expect(r1)
        flight.valueScheduled()
        flight.valueStarted(on: here)
        let r2 = flight.valueReturned(on: here)
        #expect(!r2)
        let r3 = flight.completionArrived(on: here)
        #expect(r3)
    }

    @Test func aCompletionIsHeldBehindAValueNotStartedYetAndGivenToItsBlock() {
        var flight = Flight()
        flight.valueScheduled()
        let r4 = flight.completionArrived(on: here)
        #expect(!r4)
        flight.valueStarted(on: there)
        let r5 = flight.valueReturned(on: there)
        #expect(r5)
    }

    @Test func aCompletionIsHeldBehindAValueRunningOnAnotherThreadUntilTheLastReturns() {
        var flight = Flight()
        flight.valueScheduled()
        flight.valueScheduled()
        flight.valueStarted(on: there)
        flight.valueStarted(on: here)
        let r6 = flight.completionArrived(on: 3)
        #expect(!r6)
        let r7 = flight.valueReturned(on: here)
        #expect(!r7)
        let r8 = flight.valueReturned(on: there)
        #expect(r8)
    }

    @Test func aCompletionSentFromInsideValuesOnItsOwnThreadIsDeliveredNested() {
        var flight = Flight()
        flight.valueScheduled()
        flight.valueStarted(on: here)
        flight.valueScheduled()
        flight.valueStarted(on: here)  // nested, as on ImmediateScheduler
        let r9 = flight.completionArrived(on: here)
        #expect(r9)
        let r10 = flight.valueReturned(on: here)
        #expect(!r10)
        let r11 = flight.valueReturned(on: here)
        #expect(!r11)
    }

    @Test func aNestedCompletionStillWaitsForValuesOnOtherThreads() {
        var flight = Flight()
        flight.valueScheduled()
        flight.valueStarted(on: there)
        flight.valueScheduled()
        flight.valueStarted(on: here)
        let r12 = flight.completionArrived(on: here)
        #expect(!r12)
        let r13 = flight.valueReturned(on: there)  // this thread's value is still inside
        #expect(!r13)
        let r14 = flight.valueReturned(on: here)
        #expect(r14)
    }
}
