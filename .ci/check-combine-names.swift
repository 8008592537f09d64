// Checks that the `Combine` compatibility module exports exactly Combine's names, in both
// directions, by compiling against the built modules as a package that does not depend on Ripple
// sees them (the Swift modules alone):
//
// - every public type of RippleCore and RippleFoundationCore (the modules Combine re-exports) under
//   one of Combine's top-level names (.ci/combine-names.txt) resolves as `Combine.X`
//   (`Combine.Publishers.Map`, …);
// - no other public top-level name of those modules, of Ripple and RippleFoundation (Ripple's
//   additions) or of RippleTrackingTypes does, nor does a type Ripple or RippleFoundation nests
//   under one of Combine's names (`Publishers.Trace`), nor do Ripple's additions to Combine's and
//   the system's types that a library beside Ripple declares too (combine-schedulers'
//   `eraseToAnyScheduler()`, `DispatchQueue.immediate`) or that are Ripple's own (`trace(_:to:)`).
//   Lines starting with "+" in the list name additions still tolerated (the list can only shrink:
//   a listed name that no longer resolves fails too); there are none.
//
// The lists of Ripple's names come from the symbol graphs `swift package dump-symbol-graph` wrote,
// so a new public type is checked without anyone keeping a list of Ripple's.
//
// Usage: swift .ci/check-combine-names.swift SYMBOLGRAPH_DIR MODULES_DIR WORK_DIR
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3 else {
    print("usage: check-combine-names.swift SYMBOLGRAPH_DIR MODULES_DIR WORK_DIR")
    exit(2)
}
let (graphs, modules, work) = (arguments[0], arguments[1], arguments[2])

let listed = try String(contentsOfFile: ".ci/combine-names.txt", encoding: .utf8)
    .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    .filter { !$0.isEmpty && !$0.hasPrefix("#") }
/// Combine's top-level names.
let combineNames = Set(listed.filter { !$0.hasPrefix("+") })
/// Ripple's additions the Combine module still exports (lines starting with "+").
let tolerated = Set(listed.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) })

let typeKinds: Set<String> = ["swift.struct", "swift.class", "swift.enum", "swift.protocol"]
let topLevelKinds = typeKinds.union(["swift.typealias", "swift.func", "swift.var"])

var types = Set<String>()  // Under Combine's names, from the modules Combine re-exports: must resolve.
var extras = Set<String>()  // Every other top-level name: must not.
var nestedAdditions = Set<String>()  // Ripple's types nested under Combine's names: must not.
/// The modules Combine re-exports, then Ripple's own.
let exportedModules = ["RippleCore", "RippleFoundationCore"]
/// A module's graph, then those of its extensions to other modules' types ("Ripple@RippleCore":
/// where `Publishers.Trace` is).
func graphFiles(of module: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: graphs)) ?? []
    return ["\(module).symbols.json"] + names.filter { $0.hasPrefix("\(module)@") }.sorted()
}
for module in exportedModules + ["Ripple", "RippleFoundation", "RippleTrackingTypes"] {
    for file in graphFiles(of: module) {
        let url = URL(fileURLWithPath: graphs).appendingPathComponent(file)
        guard let data = try? Data(contentsOf: url),
            let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let symbols = graph["symbols"] as? [[String: Any]]
        else {
            print("error: no symbol graph for \(module) at \(url.path)")
            exit(1)
        }
        for symbol in symbols {
            guard let access = symbol["accessLevel"] as? String, access == "public" || access == "open",
                let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String,
                let path = symbol["pathComponents"] as? [String], !path.contains(where: { $0.hasPrefix("_") })
            else { continue }
            if combineNames.contains(path[0]) {
                guard typeKinds.contains(kind) else { continue }
                if exportedModules.contains(module) {
                    types.insert(path.joined(separator: "."))
                } else {
                    nestedAdditions.insert(path.joined(separator: "."))
                }
            } else if path.count == 1, topLevelKinds.contains(kind) {
                extras.insert(String(path[0].prefix { $0 != "(" }))
            }
        }
    }
}
let missing = combineNames.subtracting(types)
guard missing.isEmpty else {
    print("error: RippleCore and RippleFoundationCore declare none of Combine's \(missing.sorted())")
    exit(1)
}

/// Type-checks `source` against the built modules; returns the compiler's error lines.
func typecheck(_ source: String, named name: String) throws -> [Substring] {
    let file = URL(fileURLWithPath: work).appendingPathComponent(name)
    try source.write(to: file, atomically: true, encoding: .utf8)
    let swiftc = Process()
    swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    swiftc.arguments = ["swiftc", "-swift-version", "6", "-typecheck", "-I", modules, file.path]
    let output = Pipe()
    swiftc.standardOutput = output
    swiftc.standardError = output
    try swiftc.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    swiftc.waitUntilExit()
    return text.split(separator: "\n").filter { $0.hasPrefix(file.path) && $0.contains(": error:") }
}

// Every type under Combine's names resolves.
let resolving = "import Combine\n" + types.sorted().map { "extension Combine.\($0) {}\n" }.joined()
let errors = try typecheck(resolving, named: "combine-names.swift")
guard errors.isEmpty else {
    print(errors.joined(separator: "\n"))
    print("error: Combine does not export these of Combine's names")
    exit(1)
}

// Nothing else does: one line per name, each of which must fail to compile.
let additions = [
    "DispatchQueue.immediate", "ImmediateScheduler.shared.eraseToAnyScheduler()",
    "DispatchQueue.main.eraseToAnyScheduler()", "RunLoop.main.eraseToAnyScheduler()",
    "Just(1).trace(\"probe\")",
]
let probes =
    extras.sorted().map { "_ = Combine.\($0).self" }
    + nestedAdditions.sorted().map { "_ = Combine.\($0).self" } + additions.map { "_ = \($0)" }
let refusing =
    "import Combine\nimport Foundation\nimport Dispatch\nfunc probes() {\n"
    + probes.map { "    \($0)\n" }.joined() + "}\n"
let refused = Set(try typecheck(refusing, named: "combine-extras.swift").compactMap { line in
    // "<file>:<line>:<column>: error: … has no member …": the probe on that line was refused (any
    // other error, an ambiguity say, means the name was found).
    line.contains("has no member") ? line.split(separator: ":").dropFirst().first.flatMap { Int($0) } : nil
})
let exported = probes.enumerated().filter { !refused.contains($0.offset + 5) }.map(\.element)
let unexpected = exported.filter { probe in !tolerated.contains { probe == "_ = Combine.\($0).self" } }
guard unexpected.isEmpty else {
    print("error: Combine exports names Combine does not have:\n  " + unexpected.joined(separator: "\n  "))
    exit(1)
}
let gone = tolerated.filter { name in !exported.contains("_ = Combine.\(name).self") }
guard gone.isEmpty else {
    print("error: no longer exported by Combine, remove from .ci/combine-names.txt: \(gone.sorted())")
    exit(1)
}
print(
    "Combine exports \(types.count) of Combine's types; of \(probes.count) other names, "
        + (exported.isEmpty ? "none" : "\(exported.count) listed additions of Ripple's and nothing else"))
