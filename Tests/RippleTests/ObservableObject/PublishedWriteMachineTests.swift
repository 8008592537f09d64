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

/// The writes' protocol through every interleaving of small scripts on two and three threads (see
/// ``PublishedWriteChecker``), and the checker's teeth: deliberate defects it must report.
extension Heavy {
    @Suite struct PublishedWriteCheckerTests {
        typealias Operation = PublishedWriteChecker.Operation
        typealias Script = PublishedWriteChecker.Script

        /// Two writers (one of them perhaps making `$property` first or between its writes), with and
        /// without `$property` at the start and a subscriber that writes back; then three threads, each
        /// writing once or making `$property`, without the write-back (a third thread multiplies the
        /// interleavings by about a thousand).
        static func scripts(threads: Int) -> [Script] {
            let first: [[Operation]] =
                threads == 2 ? [[.write(1), .write(2)], [.makeProjection, .write(1)]] : [[.write(1)], [.makeProjection, .write(1)]]
            let second: [[Operation]] =
                threads == 2 ? [[.write(10)], [.makeProjection], [.write(10), .makeProjection]] : [[.write(10)], [.makeProjection]]
            let third: [[Operation]] = [[.write(20)], [.makeProjection]]
            var scripts: [Script] = []
            for projected in [false, true] {
                for writesBack in threads == 2 ? [false, true] : [false] {
                    for a in first {
                        for b in second {
                            let two = [a, b]
                            if threads == 2 {
                                scripts.append(Script(threads: two, projected: projected, subscriberWritesBack: writesBack))
                            } else {
                                for c in third where !(b == [.makeProjection] && c == [.makeProjection]) {
                                    scripts.append(
                                        Script(threads: two + [c], projected: projected, subscriberWritesBack: writesBack))
                                }
                            }
                        }
                    }
                }
            }
            return scripts
        }

        /// The three-thread scripts run in an optimized build only (`runningOptimized`: CI's optimized
        /// AddressSanitizer run); a debug build, ten times slower at this simulation, runs the
        /// two-thread scripts.
        @Test(arguments: [2, 3]) func everyInterleavingKeepsThePropertyAndProjectionInStep(threads: Int) {
            guard threads == 2 || runningOptimized else { return }
            var schedules = 0
            let scripts = Self.scripts(threads: threads)
            for script in scripts {
                switch PublishedWriteChecker.explore(script) {
                case .success(let count):
                    schedules += count
                case .failure(let violation):
                    Issue.record("\(script): \(violation)")
                    return
                }
            }
            print("PublishedWriteChecker, \(threads) threads: \(scripts.count) scripts, \(schedules) interleavings, no violation")
            #expect(schedules > scripts.count)
        }

        /// Each deliberate defect is reported, with a schedule that shows it.
        @Test(arguments: PublishedWriteChecker.Mutation.allCases)
        func aBrokenProtocolIsReported(mutation: PublishedWriteChecker.Mutation) {
            let found = Self.scripts(threads: 2).lazy.compactMap { script -> PublishedWriteChecker.Violation? in
                if case .failure(let violation) = PublishedWriteChecker.explore(script, mutation: mutation) {
                    return violation
                }
                return nil
            }.first
            #expect(found != nil, "\(mutation) was not reported")
            if let found { print("PublishedWriteChecker, \(mutation): \(found.message)") }
        }
    }
}
