@testable import Ripple
import Testing

/// `observe`'s loop through every interleaving of small scripts on two and three threads (see
/// ``ObserveChecker``), and the checker's own teeth: deliberate defects in the protocol that it must
/// report.
extension Heavy {
    @Suite struct ObserveCheckerTests {
        typealias Operation = ObserveChecker.Operation
        typealias Script = ObserveChecker.Script

        /// What the body does: nothing; from inside `deliver`, cancel its loop or write what it read;
        /// from inside `compute`, cancel its loop.
        static let bodies: [(compute: [Operation], deliver: [Operation])] = [
            ([], []), ([], [.cancel]), ([], [.write(9)]), ([.cancel], []),
        ]

        /// The loop started on one thread (which may write after it); on a second, writes, a cancel, or
        /// both; on a third (when the second only writes), a cancel or another write. Each with both
        /// executors and every body. Under a sanitizer, which checks nothing in this single-threaded
        /// simulation but runs it ten times slower, the two-thread scripts only.
        static func scripts(threeThreads: Bool = !runningUnderSanitizer) -> [Script] {
            let first: [[Operation]] = [[.start], [.start, .write(5)]]
            let second: [[Operation]] = [[.write(1)], [.write(1), .write(2)], [.cancel], [.write(1), .cancel]]
            let third: [[Operation]] = [[.cancel], [.write(3)]]
            var scripts: [Script] = []
            for executor in [ObserveChecker.Executor.inline, .separateThread] {
                for body in bodies {
                    for a in first {
                        for b in second {
                            scripts.append(
                                Script(
                                    threads: [a, b], executor: executor, insideCompute: body.compute,
                                    insideDeliver: body.deliver))
                            guard threeThreads, a == [.start], !b.contains(.cancel) else { continue }
                            for c in third {
                                scripts.append(
                                    Script(
                                        threads: [a, b, c], executor: executor, insideCompute: body.compute,
                                        insideDeliver: body.deliver))
                            }
                        }
                    }
                }
            }
            return scripts
        }

        @Test(arguments: [2, 3]) func everyInterleavingKeepsTheObserveContract(threads: Int) {
            let scripts = Self.scripts().filter { $0.threads.count == threads }
            guard !scripts.isEmpty else { return }  // three threads: not under a sanitizer
            var schedules = 0
            for script in scripts {
                switch ObserveChecker.explore(script) {
                case .success(let count):
                    schedules += count
                case .failure(let violation):
                    Issue.record("\(script):\n\(violation)")
                    return
                }
            }
            print("ObserveChecker: \(threads) threads: \(scripts.count) scripts, \(schedules) interleavings, no violation")
            #expect(schedules > 1_000)
        }

        /// The checker is only as good as the defects it finds: each of these breaks the protocol in
        /// one line, and some script must show it.
        @Test(arguments: ObserveChecker.Mutation.allCases)
        func aBrokenProtocolIsReported(_ mutation: ObserveChecker.Mutation) {
            var schedules = 0
            for script in Self.scripts() {
                switch ObserveChecker.explore(script, mutation: mutation) {
                case .success(let count):
                    schedules += count
                case .failure(let violation):
                    print("ObserveChecker, \(mutation): \(violation.message) (\(script), schedule \(violation.schedule + 1); \(schedules) interleavings of earlier scripts passed)\n  after: \(violation.trace.joined(separator: "; "))")
                    return
                }
            }
            Issue.record("the checker did not notice that \(mutation) in \(schedules) interleavings")
        }
    }
}
