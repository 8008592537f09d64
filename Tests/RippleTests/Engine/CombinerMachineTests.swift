@testable import Ripple
import Testing

/// combineLatest's and zip's bookkeeping as values: what each value, request and completion makes
/// due — no threads, no locks, no subscribers.
@Suite struct CombinerMachineTests {
    // MARK: combineLatest

    @Test func combineLatestGivesAFirstValueItsDemandBackUntilEveryUpstreamHasOne() {
        var machine = CombineLatestMachine(count: 2)
        machine.demand = .max(3)
        do {
            let result = machine.receive(from: 0)
            #expect(result == .giveBack)
        }
        // A second value from the same upstream still cannot make a tuple, and is not its first.
        do {
            let result = machine.receive(from: 0)
            #expect(result == .hold)
        }
        #expect(machine.demand == .max(3))
        do {
            let result = machine.receive(from: 1)
            #expect(result == .emit)
        }
        #expect(machine.demand == .max(2))
    }

    @Test func combineLatestWithUnlimitedDemandGivesNothingBack() {
        var machine = CombineLatestMachine(count: 2)
        machine.demand = .unlimited
        do {
            let result = machine.receive(from: 0)
            #expect(result == .hold)
        }
        do {
            let result = machine.receive(from: 1)
            #expect(result == .emit)
        }
        #expect(machine.demand == .unlimited)
    }

    @Test func combineLatestEmitsEveryValueWhileThereIsDemandAndKeepsTheNewestBeyondIt() {
        var machine = CombineLatestMachine(count: 2)
        machine.demand = .max(2)
        _ = machine.receive(from: 0)
        do {
            let result = machine.receive(from: 1)
            #expect(result == .emit)
        }
        do {
            let result = machine.receive(from: 0)
            #expect(result == .emit)
        }
        #expect(machine.demand == .none)
        // Beyond the demand: held; one tuple (the newest) is due on the next request.
        do {
            let result = machine.receive(from: 1)
            #expect(result == .hold)
        }
        do {
            let result = machine.receive(from: 0)
            #expect(result == .hold)
        }
        do {
            let result = machine.next()
            #expect(result == .idle)
        }
        machine.demand += .max(5)
        do {
            let result = machine.next()
            #expect(result == .emit)
        }
        do {
            let result = machine.next()
            #expect(result == .idle)
        }
        #expect(machine.demand == .max(4))
    }

    @Test func combineLatestFinishesOnceEveryUpstreamFinishedAndNoTupleWaits() {
        var machine = CombineLatestMachine(count: 2)
        _ = machine.receive(from: 0)
        _ = machine.receive(from: 1)  // no demand: the tuple waits
        do {
            let result = machine.finish(0)
            #expect(result)
        }
        do {
            let result = machine.finish(0)
            #expect(!result)  // once only
        }
        #expect(machine.isFinished(0) && !machine.isFinished(1))
        do {
            let result = machine.finish(1)
            #expect(result)
        }
        do {
            let result = machine.next()
            #expect(result == .idle)  // the waiting tuple goes first
        }
        machine.demand = .max(1)
        do {
            let result = machine.next()
            #expect(result == .emit)
        }
        do {
            let result = machine.next()
            #expect(result == .finish)
        }
    }

    @Test func combineLatestFinishesWithoutATupleWhenAnUpstreamNeverSentOne() {
        var machine = CombineLatestMachine(count: 2)
        machine.demand = .max(1)
        _ = machine.receive(from: 0)
        _ = machine.finish(1)
        do {
            let result = machine.next()
            #expect(result == .idle)
        }
        _ = machine.finish(0)
        do {
            let result = machine.next()
            #expect(result == .finish)
        }
    }

    // MARK: zip

    @Test func zipPairsTheNthValuesAndChargesOneDemandPerTuple() {
        var machine = ZipMachine(count: 3)
        machine.demand = .max(1)
        do {
            let result = machine.receive(from: 0)
            #expect(result == .hold)
        }
        do {
            let result = machine.receive(from: 0)
            #expect(result == .hold)
        }
        do {
            let result = machine.receive(from: 1)
            #expect(result == .hold)
        }
        do {
            let result = machine.receive(from: 2)
            #expect(result == .emit)
        }
        #expect(machine.counts == [1, 0, 0])
        #expect(machine.demand == .none)
        // Complete but without demand: queued until a request.
        _ = machine.receive(from: 1)
        do {
            let result = machine.receive(from: 2)
            #expect(result == .hold)
        }
        do {
            let result = machine.next()
            #expect(result == .idle)
        }
        machine.demand += .max(1)
        do {
            let result = machine.next()
            #expect(result == .emit)
        }
        #expect(machine.counts == [0, 0, 0])
        do {
            let result = machine.next()
            #expect(result == .idle)
        }
    }

    @Test func zipNeverGivesDemandBack() {
        var machine = ZipMachine(count: 2)
        machine.demand = .max(1)
        do {
            let result = machine.receive(from: 0)
            #expect(result == .hold)
        }
        do {
            let result = machine.receive(from: 0)
            #expect(result == .hold)
        }
    }

    @Test func zipFinishesAsSoonAsAFinishedUpstreamHasNothingLeftToPair() {
        var machine = ZipMachine(count: 2)
        _ = machine.receive(from: 0)
        _ = machine.receive(from: 1)
        do {
            let result = machine.finish(0)
            #expect(result)
        }
        do {
            let result = machine.finish(0)
            #expect(!result)
        }
        // Upstream 0 finished, but its value still pairs with the one queued from upstream 1.
        do {
            let result = machine.next()
            #expect(result == .idle)
        }
        machine.demand = .max(1)
        do {
            let result = machine.next()
            #expect(result == .emit)
        }
        do {
            let result = machine.next()
            #expect(result == .finish)
        }
    }

    @Test func zipWithAFinishedUpstreamThatStillHasValuesWaitsForThem() {
        var machine = ZipMachine(count: 2)
        _ = machine.receive(from: 1)
        _ = machine.finish(1)
        do {
            let result = machine.next()
            #expect(result == .idle)
        }
        machine.demand = .unlimited
        do {
            let result = machine.receive(from: 0)
            #expect(result == .emit)
        }
        do {
            let result = machine.next()
            #expect(result == .finish)
        }
    }

    @Test func theMachinesPolicies() {
        #expect(!CombineLatestMachine.keepsAll && ZipMachine.keepsAll)
        #expect(!CombineLatestMachine.returnsDemandToSender && ZipMachine.returnsDemandToSender)
        #expect(!CombineLatestMachine.completesBeforeCancelling && ZipMachine.completesBeforeCancelling)
    }
}
