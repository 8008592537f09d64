import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An exit test whose child process never ends would hang the whole run without a word: the parent
/// waits for the child's exit in a continuation that nothing cancels (a test time limit records an
/// issue but still waits), and it reads the child's output until the child closes it. This trait
/// gives every exit test of a suite a limit instead: a child of this process that runs an exit test
/// (its environment names one) and is still alive after `seconds` has its threads recorded (name,
/// state and kernel wait channel of each, and every thread's backtrace when `gdb` is installed), is
/// killed, and each test that was running under the trait when that child started fails with
/// that report. The exit test then sees its child killed and goes on, so the run ends.
///
/// `RIPPLE_EXIT_TEST_LIMIT` (seconds) overrides the limit for a run. The default, 180 s, is generous:
/// a child ends in a second or two; under ThreadSanitizer on a machine loaded twentyfold the slowest
/// (the stack-guard test's, whose recursion runs the stack down) took 48 s.
struct ExitTestWatchdog: SuiteTrait, TestTrait, TestScoping {
    var seconds: Double

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else { return try await function() }
        let stuck = try await ExitTestChildren.watching(limit: seconds) { try await function() }
        for child in stuck {
            Issue.record("\(child)")
        }
    }
}

extension Trait where Self == ExitTestWatchdog {
    /// Kills an exit test's child still alive after `seconds` (or `RIPPLE_EXIT_TEST_LIMIT`) and fails the test.
    static var exitTestWatchdog: Self { .exitTestWatchdog(seconds: ExitTestChildren.defaultLimit) }

    static func exitTestWatchdog(seconds: Double) -> Self { ExitTestWatchdog(seconds: seconds) }
}

/// A child that ran an exit test past its limit, as it was when it was killed.
struct StuckExitTestChild: Sendable, CustomStringConvertible {
    var pid: pid_t
    var seconds: Double
    var threads: String

    var description: String {
        "an exit test's child process (pid \(pid)) was still running after \(Int(seconds)) s and was killed; "
            + "what its threads were doing:\n\(threads)"
    }
}

/// The watching behind ``ExitTestWatchdog``: one thread for the process, polling its children
/// every half second while a watched test runs.
enum ExitTestChildren {
    static let defaultLimit: Double = {
        if let text = ProcessInfo.processInfo.environment["RIPPLE_EXIT_TEST_LIMIT"], let value = Double(text), value > 0 {
            return value
        }
        return 180
    }()

    /// Runs `body`; a child started while it runs that outlives `limit` is killed and reported.
    /// `matching` picks which children count (all exit-test children by default); `backtraces: false`
    /// skips gdb.
    static func watching(
        limit: Double, backtraces: Bool = true, matching: @escaping @Sendable (pid_t) -> Bool = { _ in true },
        _ body: () async throws -> Void
    ) async rethrows -> [StuckExitTestChild] {
        let watch = Watch(limit: limit, backtraces: backtraces, matching: matching)
        Scanner.shared.add(watch)
        defer { Scanner.shared.remove(watch) }
        try await body()
        return watch.reports()
    }

    /// The pids of this process's children that run an exit test.
    static func children() -> [pid_t] {
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), let stat = read("/proc/\(pid)/stat"),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm) ": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == me else { return nil }
            // Swift Testing 6.3 names the exit test in SWT_EXIT_TEST_ID (6.1 and 6.2 in
            // SWT_EXPERIMENTAL_EXIT_TEST_ID).
            guard let environment = read("/proc/\(pid)/environ"),
                environment.contains("SWT_EXIT_TEST_ID=") || environment.contains("SWT_EXPERIMENTAL_EXIT_TEST_ID=")
            else { return nil }
            return pid
        }
    }

    /// Each thread of `pid`: id, name, state, kernel wait channel; then gdb's backtraces if gdb is there.
    static func describeThreads(of pid: pid_t, backtraces: Bool = true) -> String {
        var lines: [String] = []
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for tid in tasks.sorted(by: { (Int($0) ?? 0) < (Int($1) ?? 0) }) {
            let base = "/proc/\(pid)/task/\(tid)"
            let name = read("\(base)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            let state = read("\(base)/stat").flatMap { stat in
                stat.lastIndex(of: ")").map { String(stat[stat.index(after: $0)...].split(separator: " ").first ?? "?") }
            } ?? "?"
            let channel = read("\(base)/wchan") ?? "?"
            lines.append("  thread \(tid) \"\(name)\" state \(state) waiting in \(channel.isEmpty ? "-" : channel)")
        }
        if backtraces, let gdb = gdbBacktraces(of: pid) {
            lines.append(gdb)
        }
        return lines.joined(separator: "\n")
    }

    /// `gdb -p pid -batch -ex "thread apply all bt"`, limited to 60 s; nil without gdb.
    private static func gdbBacktraces(of pid: pid_t) -> String? {
        let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let gdb else { return nil }
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("ripple-exit-test-\(pid)-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = [gdb, "-p", "\(pid)", "-batch", "-ex", "thread apply all bt"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        guard posix_spawn(&child, gdb, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(60)
        var reaped = waitpid(child, &status, WNOHANG)
        while reaped == 0, Date() < deadline {
            usleep(50_000)
            reaped = waitpid(child, &status, WNOHANG)
        }
        if reaped == 0 {
            kill(child, SIGKILL)
            _ = waitpid(child, &status, 0)
        }
        return read(output).map { "gdb's backtraces:\n" + $0 }
    }

    /// A /proc (or any) file's text, read to its end (a /proc file reports size 0).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 4096) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The one thread that looks at this process's children, twice a second while a test watches.
    final class Scanner: @unchecked Sendable {
        static let shared = Scanner()
        private let lock = NSLock()
        private var watches: [ObjectIdentifier: Watch] = [:]
        private var latest: Set<pid_t> = []
        private var started = false

        func add(_ watch: Watch) {
            let start = lock.withLock { () -> Bool in
                // Children already seen belong to tests that started earlier.
                watch.earlier = latest
                watches[ObjectIdentifier(watch)] = watch
                defer { started = true }
                return !started
            }
            if start { Thread { self.run() }.start() }
        }

        func remove(_ watch: Watch) {
            lock.withLock { watches[ObjectIdentifier(watch)] = nil }
        }

        private func run() {
            while true {
                let active = lock.withLock { Array(watches.values) }
                if !active.isEmpty {
                    let children = ExitTestChildren.children()
                    lock.withLock { latest = Set(children) }
                    let now = Date()
                    for watch in active { watch.observe(children, at: now) }
                }
                usleep(500_000)
            }
        }
    }

    /// One watched test: the children it first saw, when, and what it killed. Only the scanner's
    /// thread observes; `reports()` is read by the test.
    final class Watch: @unchecked Sendable {
        let limit: Double
        let backtraces: Bool
        let matching: @Sendable (pid_t) -> Bool
        var earlier: Set<pid_t> = []
        private var firstSeen: [pid_t: Date] = [:]
        private let lock = NSLock()
        private var stuck: [StuckExitTestChild] = []

        init(limit: Double, backtraces: Bool, matching: @escaping @Sendable (pid_t) -> Bool) {
            self.limit = limit
            self.backtraces = backtraces
            self.matching = matching
        }

        func observe(_ children: [pid_t], at now: Date) {
            for pid in children where !earlier.contains(pid) {
                let seen = firstSeen[pid] ?? now
                firstSeen[pid] = seen
                let age = now.timeIntervalSince(seen)
                if age >= limit, matching(pid) {
                    let report = StuckExitTestChild(
                        pid: pid, seconds: age,
                        threads: ExitTestChildren.describeThreads(of: pid, backtraces: backtraces))
                    // Recorded before the kill, which lets the test's body return.
                    lock.withLock { stuck.append(report) }
                    kill(pid, SIGKILL)
                    firstSeen[pid] = .distantFuture
                }
            }
        }

        func reports() -> [StuckExitTestChild] {
            lock.withLock { stuck }
        }
    }
}
