@testable import Ripple
@testable import RippleCore
import Testing

/// An observed `@Published` property's writes as a value: which writes wait for each other and
/// which store — every row of ``PublishedWriteMachine``, no threads, no locks.
@Suite struct PublishedWriteMachineTests {
    @Test func withoutProjectionAWriteTakesNoTurnAndStores() {
        var machine = PublishedWriteMachine()
        guard case .write(.unordered) = machine.begin(thread: 1, ordered: false, name: "x") else {
            Issue.record("expected an unordered write")
            return
        }
        #expect(!machine.turn.isHeld)
        #expect(machine.end(.unordered, unchanged: false, ordered: false) == .store(.idle))
    }

    @Test func aProjectionMadeDuringAnUnorderedWriteMakesItStartOver() {
        var machine = PublishedWriteMachine()
        _ = machine.begin(thread: 1, ordered: false, name: "x")
        #expect(machine.end(.unordered, unchanged: true, ordered: true) == .startOver)
        guard case .write(.ordered) = machine.begin(thread: 1, ordered: true, name: "x") else {
            Issue.record("expected the second start to take the turn")
            return
        }
        #expect(machine.turn.owner == 1)
        #expect(machine.end(.ordered, unchanged: true, ordered: true) == .store(.idle))
        #expect(!machine.turn.isHeld)
    }

    @Test func withProjectionAWriteHoldsTheTurnUntilItEnds() {
        var machine = PublishedWriteMachine()
        guard case .write(.ordered) = machine.begin(thread: 1, ordered: true, name: "x") else {
            Issue.record("expected an ordered write")
            return
        }
        #expect(machine.turn.owner == 1)
        #expect(machine.end(.ordered, unchanged: true, ordered: true) == .store(.idle))
        #expect(!machine.turn.isHeld)
    }

    /// A nested write stores first; the outer one stores over it, as in Combine (publish in
    /// `willSet`, store after), and says so: `$property`'s current value must follow.
    @Test func aWriteInsideThisThreadsWriteIsNestedAndTheOuterOneStoresOverIt() {
        var machine = PublishedWriteMachine()
        _ = machine.begin(thread: 1, ordered: true, name: "x")
        guard case .write(.nested) = machine.begin(thread: 1, ordered: true, name: "x") else {
            Issue.record("expected a nested write")
            return
        }
        #expect(machine.end(.nested, unchanged: true, ordered: true) == .store(.idle))
        #expect(machine.turn.owner == 1)  // the outer write still holds the turn
        // A nested write that itself had one nested inside it.
        #expect(machine.end(.nested, unchanged: false, ordered: true) == .storeOverNested(.idle))
        #expect(machine.end(.ordered, unchanged: false, ordered: true) == .storeOverNested(.idle))
        #expect(!machine.turn.isHeld)
    }

    @Test func anotherThreadWaitsAndIsHandedTheTurn() {
        var machine = PublishedWriteMachine()
        _ = machine.begin(thread: 1, ordered: true, name: "x")
        guard case .wait(let waiter) = machine.begin(thread: 2, ordered: true, name: "x") else {
            Issue.record("expected the second writer to wait")
            return
        }
        #expect(machine.end(.ordered, unchanged: true, ordered: true) == .store(.handOff(waiter)))
        #expect(machine.turn.owner == 2)
        #expect(machine.end(.ordered, unchanged: true, ordered: true) == .store(.idle))
    }
}
