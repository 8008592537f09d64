@testable import Ripple
@testable import RippleCore
import Testing

/// combineLatest's and zip's bookkeeping as values: what each value, request and completion makes
/// due — no threads, no locks, no subscribers.
@Suite struct CombinerMachineTests {
    // MARK: combineLatest

    // Combine's rule (OpenCombine CombineLatestTests.testChildDemand, recorded against Combine):
    // nothing is given back, not even for a first value that cannot make a tuple yet.
    @Test func combineLatestGivesNothingBackUntilEveryUpstreamHasOne() {
        var machine = CombineLatestMachine(count: 2)
        machine.demand = .max(3)
        let arrivals = [0, 0, 1].map { machine.receive(from: $0) }
        #expect(arrivals == [.hold, .hold, .emit])
        #expect(machine.demand == .max(2))
    }

    @Test func combineLatestWithUnlimitedDemandGivesNothingBack() {
        var machine = CombineLatestMachine(count: 2)
        machine.demand = .unlimited
        let arrivals = [0, 1].map { machine.receive(from: $0) }
        #expect(arrivals == [.hold, .emit])
        #expect(machine.demand == .unlimited)
    }

    // Combine's rule (OpenCombine CombineLatestTests.testUpstreamExceedsDemand): a value beyond the
    // demand only replaces the latest; a later request makes no tuple due.
    @Test func combineLatestEmitsEveryValueWhileThereIsDemandAndKeepsNoTupleBeyondIt() {
        var machine = CombineLatestMachine(count: 2)
        machine.demand = .max(2)
        let arrivals = [0, 1, 0, 1, 0].map { machine.receive(from: $0) }
        #expect(arrivals == [.hold, .emit, .emit, .hold, .hold])
        machine.demand += .max(5)
        #expect(machine.next() == .idle)
        #expect(machine.receive(from: 1) == .emit)
        #expect(machine.demand == .max(4))
    }

    @Test func combineLatestFinishesOnceEveryUpstreamFinished() {
        var machine = CombineLatestMachine(count: 2)
        _ = [0, 1].map { machine.receive(from: $0) }  // no demand: no tuple is kept
        let finishes = [0, 0, 1].map { machine.finish($0) }
        #expect(finishes == [true, false, true])  // once per upstream
        #expect(machine.isFinished(0) && machine.isFinished(1))
        #expect(machine.next() == .finish)
    }

    @Test func combineLatestFinishesWithoutATupleWhenAnUpstreamNeverSentOne() {
        var machine = CombineLatestMachine(count: 2)
        machine.demand = .max(1)
        _ = machine.receive(from: 0)
        _ = machine.finish(1)
        let oneFinished = machine.next()
        _ = machine.finish(0)
        let bothFinished = machine.next()
        #expect(oneFinished == .idle)
        #expect(bothFinished == .finish)
    }

    // MARK: zip

    @Test func zipPairsTheNthValuesAndChargesOneDemandPerTuple() {
        var machine = ZipMachine(count: 3)
        machine.demand = .max(1)
        let arrivals = [0, 0, 1, 2].map { machine.receive(from: $0) }
        #expect(arrivals == [.hold, .hold, .hold, .emit])
        #expect(machine.counts == [1, 0, 0])
        #expect(machine.demand == .none)
        // Complete but without demand: queued until a request.
        let moreArrivals = [1, 2].map { machine.receive(from: $0) }
        let beforeRequest = machine.next()
        machine.demand += .max(1)
        let afterRequest = [machine.next(), machine.next()]
        #expect(moreArrivals == [.hold, .hold])
        #expect(beforeRequest == .idle)
        #expect(afterRequest == [.emit, .idle])
        #expect(machine.counts == [0, 0, 0])
    }

    @Test func zipNeverGivesDemandBack() {
        var machine = ZipMachine(count: 2)
        machine.demand = .max(1)
        let arrivals = [0, 0].map { machine.receive(from: $0) }
        #expect(arrivals == [.hold, .hold])
    }

    @Test func zipFinishesAsSoonAsAFinishedUpstreamHasNothingLeftToPair() {
        var machine = ZipMachine(count: 2)
        _ = [0, 1].map { machine.receive(from: $0) }
        let finishes = [0, 0].map { machine.finish($0) }
        // Upstream 0 finished, but its value still pairs with the one queued from upstream 1.
        let beforeRequest = machine.next()
        machine.demand = .max(1)
        let afterRequest = [machine.next(), machine.next()]
        #expect(finishes == [true, false])
        #expect(beforeRequest == .idle)
        #expect(afterRequest == [.emit, .finish])
    }

    @Test func zipWithAFinishedUpstreamThatStillHasValuesWaitsForThem() {
        var machine = ZipMachine(count: 2)
        _ = machine.receive(from: 1)
        _ = machine.finish(1)
        let waiting = machine.next()
        machine.demand = .unlimited
        let arrival = machine.receive(from: 0)
        let afterwards = machine.next()
        #expect(waiting == .idle)
        #expect(arrival == .emit)
        #expect(afterwards == .finish)
    }

    // Combine's zip: the demand the downstream returns for a tuple goes to the upstream whose value
    // completed it (as the return of its receive(_:)) and is asked of every other upstream; demand
    // requested from inside the delivery reached the others at the request, and the sender gets it
    // as its return when nothing was returned (CombineX's ZipSpec "should send as many as demands"; OpenCombine's
    // ZipTests.testDownstreamDemandRequestedWhileSendingValue).
    @Test func zipRoutesReturnedDemandToTheSenderAndTheOthers() {
        #expect(ZipMachine.route(returned: .max(3), requestedDuringDelivery: .none)
            == DemandRoute(toSender: .max(3), toOthers: .max(3)))
        #expect(ZipMachine.route(returned: .none, requestedDuringDelivery: .max(2))
            == DemandRoute(toSender: .max(2), toOthers: .none))
        // Both: the sender gets what was returned (as OpenCombine's zip does; no Apple-recorded
        // test covers this combination).
        #expect(ZipMachine.route(returned: .max(1), requestedDuringDelivery: .max(2))
            == DemandRoute(toSender: .max(1), toOthers: .max(1)))
        #expect(ZipMachine.route(returned: .none, requestedDuringDelivery: .none)
            == DemandRoute(toSender: .none, toOthers: .none))
    }

    @Test func combineLatestAsksEveryUpstreamForReturnedDemand() {
        #expect(CombineLatestMachine.route(returned: .max(3), requestedDuringDelivery: .none)
            == DemandRoute(toSender: .none, toOthers: .max(3)))
    }

    @Test func theMachinesPolicies() {
        #expect(!CombineLatestMachine.keepsAll && ZipMachine.keepsAll)
        #expect(!CombineLatestMachine.returnsDemandToSender && ZipMachine.returnsDemandToSender)
        #expect(!CombineLatestMachine.completesBeforeCancelling && ZipMachine.completesBeforeCancelling)
    }

    // MARK: The links (subscriptions, zip's hand-off and delivery bookkeeping)

    /// Which of `subscriptions` are the given ones, by identity (`nil` for a hole).
    private func identities(_ subscriptions: [(any Subscription)?]?) -> [ObjectIdentifier?]? {
        subscriptions?.map { $0.map { ObjectIdentifier($0 as AnyObject) } }
    }

    @Test func linksRefuseASecondSubscriptionOneAfterCompletionAndAnyAfterTermination() {
        var links = CombinerLinks(count: 2)
        let (a, b, c) = (RecordingSubscription(), RecordingSubscription(), RecordingSubscription())
        let first = links.accept(a, at: 0, finished: [false, false])
        let second = links.accept(b, at: 0, finished: [false, false])  // already has one
        let completed = links.accept(b, at: 1, finished: [false, true])
        #expect([first, second, completed] == [.keep, .refuse, .refuse])
        let held = links.terminate()
        #expect(identities(held) == [ObjectIdentifier(a), nil])
        #expect(links.terminated)
        #expect(identities(links.subscriptions) == [nil, nil])
        let late = links.accept(c, at: 1, finished: [false, false])
        #expect(late == .refuse)
        let request = links.request(.max(1), onDeliveringThread: false)
        #expect(request == nil)
    }

    // zip (Combine's order): the downstream gets its subscription from the last child's
    // subscription, or from a completion that comes earlier — once.
    @Test func linksHandOffOnceEveryUpstreamHasASubscriptionOrCompleted() {
        var links = CombinerLinks(count: 3)
        links.awaitHandOff()
        let first = links.accept(RecordingSubscription(), at: 0, finished: [false, false, false])
        let last = links.accept(RecordingSubscription(), at: 2, finished: [false, true, false])
        #expect([first, last] == [.keep, .keepAndHandOff])

        var early = CombinerLinks(count: 2)
        early.awaitHandOff()
        let kept = early.accept(RecordingSubscription(), at: 0, finished: [false, false])
        let handOff = early.completed(0)  // before the other's subscription: hand off now
        #expect(kept == .keep && handOff)
        #expect(identities(early.subscriptions) == [nil, nil])
        let later = early.accept(RecordingSubscription(), at: 1, finished: [true, false])
        let again = early.completed(1)
        #expect(later == .keep && !again)
    }

    @Test func linksWithoutHandOffNeverHandOff() {
        var links = CombinerLinks(count: 1)
        let kept = links.accept(RecordingSubscription(), at: 0, finished: [false])
        let handOff = links.completed(0)
        #expect(kept == .keep && !handOff)
    }

    // zip (Combine's rule): a request made inside a delivery, on the delivering thread, is kept for
    // the sender (the return of its receive) and asked of the others only; nested deliveries
    // restore the outer one.
    @Test func linksKeepARequestMadeInsideADeliveryForTheSender() {
        var links = CombinerLinks(count: 2)
        let (a, b) = (RecordingSubscription(), RecordingSubscription())
        _ = links.accept(a, at: 0, finished: [false, false])
        _ = links.accept(b, at: 1, finished: [false, false])
        let all = [ObjectIdentifier(a), ObjectIdentifier(b)]
        let outside = links.request(.max(1), onDeliveringThread: true)  // no delivery
        #expect(identities(outside) == all)

        let outer = links.beginDelivery(from: 1)
        let otherThread = links.request(.max(2), onDeliveringThread: false)
        let inOuter = links.request(.max(2), onDeliveringThread: true)
        #expect(identities(otherThread) == all)
        #expect(identities(inOuter) == [all[0], nil])
        let inner = links.beginDelivery(from: 0)
        let inInner = links.request(.max(5), onDeliveringThread: true)
        #expect(identities(inInner) == [nil, all[1]])
        let requestedInInner = links.endDelivery(restoring: inner)
        let backInOuter = links.request(.max(1), onDeliveringThread: true)
        let requestedInOuter = links.endDelivery(restoring: outer)
        let after = links.request(.max(1), onDeliveringThread: true)
        #expect(requestedInInner == .max(5))
        #expect(identities(backInOuter) == [all[0], nil])
        #expect(requestedInOuter == .max(3))
        #expect(identities(after) == all)

        #expect(identities(links.subscriptions(except: 0)) == [nil, all[1]])
        #expect(identities(links.subscriptions(except: nil)) == all)
    }
}
