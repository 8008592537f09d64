@testable import Ripple
@testable import RippleCore
import Testing

/// The subject conduit's protocol through every interleaving of small scripts on two and three
/// threads (see ``ConduitChecker``), and the checker's own teeth: deliberate defects in the
/// protocol that it must report. Heavy: a minute of one thread's time, which must not starve the
/// async tests of the test runner's threads.
extension Heavy {
    @Suite struct ConduitCheckerTests {
        typealias Operation = ConduitChecker.Operation
        typealias Script = ConduitChecker.Script

        /// What the subscriber may do: return no demand or one more; from inside its first call, send,
        /// cancel itself, ask for more, or complete the subject.
        static let behaviours: [ConduitChecker.Behaviour] = [0, 1].flatMap { returns in
            [[], [Operation.send(99)], [.cancel], [.request(1)], [.complete]].map {
                ConduitChecker.Behaviour(returns: returns, nested: $0)
            }
        }

        /// Two senders, one of them also cancelling, completing or asking for more, for both kinds of
        /// subject, each behaviour and demand; then the same with a third thread doing one thing, for
        /// the behaviours that return no demand (a third thread multiplies the interleavings by about
        /// ten). The three-thread scripts run in an optimized build only (`runningOptimized`: CI's
        /// optimized AddressSanitizer run); a debug build, ten times slower at this single-threaded
        /// simulation, runs the two-thread scripts.
        static func scripts(threeThreads: Bool = runningOptimized) -> [Script] {
            let second: [[Operation]] = [
                [.send(20)], [.cancel], [.complete], [.request(1)], [.send(20), .cancel], [.send(20), .complete],
            ]
            let third: [[Operation]] = [[.send(30)], [.cancel], [.complete], [.request(1)]]
            var scripts: [Script] = []
            for replays in [false, true] {
                for demand in [1, nil] as [Int?] {
                    for behaviour in behaviours {
                        for b in second {
                            let threads = [[Operation.send(10), .send(11)], b]
                            scripts.append(Script(threads: threads, behaviour: behaviour, initialDemand: demand, replays: replays))
                            guard threeThreads, behaviour.returns == 0 else { continue }
                            for c in third {
                                scripts.append(
                                    Script(threads: threads + [c], behaviour: behaviour, initialDemand: demand, replays: replays))
                            }
                        }
                    }
                }
            }
            return scripts
        }

        @Test(arguments: [2, 3]) func everyInterleavingKeepsTheDeliveryContract(threads: Int) {
            let scripts = Self.scripts().filter { $0.threads.count == threads }
            guard !scripts.isEmpty else { return }  // three threads: optimized builds only
            var schedules = 0
            for script in scripts {
                switch ConduitChecker.explore(script) {
                case .success(let count):
                    schedules += count
                case .failure(let violation):
                    Issue.record("\(script):\n\(violation)")
                    return
                }
            }
            print("ConduitChecker: \(threads) threads: \(scripts.count) scripts, \(schedules) interleavings, no violation")
            #expect(schedules > 10_000)
        }

        /// A subscriber's `receive(subscription:)` runs in its turn: another thread's send,
        /// completion or cancel meanwhile never overlaps it; inside it the subscriber asks for
        /// demand, sends, or cancels itself (nested).
        static func subscribeScripts() -> [Script] {
            let setUps: [[Operation]] = [[.request(1)], [.request(1), .send(5)], [.request(1), .cancel], [.request(2), .complete]]
            let others: [[Operation]] = [[.send(20)], [.send(20), .complete], [.send(20), .cancel], [.request(1), .send(20)]]
            var scripts: [Script] = []
            for replays in [false, true] {
                for behaviour in [ConduitChecker.Behaviour(), ConduitChecker.Behaviour(returns: 1)] {
                    for setUp in setUps {
                        for other in others {
                            scripts.append(
                                Script(
                                    threads: [[.subscribe(setUp)], other], behaviour: behaviour, initialDemand: 0,
                                    replays: replays))
                        }
                    }
                }
            }
            return scripts
        }

        @Test func aSubscriptionRacingOtherThreadsKeepsTheDeliveryContract() {
            var schedules = 0
            for script in Self.subscribeScripts() {
                switch ConduitChecker.explore(script) {
                case .success(let count):
                    schedules += count
                case .failure(let violation):
                    Issue.record("\(script):\n\(violation)")
                    return
                }
            }
            print("ConduitChecker: subscribe: \(Self.subscribeScripts().count) scripts, \(schedules) interleavings, no violation")
            #expect(schedules > 1_000)
        }

        /// `receive(subscription:)` outside the turn (the old sequence) lets another thread's
        /// delivery overlap it: reported.
        @Test func aSetUpOutsideTheTurnIsReported() {
            var schedules = 0
            for script in Self.subscribeScripts() {
                switch ConduitChecker.explore(script, mutation: .setUpOutsideTurn) {
                case .success(let count):
                    schedules += count
                case .failure(let violation):
                    print("ConduitChecker, setUpOutsideTurn: \(violation.message) (after \(schedules) interleavings)")
                    return
                }
            }
            Issue.record("the checker did not notice setUpOutsideTurn in \(schedules) interleavings")
        }

        /// The checker is only as good as the defects it finds: each of these breaks the protocol in
        /// one line, and some script must show it.
        @Test(arguments: [ConduitChecker.Mutation.skipWake, .leaveBeforeCall, .releaseWhileHeld])
        func aBrokenProtocolIsReported(_ mutation: ConduitChecker.Mutation) {
            var schedules = 0
            for script in Self.scripts() {
                switch ConduitChecker.explore(script, mutation: mutation) {
                case .success(let count):
                    schedules += count
                case .failure(let violation):
                    print("ConduitChecker, \(mutation): \(violation.message) (after \(schedules) interleavings)")
                    return
                }
            }
            Issue.record("the checker did not notice \(mutation) in \(schedules) interleavings")
        }
    }
}
