// The oracle's driver. It runs seeded cases in a worker process (this same executable with
// `--worker`), so a crash or a hang in either library is caught, attributed to its case and
// library, and the run goes on from the next case.
import ConformanceModel
import Foundation
import OpenCombineRunner
import RippleRunner

let arguments = Array(CommandLine.arguments.dropFirst())

func value(after flag: String) -> String? {
    guard let i = arguments.firstIndex(of: flag), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

/// How a case's histories compare.
enum Verdict {
    case same
    /// A divergence, with the index of the first differing event.
    case differs(Int)
}

func compare(_ expected: [String], _ actual: [String]) -> Verdict {
    for i in 0..<max(expected.count, actual.count) {
        let e = i < expected.count ? expected[i] : nil
        let a = i < actual.count ? actual[i] : nil
        if e != a { return .differs(i) }
    }
    return .same
}

/// Both histories, with Apple's expectations swapped into OpenCombine's where it is wrong
/// (`AppleExpectations.swift`; where a swap leaves no reference after it, Ripple's history is cut
/// at the same length), and the names of the swaps made.
func histories(_ c: Case) -> (openCombine: [String], ripple: [String]) {
    let swapped = withAppleExpectations(c, openCombine: OpenCombineRunner.Runner.run(c), ripple: RippleRunner.Runner.run(c))
    return (swapped.openCombine, swapped.ripple)
}

/// How a case's two histories are judged: the same, known (the rules' names), or a divergence.
enum Judgement: Equatable {
    case same
    case known(String)
    case differs
}

func judge(_ c: Case, openCombine raw: [String], ripple rawRipple: [String]) -> Judgement {
    let (expected, actual, swaps) = withAppleExpectations(c, openCombine: raw, ripple: rawRipple)
    guard case .differs = compare(expected, actual) else {
        return swaps.isEmpty ? .same : .known(swaps.joined(separator: "; "))
    }
    guard let reason = knownOpenCombineDeviation(c, openCombine: expected, ripple: actual) else { return .differs }
    return .known((swaps + [reason]).joined(separator: "; "))
}

/// A divergence that known OpenCombine deviations do not explain.
func diverges(_ c: Case) -> Bool {
    judge(c, openCombine: OpenCombineRunner.Runner.run(c), ripple: RippleRunner.Runner.run(c)) == .differs
}

/// Whether a shrinking candidate still diverges, decided in a forked child so that a candidate
/// that crashes either library (OpenCombine has inputs it crashes on) only counts as "no".
func divergesSafely(_ c: Case) -> Bool {
    let pid = fork()
    if pid == 0 {
        // The child: no output, just the answer in the exit status.
        _exit(diverges(c) ? 0 : 1)
    }
    guard pid > 0 else { return diverges(c) }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    // Exited normally with 0: diverges. A signal or 1: no.
    return status & 0x7f == 0 && (status >> 8) & 0xff == 0
}

/// Greedy shrinking: keep taking the first smaller case that still diverges.
func shrink(_ c: Case) -> Case {
    var current = c
    var progress = true
    var budget = 400
    while progress && budget > 0 {
        progress = false
        for candidate in current.shrinkCandidates() {
            budget -= 1
            if budget <= 0 { break }
            if divergesSafely(candidate) {
                current = candidate
                progress = true
                break
            }
        }
    }
    return current
}

/// Side by side, the first difference marked.
func report(_ c: Case) -> [String] {
    let (expected, actual) = histories(c)
    var lines = c.description.split(separator: "\n").map(String.init)
    guard case .differs(let at) = compare(expected, actual) else { return lines + ["  (no divergence)"] }
    let width = max(expected.map(\.count).max() ?? 0, 30)
    lines.append("  " + "OpenCombine".padding(toLength: width, withPad: " ", startingAt: 0) + " | Ripple")
    for i in 0..<max(expected.count, actual.count) {
        let e = i < expected.count ? expected[i] : ""
        let a = i < actual.count ? actual[i] : ""
        let mark = i == at ? ">" : " "
        lines.append(mark + " " + e.padding(toLength: width, withPad: " ", startingAt: 0) + " | " + a)
    }
    return lines
}

/// The family of a divergence: the shrunk case's source kind and operators (parameters dropped),
/// and which library's event came first at the point of divergence.
func signature(_ c: Case) -> String {
    func bare(_ text: String) -> String {
        for special in ["prefix(untilOutputFrom:", "drop(untilOutputFrom:", "drop(while:", "prefix(while:"]
        where text.hasPrefix(special) {
            return special + ")"
        }
        return String(text.prefix { $0 != "(" && $0 != " " && $0 != "{" && $0 != "." })
    }
    let ops = c.ops.filter { $0 != .probe }.map { bare($0.description) }
    let source: String
    switch c.source {
    case .passthrough, .currentValue: source = "subject"
    case .sequence: source = "Sequence"
    default: source = bare(c.source.description)
    }
    return ([source] + ops).joined(separator: " | ")
}

// MARK: Worker

/// Unbuffered, so the driver sees each line before a crash that may follow it.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A history's fingerprint, the same in every process (FNV-1a over its lines): the library
/// self-test compares Ripple's histories built from a patched copy of Sources/ with the clean
/// copy's by these.
func fingerprint(_ events: [String]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for event in events {
        for byte in event.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash = (hash ^ 0x0a) &* 0x100_0000_01b3
    }
    return hash
}

/// The library self-test's file of Ripple's clean histories: one "seed fingerprint" a line.
func readFingerprints(_ path: String) -> [Int: UInt64] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fatalError("cannot read the clean fingerprints at \(path)")
    }
    var out: [Int: UInt64] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2, let i = Int(parts[0]), let h = UInt64(parts[1]) { out[i] = h }
    }
    return out
}

/// How a worker runs for the library self-test (`Conformance/self-test-library.sh`): recording
/// Ripple's clean histories, or comparing only the cases a defect planted in Sources/ changed.
enum LibraryMode {
    case record(path: String)
    case against(clean: [Int: UInt64])
}

/// - Parameter defect: the defect planted in Ripple's runs (the self-test): a case the defect
///   leaves unchanged is not compared, and divergences are not shrunk.
func runWorker(
    from: Int, count: Int, base: UInt64, defect: PlantedDefect? = nil, extended: Bool = false,
    library: LibraryMode? = nil
) {
    let recordFile: FileHandle? = {
        guard case .record(let path) = library else { return nil }
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let file = FileHandle(forWritingAtPath: path) else { fatalError("cannot write \(path)") }
        file.seekToEndOfFile()
        return file
    }()
    for i in from..<(from + count) {
        let c = Case.generate(seed: base &+ UInt64(i), extended: extended)
        if let defect {
            emit("RIPPLE \(i)")
            if RippleRunner.Runner.run(c, planting: defect) == RippleRunner.Runner.run(c) {
                emit("UNAFFECTED \(i)")
                continue
            }
            emit("AFFECTED \(i)")
        }
        switch library {
        case .record:
            emit("RIPPLE \(i)")
            let line = "\(i) \(fingerprint(RippleRunner.Runner.run(c)))\n"
            recordFile?.write(Data(line.utf8))
            emit("UNAFFECTED \(i)")
            continue
        case .against(let clean):
            emit("RIPPLE \(i)")
            if clean[i] == fingerprint(RippleRunner.Runner.run(c)) {
                emit("UNAFFECTED \(i)")
                continue
            }
            emit("AFFECTED \(i)")
        case nil:
            break
        }
        emit("OC \(i)")
        let expected = OpenCombineRunner.Runner.run(c)
        emit("RIPPLE \(i)")
        let actual = RippleRunner.Runner.run(c, planting: defect)
        switch judge(c, openCombine: expected, ripple: actual) {
        case .same:
            emit("OK \(i)")
            continue
        case .known(let reason):
            emit("KNOWN \(i) \(reason)")
            continue
        case .differs:
            break
        }
        if let item = openSourceItem(c, openCombine: expected, ripple: actual) {
            // Recognised without shrinking: the family is the source alone.
            emit("DIFF \(i) \(item.name)")
            continue
        }
        if defect != nil || library != nil {
            emit("DIFF \(i) \(signature(c))")
            continue
        }
        emit("SHRINK \(i)")
        let small = shrink(c)
        for line in report(small) { emit("| " + line) }
        emit("DIFF \(i) \(signature(small))")
    }
    emit("DONE")
}

// MARK: Driver

/// Where in OpenCombine's own sources a crash happened (the innermost operator frame of its
/// backtrace), e.g. "Publishers.ReplaceError.swift:134".
func openCombineCrashSite(_ stderr: [String]) -> String {
    if stderr.contains(where: { $0.contains("Attempted to read an unowned reference") }) {
        return "unowned reference read"
    }
    for line in stderr {
        guard let range = line.range(of: "Sources/OpenCombine/") ?? line.range(of: "Sources/COpenCombineHelpers/")
        else { continue }
        let path = line[range.upperBound...].prefix { $0 != " " }
        let file = path.split(separator: "/").last.map(String.init) ?? String(path)
        if file.hasPrefix("Subscribers.Demand.swift") { continue }
        return String(file.split(separator: ":").prefix(2).joined(separator: ":"))
    }
    return "unknown site"
}

final class WorkerOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var lines: [String] = []
    private(set) var lastProgress = Date()
    private(set) var closed = false

    func append(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        if data.isEmpty {
            closed = true
            return
        }
        buffer.append(data)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex...newline)
            lines.append(line)
        }
        lastProgress = Date()
    }

    func take() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let out = lines
        lines = []
        return out
    }

    var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    var sinceProgress: TimeInterval {
        lock.lock()
        defer { lock.unlock() }
        return Date().timeIntervalSince(lastProgress)
    }
}

struct Tally {
    var ok = 0
    var known: [String: Int] = [:]
    /// The first seeds each known reason took (for `--verbose`).
    var knownSeeds: [String: [Int]] = [:]
    var skipped: [String: Int] = [:]
    var diffs: [String: (count: Int, example: [String])] = [:]
    var open: [String: (count: Int, example: [String])] = [:]
    var rippleCrashes: [(Int, String)] = []
    var rippleHangs: [Int] = []
    var openCombineCrashes: [(Int, String)] = []
    var shrinkCrashes: [Int] = []
    /// Self-test: the cases a planted defect changed, and the first seed reported as a divergence.
    var affected = 0
    var firstReported: Int?
}

func drive(count: Int, base: UInt64, deadline: TimeInterval, defect: PlantedDefect? = nil, extended: Bool = false)
    -> Tally
{
    var tally = Tally()
    var next = 0
    while next < count {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if process.executableURL?.path.contains("/") != true {
            process.executableURL = Bundle.main.executableURL
        }
        process.arguments = ["--worker", String(next), String(count - next), String(base), defect?.rawValue ?? "-"]
            + (extended ? ["extended"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        let errPipe = Pipe()
        process.standardError = errPipe
        let output = WorkerOutput()
        let errors = WorkerOutput()
        pipe.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
        errPipe.fileHandleForReading.readabilityHandler = { errors.append($0.availableData) }
        do {
            try process.run()
        } catch {
            fatalError("cannot start the worker: \(error)")
        }
        var stage = "none"
        var current = next
        var block: [String] = []
        var finished = false
        var hung = false
        func consume(_ lines: [String]) {
            for line in lines {
                let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                guard let tag = parts.first else { continue }
                let index = parts.count > 1 ? Int(parts[1]) ?? current : current
                switch tag {
                case "OC": stage = "OC"; current = index
                case "RIPPLE": stage = "RIPPLE"; current = index
                case "SHRINK": stage = "SHRINK"; current = index
                case "OK": tally.ok += 1; stage = "none"; next = index + 1
                case "UNAFFECTED": stage = "none"; next = index + 1
                case "AFFECTED": tally.affected += 1
                case "KNOWN":
                    tally.known[parts.count > 2 ? parts[2] : "?", default: 0] += 1
                    if tally.knownSeeds[parts.count > 2 ? parts[2] : "?", default: []].count < 12 {
                        tally.knownSeeds[parts.count > 2 ? parts[2] : "?", default: []].append(index)
                    }
                    stage = "none"; next = index + 1
                case "|": block.append(String(line.dropFirst(2)))
                case "DIFF":
                    let key = parts.count > 2 ? parts[2] : "?"
                    if tally.firstReported == nil { tally.firstReported = index }
                    if let item = openItem(for: key) {
                        let entry = tally.open[key]
                        tally.open[key] = ((entry?.count ?? 0) + 1, entry?.example ?? (["open item (\(item.owner)): \(item.what)"] + block))
                    } else {
                        let entry = tally.diffs[key]
                        tally.diffs[key] = ((entry?.count ?? 0) + 1, entry?.example ?? block)
                    }
                    block = []
                    stage = "none"; next = index + 1
                case "DONE": finished = true; next = count
                default: break
                }
            }
        }
        while process.isRunning {
            consume(output.take())
            if output.sinceProgress > deadline {
                hung = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        // Drain what is left in the pipe.
        for _ in 0..<50 where !output.isClosed { usleep(10_000) }
        pipe.fileHandleForReading.readabilityHandler = nil
        errPipe.fileHandleForReading.readabilityHandler = nil
        consume(output.take())
        if finished { break }
        let stderrLines = errors.take()
        let message = stderrLines.filter { $0.contains("rror") || $0.contains("ailed") }.prefix(3)
            .joined(separator: " / ")
        switch stage {
        case "OC":
            let site = openCombineCrashSite(errors.take() + stderrLines)
            if let reason = knownOpenCombineCrashes[site] {
                tally.skipped["\(site): \(reason)", default: 0] += 1
            } else {
                tally.openCombineCrashes.append((current, site))
            }
        case "RIPPLE":
            if hung { tally.rippleHangs.append(current) } else { tally.rippleCrashes.append((current, message)) }
        case "SHRINK": tally.shrinkCrashes.append(current)
        default:
            if next >= count { break }
            tally.rippleCrashes.append((next, "worker died between cases: \(message)"))
        }
        next = max(next, current + 1)
        block = []
    }
    return tally
}

// MARK: Main

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: Swift.max(0, width - count)) + self }
}

if arguments.first == "--worker", (5...6).contains(arguments.count),
    let from = Int(arguments[1]), let count = Int(arguments[2]), let base = UInt64(arguments[3])
{
    var library: LibraryMode?
    if let mode = ProcessInfo.processInfo.environment["CONFORMANCE_LIBRARY_MODE"] {
        if mode.hasPrefix("record:") { library = .record(path: String(mode.dropFirst(7))) }
        if mode.hasPrefix("against:") { library = .against(clean: readFingerprints(String(mode.dropFirst(8)))) }
    }
    runWorker(
        from: from, count: count, base: base, defect: PlantedDefect(rawValue: arguments[4]),
        extended: arguments.count == 6, library: library)
    exit(0)
}

// The library self-test's two halves (Conformance/self-test-library.sh runs them on a scratch copy
// of the repository, clean and then with one defect planted in Sources/ at a time):
// `--record-clean FILE` writes the fingerprint of Ripple's history for each seed;
// `--planted NAME --against FILE` compares, with OpenCombine's, only the histories the planted
// defect changed, and fails unless some are reported as divergences (or crash or hang Ripple)
// and at most `--max-excused` (a share, 0.5 unless told) of them are excused by the rules.
if let path = value(after: "--record-clean") {
    let count = value(after: "--count").flatMap(Int.init) ?? 3_000
    try? FileManager.default.removeItem(atPath: path)
    setenv("CONFORMANCE_LIBRARY_MODE", "record:" + path, 1)
    let started = Date()
    let tally = drive(count: count, base: 0, deadline: 60, extended: arguments.contains("--extended"))
    let recorded = readFingerprints(path).count
    print(String(format: "Clean histories: %d of %d seeds recorded in %.1f s", recorded, count, Date().timeIntervalSince(started)))
    let broken = tally.rippleCrashes.count + tally.rippleHangs.count
    if broken > 0 || recorded != count {
        print("error: the clean copy crashed or hung on \(broken) seeds")
        exit(1)
    }
    exit(0)
}

if let name = value(after: "--planted"), let path = value(after: "--against") {
    let count = value(after: "--count").flatMap(Int.init) ?? 3_000
    let share = value(after: "--max-excused").flatMap(Double.init) ?? 0.5
    setenv("CONFORMANCE_LIBRARY_MODE", "against:" + path, 1)
    let started = Date()
    let tally = drive(count: count, base: 0, deadline: 60, extended: arguments.contains("--extended"))
    let reported = tally.diffs.values.reduce(0) { $0 + $1.count } + tally.open.values.reduce(0) { $0 + $1.count }
        + tally.rippleCrashes.count + tally.rippleHangs.count
    let known = tally.known.values.reduce(0, +)
    let skipped = tally.skipped.values.reduce(0, +)
    let excusedShare = tally.affected == 0 ? 0 : Double(known) / Double(tally.affected)
    let verdict = reported == 0 ? "MISSED" : excusedShare > share ? "EXCUSED" : "reported"
    let first = tally.firstReported.map { ", first at seed \($0)" } ?? ""
    let percent = { (x: Double) in String(format: "%.0f%%", x * 100) }
    print(
        "  \(verdict): \(name): changes \(tally.affected) cases; \(reported) reported\(first), \(known) excused as known "
            + "(\(percent(excusedShare)), at most \(percent(share))), \(tally.ok) identical to OpenCombine, \(skipped) skipped "
            + String(format: "(%.1f s)", Date().timeIntervalSince(started)))
    if arguments.contains("--verbose") {
        for (reason, n) in tally.known.sorted(by: { $0.value > $1.value }) {
            let seeds = (tally.knownSeeds[reason] ?? []).map(String.init).joined(separator: ", ")
            print("      excused ×\(n): \(reason) (seeds \(seeds)…)")
        }
        for (family, entry) in tally.diffs.sorted(by: { $0.value.count > $1.value.count }) {
            print("      reported ×\(entry.count): \(family)")
        }
    }
    exit(verdict == "reported" ? 0 : 1)
}

if arguments.contains("--self-test") {
    // Each planted defect must be reported as a divergence (open), not excused as known: a rule
    // that excuses every case a defect changes is too wide.
    let count = value(after: "--count").flatMap(Int.init) ?? 3_000
    let started = Date()
    print("Self-test: \(PlantedDefect.allCases.count) defects planted in Ripple's runs, \(count) pipelines each")
    var failed = false
    for defect in PlantedDefect.allCases {
        let tally = drive(count: count, base: 0, deadline: 20, defect: defect, extended: defect.needsExtended)
        let reported = tally.diffs.values.reduce(0) { $0 + $1.count } + tally.open.values.reduce(0) { $0 + $1.count }
            + tally.rippleCrashes.count + tally.rippleHangs.count
        let known = tally.known.values.reduce(0, +)
        let first = tally.firstReported.map { ", first at seed \($0)" } ?? ""
        let verdict = reported > 0 ? "reported" : "MISSED"
        print(
            "  \(verdict): \(defect.rawValue): changes \(tally.affected) cases; \(reported) reported as divergences\(first), "
                + "\(known) excused as known")
        if arguments.contains("--verbose") {
            for (reason, n) in tally.known.sorted(by: { $0.value > $1.value }) { print("      excused ×\(n): \(reason)") }
        }
        if reported == 0 { failed = true }
    }
    print(String(format: "Self-test done in %.1f s", Date().timeIntervalSince(started)))
    exit(failed ? 1 : 0)
}

let extended = arguments.contains("--extended")

if let text = value(after: "--describe"), let seed = UInt64(text) {
    print(Case.generate(seed: seed, extended: extended))
    exit(0)
}

if let text = value(after: "--case"), let seed = UInt64(text) {
    let c = Case.generate(seed: seed, extended: extended)
    if case .known(let reason) = judge(c, openCombine: OpenCombineRunner.Runner.run(c), ripple: RippleRunner.Runner.run(c)) {
        print("known: \(reason)")
    }
    let small = arguments.contains("--no-shrink") ? c : shrink(c)
    for line in report(small) { print(line) }
    exit(0)
}

let base = UInt64(value(after: "--seed") ?? "") ?? 0
let count: Int
if let text = value(after: "--count"), let n = Int(text) {
    count = n
} else if arguments.contains("--quick") {
    count = 3_000
} else {
    count = 200_000
}

let started = Date()
print("Conformance: \(count) pipelines from seed \(base), Ripple against OpenCombine 0.14.0")
let tally = drive(count: count, base: base, deadline: 20, extended: extended)
let elapsed = Date().timeIntervalSince(started)

let diffTotal = tally.diffs.values.reduce(0) { $0 + $1.count }
let openTotal = tally.open.values.reduce(0) { $0 + $1.count }
let verbose = arguments.contains("--verbose")
if !tally.open.isEmpty {
    print("\nOpen items (Conformance/Sources/Conformance/OpenItems.swift):")
    for (key, entry) in tally.open.sorted(by: { $0.value.count > $1.value.count }) {
        print("  ×\(entry.count): \(key)")
        if verbose { for line in entry.example { print("      " + line) } }
    }
}
for (key, entry) in tally.diffs.sorted(by: { $0.value.count > $1.value.count }) {
    print("\nDIVERGENCE ×\(entry.count): \(key)")
    for line in entry.example { print("  " + line) }
}
if !tally.known.isEmpty {
    print("\nKnown OpenCombine deviations (Conformance/README.md), by the rules a case needed together:")
    for (reason, n) in tally.known.sorted(by: { $0.key < $1.key }) {
        print("  \(reason): \(n)")
        if verbose {
            let seeds = (tally.knownSeeds[reason] ?? []).map { String(base &+ UInt64($0)) }.joined(separator: ", ")
            print("      seeds \(seeds)…")
        }
    }
    // Per rule: how many known cases each rule took part in (a case may need several rules, so
    // these add up to more than the known total).
    var perRule: [String: Int] = [:]
    for (reason, n) in tally.known {
        for rule in reason.components(separatedBy: "; ") { perRule[rule, default: 0] += n }
    }
    print("\nKnown, per rule (cases the rule took part in):")
    for (rule, n) in perRule.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
        print("  " + String(n).leftPadded(to: 7) + "  \(rule)")
    }
}
if !tally.skipped.isEmpty {
    print("\nSkipped (inputs that crash OpenCombine, Conformance/README.md):")
    for (reason, n) in tally.skipped.sorted(by: { $0.key < $1.key }) { print("  \(reason): \(n)") }
}
for (i, message) in tally.rippleCrashes { print("RIPPLE CRASH: seed \(base &+ UInt64(i)) \(message)") }
for i in tally.rippleHangs { print("RIPPLE HANG: seed \(base &+ UInt64(i))") }
for (i, site) in tally.openCombineCrashes {
    print("OpenCombine crash (not in the known list): seed \(base &+ UInt64(i)) at \(site)")
}
for i in tally.shrinkCrashes { print("crash while shrinking: seed \(base &+ UInt64(i))") }

let knownTotal = tally.known.values.reduce(0, +)
let skippedTotal = tally.skipped.values.reduce(0, +)
print(
    """

    \(count) pipelines in \(String(format: "%.1f", elapsed)) s: \(tally.ok) identical, \
    \(knownTotal) known OpenCombine deviations, \(skippedTotal) skipped (OpenCombine crashes), \
    \(openTotal) in open items, \(diffTotal) other divergences in \(tally.diffs.count) families, \
    \(tally.rippleCrashes.count) Ripple crashes, \(tally.rippleHangs.count) Ripple hangs, \
    \(tally.openCombineCrashes.count) unlisted OpenCombine crashes
    """)
let failed = diffTotal > 0 || !tally.rippleCrashes.isEmpty || !tally.rippleHangs.isEmpty
    || !tally.openCombineCrashes.isEmpty || !tally.shrinkCrashes.isEmpty
exit(failed ? 1 : 0)
