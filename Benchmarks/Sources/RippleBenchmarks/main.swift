// Ripple's benchmarks: every scenario for Ripple, OpenCombine, Swift's Observation (where it has the
// operation) and a floor, in one process. See ../README.md.
//
//   swift run -c release RippleBenchmarks                 timing + heap + instructions (callgrind)
//   swift run -c release RippleBenchmarks --no-instructions
//   swift run -c release RippleBenchmarks --quick         every scenario once, no numbers (CI smoke test)
//   swift run -c release RippleBenchmarks --only "send" --json results.jsonl
import BenchHarness
import Foundation
import ObservationScenarios
import OpenCombineScenarios
import RippleScenarios
import UIScenarios

let libraries = ["Ripple", "OpenCombine", "Observation", "floor"]
let allScenarios: [Scenario] =
    RippleScenarios.Suite.scenarios() + OpenCombineScenarios.Suite.scenarios()
    + TrackingSuite.scenarios() + ObservationSuite.scenarios() + Floor.scenarios() + UISuite.scenarios()

let arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let only = option("--only")
let jsonPath = option("--json")
let selected = allScenarios.filter { only == nil || $0.name.contains(only!) }

// MARK: Internal mode: one scenario inside callgrind's collection window.

if let id = option("--measure-instructions") {
    guard let scenario = allScenarios.first(where: { $0.id == id }),
        let (prepare, run) = scenario.make().preparedPair
    else {
        FileHandle.standardError.write(Data("unknown scenario \(id)\n".utf8))
        exit(2)
    }
    let iterations = Int(option("--iterations") ?? "1000") ?? 1000
    run(prepare(max(1, iterations / 10)))  // warm-up, outside the collection window
    _ = runOnce(prepare: prepare, run: run, iterations: iterations)
    exit(0)
}

// MARK: Quick mode: run everything once (CI smoke test; no timing claims).

if arguments.contains("--quick") {
    for scenario in selected {
        switch scenario.make() {
        case .loop(let body): body(10)
        case .prepared(let prepare, let run): run(prepare(10))
        case .heap(let make): withExtendedLifetime(make(10)) {}
        }
    }
    print("quick: ran \(selected.count) scenarios once each (\(Set(selected.map(\.name)).count) names, \(Set(selected.map(\.library)).count) libraries)")
    exit(0)
}

// MARK: Full run

struct Result {
    var nanoseconds: Double?
    var instructions: Double?
    var heapBytes: Double?
}

var results: [String: Result] = [:]
let names = selected.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }

FileHandle.standardError.write(Data("timing \(selected.count) scenario runs…\n".utf8))
for name in names {
    // Libraries interleaved repetition by repetition, so drift on this noisy machine hits them alike.
    let group = selected.filter { $0.name == name }
    var timed: [(Scenario, (prepare: (Int) -> AnyObject, run: (AnyObject) -> Void, operationsPerIteration: Int))] = []
    for scenario in group {
        switch scenario.make() {
        case .heap(let make):
            results[scenario.id] = Result(heapBytes: heapBytesPerInstance(make))
        case let measure:
            let (prepare, run) = measure.preparedPair!
            timed.append((scenario, (prepare, run, scenario.operationsPerIteration)))
        }
    }
    let medians = timeInterleaved(timed.map(\.1))
    for (index, entry) in timed.enumerated() {
        results[entry.0.id] = Result(nanoseconds: medians[index])
    }
}

func valgrindAvailable() -> Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")
}

if !arguments.contains("--no-instructions") && valgrindAvailable() {
    FileHandle.standardError.write(Data("counting instructions under callgrind…\n".utf8))
    // valgrind 3.19 cannot read this toolchain's DWARF; a copy without debug info keeps the symbol
    // table, which is all `--toggle-collect` needs.
    let original = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let executable = NSTemporaryDirectory() + "ripple-benchmarks-\(getpid())"
    let strip = Process()
    strip.executableURL = URL(fileURLWithPath: "/usr/bin/objcopy")
    strip.arguments = ["--strip-debug", original, executable]
    try strip.run()
    strip.waitUntilExit()
    defer { try? FileManager.default.removeItem(atPath: executable) }
    let outFile = NSTemporaryDirectory() + "ripple-callgrind-\(getpid()).out"
    for scenario in selected {
        guard case let measure = scenario.make(), measure.preparedPair != nil else { continue }
        // 20,000 operations, but no more than about 20 ms of native time: callgrind runs some 50×
        // slower, and a scenario of milliseconds per iteration (building 1,000 rows) would take hours.
        var iterations = max(10, 20_000 / scenario.operationsPerIteration)
        if let nanoseconds = results[scenario.id]?.nanoseconds, nanoseconds > 0 {
            let affordable = Int(20_000_000 / (nanoseconds * Double(scenario.operationsPerIteration)))
            iterations = max(10, min(iterations, affordable))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/valgrind")
        process.arguments = [
            "--tool=callgrind", "--callgrind-out-file=\(outFile)", "--toggle-collect=ripple_bench_measured",
            executable, "--measure-instructions", scenario.id, "--iterations", "\(iterations)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let text = try? String(contentsOfFile: outFile, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") }),
            let total = Double(line.split(separator: " ").last ?? "")
        else { continue }
        results[scenario.id, default: Result()].instructions =
            total / Double(iterations * scenario.operationsPerIteration)
    }
    try? FileManager.default.removeItem(atPath: outFile)
}

// MARK: Report

func format(_ result: Result?) -> String {
    guard let result else { return "–" }
    if let bytes = result.heapBytes { return String(format: "%.0f B", bytes) }
    guard let ns = result.nanoseconds else { return "–" }
    let time = ns >= 1_000 ? String(format: "%.2f µs", ns / 1_000) : String(format: "%.1f ns", ns)
    if let instructions = result.instructions { return time + String(format: " (%.0f i)", instructions) }
    return time
}

/// What a target compares: whole heap bytes (a fraction of a byte per instance is the one-off
/// allocations of the run spread over its instances), or nanoseconds.
func value(_ result: Result?) -> Double? { result?.heapBytes?.rounded() ?? result?.nanoseconds }

@MainActor func ratio(_ name: String, _ peer: String) -> Double? {
    guard let ripple = value(results["\(name) | Ripple"]), let other = value(results["\(name) | \(peer)"]), other > 0 else {
        return nil
    }
    return ripple / other
}

var lines: [String] = []
lines.append("| scenario | Ripple | OpenCombine | Observation | floor | Ripple ÷ OpenCombine | Ripple ÷ Observation | target (ratio in this run) |")
lines.append("|---|---|---|---|---|---|---|---|")
var met = 0
var missed: [String] = []
for name in names {
    let cells = libraries.map { format(results["\(name) | \($0)"]) }
    let vsOC = ratio(name, "OpenCombine").map { String(format: "%.2f×", $0) } ?? "–"
    let vsObs = ratio(name, "Observation").map { String(format: "%.2f×", $0) } ?? "–"
    var targetCell = ""
    if let target = targets[name], let measured = ratio(name, target.peer) {
        let ok = measured <= target.ratio
        if ok { met += 1 } else { missed.append(name) }
        targetCell = "\(target.text): " + (ok ? "met" : "**missed**")
    }
    if let target = absoluteTargets[name], let measured = value(results["\(name) | Ripple"]) {
        let ok = measured <= target.nanoseconds
        if ok { met += 1 } else { missed.append(name) }
        targetCell = "\(target.text): " + (ok ? "met" : "**missed**")
    }
    lines.append("| \(name) | " + cells.joined(separator: " | ") + " | \(vsOC) | \(vsObs) | \(targetCell) |")
}
print(lines.joined(separator: "\n"))
print("")
print("targets met: \(met); missed: \(missed.isEmpty ? "none" : missed.joined(separator: ", "))")
print("ns: median of 15 interleaved runs; i: instructions per operation under callgrind; B: heap bytes per live instance (mallinfo2).")

if let jsonPath {
    var json = ""
    for scenario in selected {
        guard let result = results[scenario.id] else { continue }
        var fields = ["\"scenario\": \"\(scenario.name)\"", "\"library\": \"\(scenario.library)\""]
        if let ns = result.nanoseconds { fields.append("\"ns_per_op\": \(ns)") }
        if let instructions = result.instructions { fields.append("\"instructions_per_op\": \(instructions)") }
        if let bytes = result.heapBytes { fields.append("\"heap_bytes\": \(bytes)") }
        json += "{" + fields.joined(separator: ", ") + "}\n"
    }
    try json.write(toFile: jsonPath, atomically: true, encoding: .utf8)
}
