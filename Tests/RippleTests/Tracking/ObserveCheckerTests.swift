import Testing

@testable import Ripple
@testable import RippleCore

/// `observe`'s loop through every interleaving of small scripts on two and three threads (see
/// ``ObserveChecker``), and the checker's own teeth: deliberate defects in the protocol that it must
/// report.
extension Heavy {
    @Suite struct ObserveCheckerTests {
        typealias Operation = ObserveChecker.Operation
        typealias Script = ObserveChecker.Script

        /// What the body does: nothing; from inside `deliver`, cancel its loop or write what it read;
        /// from inside `compute`, cancel its loop; in every `compute`, write what it read.
        static let bodies: [Script] = [
            Script(threads: []), Script(threads: [], insideDeliver: [.cancel]),
            Script(threads: [], insideDeliver: [.write(9)]),
            Script(threads: [], insideCompute: [.cancel]), Script(threads: [], writesWhatItReads: true),
        ]

        /// The loop started on one thread; on a second, one or two writes, a cancel, or a write and a
        /// cancel; on a third (when the second only writes), a cancel or another write. Also the
        /// starting thread writing after its first run, against a write or a cancel. Each with both
        /// executors and every body — except that a body writing from inside `deliver` (which makes
        /// every run longer) meets a single write only. The three-thread scripts run in an optimized
        /// build only (`runningOptimized`: CI's optimized AddressSanitizer run); a debug build, ten
        /// times slower at this single-threaded simulation, runs the two-thread scripts.
        static func scripts(threeThreads: Bool = runningOptimized) -> [Script] {
            let second: [[Operation]] = [[.write(1)], [.write(1), .write(2)], [.cancel], [.write(1), .cancel]]
            let third: [[Operation]] = [[.cancel], [.write(3)]]
            var threads: [[[Operation]]] = second.map { [[.start], $0] }
            threads += [[.write(1)], [.cancel]].map { [[.start, .write(5)], $0] }
            if threeThreads {
                for b in second where !b.contains(.cancel) {
                    threads += third.map { [[.start], b, $0] }
                }
            }
            var scripts: [Script] = []
            for executor in [ObserveChecker.Executor.inline, .separateThread] {
                for body in bodies {
                    for threads in threads {
                        let writes = threads.joined().filter { if case .write = $0 { true } else { false } }.count
                        if body.insideDeliver.contains(.write(9)) || body.writesWhatItReads, writes > 1 { continue }
                        var script = body
                        script.threads = threads
                        script.executor = executor
                        scripts.append(script)
                    }
                }
            }
            return scripts
        }

        @Test(arguments: [2, 3]) func everyInterleavingKeepsTheObserveContract(threads: Int) {
            let scripts = Self.scripts().filter { $0.threads.count == threads }
            guard !scripts.isEmpty else { return }  // three threads: optimized builds only
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
            print(
                "ObserveChecker: \(threads) threads: \(scripts.count) scripts, \(schedules) interleavings, no violation"
            )
            #expect(schedules > 1_000)
        }

        /// `TrackedPublisher { … }.first()` subscribed on one thread while another writes: the subject
        /// replays its current value to the new subscriber holding that subscriber's turn, and `first()`
        /// cancels upstream from inside it, while the run the writer started sends into the subject and
        /// waits for that turn. A cancel that waited for the run would wait for the cancelling thread
        /// itself (a cycle); `TrackedPublisher` cancels without waiting, and the subject's cancelled
        /// subscription drops what the run sends. Checked: no thread waits forever, runs never overlap,
        /// and no value reaches the subscriber after it cancelled.
        @Test func aCancelFromInsideTheSubjectsReplayDoesNotWaitForARunDeliveringIntoIt() {
            let script = Script(threads: [[.start, .cancelWhileReceiving], [.write(1)]], deliversIntoSubject: true)
            switch ObserveChecker.explore(script) {
            case .success(let count):
                print("ObserveChecker: \(script): \(count) interleavings, no violation")
            case .failure(let violation):
                Issue.record("\(script):\n\(violation)")
            }
        }

        /// The checker is only as good as the defects it finds: each of these breaks the protocol in
        /// one line, and some script must show it.
        @Test(arguments: ObserveChecker.Mutation.allCases)
        func aBrokenProtocolIsReported(_ mutation: ObserveChecker.Mutation) {
            var schedules = 0
            let scripts = Self.scripts()
            // The small scripts first: a defect shows in the fewest steps there.
            for script in scripts.filter({ $0.threads.count == 2 }) + scripts.filter({ $0.threads.count == 3 }) {
                switch ObserveChecker.explore(script, mutation: mutation) {
                case .success(let count):
                    schedules += count
                case .failure(let violation):
                    print(
                        "ObserveChecker, \(mutation): \(violation.message) "
                            + "(\(script), schedule \(violation.schedule + 1); "
                            + "\(schedules) interleavings of earlier scripts passed)\n"
                            + "  after: \(violation.trace.joined(separator: "; "))"
                    )
                    return
                }
            }
            Issue.record("the checker did not notice that \(mutation) in \(schedules) interleavings")
        }
    }
}
