// Checks that the folders of each module in Sources/ form no cycle: for each folder (a directory
// below the module's own, by its path), which other folders of the same module it names — a type,
// protocol, type alias or top-level function declared there, used or extended here — and fails
// when a strongly connected component holds more than one folder.
//
// It reads the files as text: comments and string literals are dropped, names are whole
// identifiers. A declaration counts when it is at the top level of a file or directly inside an
// extension of a namespace (`extension Publishers { struct Map … }`). A name declared in the
// folder itself is not an edge, nor is one the file declares again at any depth (a private method
// `attempt` is not the top-level `attempt`). A namespaced name that is also a member's name
// (`Publishers.Output` and every publisher's `Output`) or the standard library's
// (`Publishers.Sequence`) counts only written in full. Names declared in more than one folder of a
// module are listed, and name each of them.
//
// Usage: swift .ci/check-folder-cycles.swift [--markdown] [SOURCES_DIR]
//   --markdown prints the graph of every module as a Markdown list (Documentation/Engine.md).
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let markdown = arguments.contains("--markdown")
arguments.removeAll { $0 == "--markdown" }
let sourcesRoot = arguments.first ?? "Sources"
let fileManager = FileManager.default

/// The text of a Swift file without comments and string literals (each replaced by a space).
func stripped(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    let count = bytes.count
    func at(_ offset: Int) -> UInt8 { index + offset < count ? bytes[index + offset] : 0 }
    while index < count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "/") && at(1) == UInt8(ascii: "/") {
            while index < count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
        } else if byte == UInt8(ascii: "/") && at(1) == UInt8(ascii: "*") {
            var depth = 0
            repeat {
                if bytes[index] == UInt8(ascii: "/") && at(1) == UInt8(ascii: "*") { depth += 1; index += 2 }
                else if bytes[index] == UInt8(ascii: "*") && at(1) == UInt8(ascii: "/") { depth -= 1; index += 2 }
                else { index += 1 }
            } while depth > 0 && index < count
            out.append(UInt8(ascii: " "))
        } else if byte == UInt8(ascii: "\"") {
            // A string literal ("…", """…""", #"…"#), its interpolations included: a name in an
            // interpolation is rare enough in Sources/ to be passed over.
            let triple = at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"")
            index += triple ? 3 : 1
            while index < count {
                if bytes[index] == UInt8(ascii: "\\") { index += 2; continue }
                if triple {
                    if bytes[index] == UInt8(ascii: "\"") && at(1) == UInt8(ascii: "\"") && at(2) == UInt8(ascii: "\"") {
                        index += 3; break
                    }
                } else if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\n") {
                    index += 1; break
                }
                index += 1
            }
            out.append(UInt8(ascii: " "))
        } else {
            out.append(byte)
            index += 1
        }
    }
    return out
}

func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == 95
}

/// The tokens of stripped text: identifiers, and `{` / `}` (other punctuation as "." or dropped).
func tokens(_ bytes: [UInt8]) -> [String] {
    var result: [String] = []
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        if isIdentifierByte(byte) {
            let start = index
            while index < bytes.count && isIdentifierByte(bytes[index]) { index += 1 }
            result.append(String(decoding: bytes[start..<index], as: UTF8.self))
            continue
        }
        if byte == UInt8(ascii: "{") { result.append("{") }
        if byte == UInt8(ascii: "}") { result.append("}") }
        if byte == UInt8(ascii: ".") { result.append(".") }
        index += 1
    }
    return result
}

let typeKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
let topLevelKeywords = typeKeywords.union(["func", "let", "var"])
let namespaces: Set<String> = ["Publishers", "Subscribers"]

struct SwiftFile {
    let folder: String
    let tokens: [String]
}

/// The names a file declares where other files can name them (`namespaced`: inside an extension of
/// a namespace), and the names it gives members (associated types, nested type aliases).
func declarations(in tokens: [String]) -> (names: Set<String>, namespaced: Set<String>, members: Set<String>) {
    var names: Set<String> = []
    var namespaced: Set<String> = []
    var members: Set<String> = []
    var depth = 0
    var namespaceDepth: Int? = nil  // the depth inside `extension Publishers {`
    var pendingNamespace = false
    var index = 0
    while index < tokens.count {
        let token = tokens[index]
        switch token {
        case "{":
            depth += 1
            if pendingNamespace { namespaceDepth = depth; pendingNamespace = false }
        case "}":
            if namespaceDepth == depth { namespaceDepth = nil }
            depth -= 1
        case "extension" where depth == 0:
            // `extension Publishers {` or `extension Publishers where … {` — not `Publishers.Map`.
            if index + 2 < tokens.count, namespaces.contains(tokens[index + 1]), tokens[index + 2] != "." {
                pendingNamespace = true
            }
        case "associatedtype", "typealias" where depth > 0:
            if index + 1 < tokens.count { members.insert(tokens[index + 1]) }
        default:
            let declares = (depth == 0 && topLevelKeywords.contains(token))
                || (depth == 1 && namespaceDepth == 1 && typeKeywords.contains(token))
            if declares, index + 1 < tokens.count {
                let name = tokens[index + 1]
                // `class func`, `class var` are members, not classes.
                if let first = name.unicodeScalars.first, name != "func", name != "var",
                   CharacterSet.letters.contains(first) || first == "_" {
                    if depth == 0 { names.insert(name) } else { namespaced.insert(name) }
                }
            }
        }
        index += 1
    }
    return (names, namespaced, members)
}

func swiftFiles(under directory: String) -> [String] {
    guard let enumerator = fileManager.enumerator(atPath: directory) else { return [] }
    return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
}

/// Tarjan's strongly connected components.
func components(of graph: [String: Set<String>]) -> [[String]] {
    var index = 0
    var indices: [String: Int] = [:]
    var lowlinks: [String: Int] = [:]
    var stack: [String] = []
    var onStack: Set<String> = []
    var result: [[String]] = []
    func connect(_ node: String) {
        indices[node] = index
        lowlinks[node] = index
        index += 1
        stack.append(node)
        onStack.insert(node)
        for next in graph[node, default: []].sorted() {
            if indices[next] == nil {
                connect(next)
                lowlinks[node] = min(lowlinks[node]!, lowlinks[next]!)
            } else if onStack.contains(next) {
                lowlinks[node] = min(lowlinks[node]!, indices[next]!)
            }
        }
        if lowlinks[node] == indices[node] {
            var component: [String] = []
            while let top = stack.popLast() {
                onStack.remove(top)
                component.append(top)
                if top == node { break }
            }
            result.append(component.sorted())
        }
    }
    for node in graph.keys.sorted() where indices[node] == nil { connect(node) }
    return result
}

let modules = ((try? fileManager.contentsOfDirectory(atPath: sourcesRoot)) ?? []).sorted().filter {
    var isDirectory: ObjCBool = false
    return fileManager.fileExists(atPath: "\(sourcesRoot)/\($0)", isDirectory: &isDirectory) && isDirectory.boolValue
}
var cycles = 0
var mutualPairs: [String] = []
for module in modules {
    let root = "\(sourcesRoot)/\(module)"
    var files: [SwiftFile] = []
    for path in swiftFiles(under: root) {
        guard let text = try? String(contentsOfFile: "\(root)/\(path)", encoding: .utf8) else { continue }
        let directory = (path as NSString).deletingLastPathComponent
        files.append(SwiftFile(folder: directory.isEmpty ? "." : directory, tokens: tokens(stripped(text))))
    }
    let folders = Set(files.map(\.folder))
    guard folders.count > 1 else { continue }

    var owners: [String: Set<String>] = [:]
    var namespaced: Set<String> = []
    var members: Set<String> = ["Sequence"]
    for file in files {
        let declared = declarations(in: file.tokens)
        for name in declared.names.union(declared.namespaced) { owners[name, default: []].insert(file.folder) }
        namespaced.formUnion(declared.namespaced)
        members.formUnion(declared.members)
    }
    let onlyInFull = namespaced.intersection(members)
    /// The names a file uses that some folder of the module declares and the file does not declare
    /// again itself.
    func named(in tokens: [String]) -> Set<String> {
        var local: Set<String> = []
        for (index, token) in tokens.enumerated().dropLast() where topLevelKeywords.contains(token) {
            local.insert(tokens[index + 1])
        }
        var result: Set<String> = []
        for (index, token) in tokens.enumerated() where owners[token] != nil && !local.contains(token) {
            if onlyInFull.contains(token) {
                guard index >= 2, tokens[index - 1] == ".", namespaces.contains(tokens[index - 2]) else { continue }
            }
            result.insert(token)
        }
        return result
    }
    var graph: [String: Set<String>] = [:]
    var reasons: [String: [String: Set<String>]] = [:]  // folder → named folder → names
    for folder in folders { graph[folder] = [] }
    for file in files {
        for token in named(in: file.tokens) {
            guard let declaredIn = owners[token], !declaredIn.contains(file.folder) else { continue }
            for other in declaredIn {
                graph[file.folder]!.insert(other)
                reasons[file.folder, default: [:]][other, default: []].insert(token)
            }
        }
    }

    let shared = owners.filter { $0.value.count > 1 }.keys.sorted()
    if markdown {
        // From the floor up: a folder after every folder it names (by the length of the longest
        // chain below it), where there is no cycle.
        var levels: [String: Int] = [:]
        func level(_ folder: String, _ seen: Set<String>) -> Int {
            if let known = levels[folder] { return known }
            if seen.contains(folder) { return 0 }
            let result = graph[folder]!.map { level($0, seen.union([folder])) + 1 }.max() ?? 0
            levels[folder] = result
            return result
        }
        print("- `\(module)`, from the floor up")
        for folder in folders.sorted(by: { (level($0, []), $0) < (level($1, []), $1) }) {
            let named = graph[folder]!.sorted()
            print("  - `\(folder)/` → \(named.isEmpty ? "nothing" : named.map { "`\($0)/`" }.joined(separator: ", "))")
        }
    } else {
        print("\(module):")
        for folder in folders.sorted() {
            let named = graph[folder]!.sorted().map { other in
                let names = reasons[folder]?[other]?.sorted() ?? []
                let shown = names.prefix(4).joined(separator: ", ") + (names.count > 4 ? ", …" : "")
                return "\(other) (\(shown))"
            }
            print("  \(folder) → \(named.isEmpty ? "nothing" : named.joined(separator: "; "))")
        }
        if !shared.isEmpty {
            print("  declared in more than one folder: " + shared.map { "\($0) (\(owners[$0]!.sorted().joined(separator: ", ")))" }.joined(separator: "; "))
        }
    }
    for folder in folders.sorted() {
        for other in graph[folder]!.sorted() where folder < other && graph[other]!.contains(folder) {
            mutualPairs.append("\(module): \(folder) ⇄ \(other)")
        }
    }
    for component in components(of: graph) where component.count > 1 {
        cycles += 1
        let report = "error: \(module): a folder cycle: " + component.map { folder in
            let inside = graph[folder]!.intersection(component).sorted().map { other in
                "\(folder) → \(other) (\((reasons[folder]?[other] ?? []).sorted().joined(separator: ", ")))"
            }
            return inside.joined(separator: "; ")
        }.joined(separator: "; ")
        FileHandle.standardError.write(Data((report + "\n").utf8))
    }
}
if !markdown {
    print(cycles == 0 ? "0 folder cycles" : "\(cycles) folder cycle(s), \(mutualPairs.count) of two folders naming each other:")
    for pair in mutualPairs { print("  \(pair)") }
}
exit(cycles == 0 ? 0 : 1)
