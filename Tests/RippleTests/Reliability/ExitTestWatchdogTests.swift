import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The exit-test watchdog (Support/ExitTestWatchdog.swift): an exit test whose child never ends
/// fails its test, named, with what the child's threads were doing, instead of hanging the run.
@Suite struct ExitTestWatchdogTests {
    /// The name the stuck child gives its thread, so this test's watch kills only that child and
    /// never a slow child of an exit test running beside it.
    static let stuckName = "ripple-stuck"

    @Test func aChildThatNeverEndsIsKilledAndReportedInsteadOfHangingTheRun() async {
        let started = ContinuousClock.now
        let stuck = await ExitTestChildren.watching(
            limit: 2, backtraces: false,
            matching: { pid in
                let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
                return tasks.contains { tid in
                    ExitTestChildren.read("/proc/\(pid)/task/\(tid)/comm")?.hasPrefix(ExitTestWatchdogTests.stuckName) == true
                }
            }
        ) {
            await #expect(processExitsWith: .signal(SIGKILL)) {
                let comm = open("/proc/thread-self/comm", O_WRONLY)
                _ = ExitTestWatchdogTests.stuckName.withCString { write(comm, $0, strlen($0)) }
                close(comm)
                while true { sleep(1) }
            }
        }
        let elapsed = ContinuousClock.now - started
        #expect(stuck.count == 1)
        let report = stuck.first.map { "\($0)" } ?? ""
        // The limit is 2 s; the scanner looks every half second, so a loaded host reports 2 s or more.
        #expect(report.contains("was still running after ") && report.contains(" s and was killed"), "report: \(report)")
        // Asleep in sleep(1) as a rule; runnable if the scan came as it woke (a busy host, one processor).
        #expect(report.contains("\"\(Self.stuckName)\" state S") || report.contains("\"\(Self.stuckName)\" state R"),
            "report: \(report)")
        #expect(elapsed < .seconds(60), "took \(elapsed)")
    }
}
