// Checks that every public declaration of Ripple's library modules has a `///` doc comment.
// Reads the symbol graphs `swift package dump-symbol-graph` wrote; prints each undocumented
// declaration with its file and line, and exits 1 if there is any.
//
// Usage: swift .ci/check-docs.swift .build/<triple>/symbolgraph
import Foundation

let modules = [
    "RippleCore", "RippleTrackingTypes", "RippleFoundationCore", "Ripple", "RippleFoundation", "RippleSchedulers",
    "RippleTesting", "RippleUI", "RippleObservation",
]
let directory = CommandLine.arguments.dropFirst().first ?? ".build/x86_64-unknown-linux-gnu/symbolgraph"
var missing: [String] = []

for module in modules {
    let url = URL(fileURLWithPath: directory).appendingPathComponent("\(module).symbols.json")
    guard let data = try? Data(contentsOf: url),
        let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let symbols = graph["symbols"] as? [[String: Any]]
    else {
        print("error: no symbol graph for \(module) at \(url.path)")
        exit(1)
    }
    for symbol in symbols {
        guard let access = symbol["accessLevel"] as? String, access == "public" || access == "open" else { continue }
        guard symbol["docComment"] == nil else { continue }
        let path = symbol["pathComponents"] as? [String] ?? []
        // Names starting with an underscore are not API.
        if path.contains(where: { $0.hasPrefix("_") }) { continue }
        let location = symbol["location"] as? [String: Any]
        let uri = location?["uri"] as? String ?? ""
        // Only declarations written in this module (not inherited from the standard library).
        guard uri.contains("/Sources/\(module)/") else { continue }
        let line = ((location?["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
        let file = uri.components(separatedBy: "/Sources/").last ?? uri
        missing.append("Sources/\(file):\(line): \(module).\(path.joined(separator: "."))")
    }
}

if missing.isEmpty {
    print("every public declaration has a doc comment")
} else {
    for line in Set(missing).sorted() { print(line) }
    print("\(Set(missing).count) public declarations without a doc comment")
    exit(1)
}
