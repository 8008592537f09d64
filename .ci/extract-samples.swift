// Extracts every Swift code sample of the README and the DocC articles into one file per sample, so
// `.ci/check-samples` can compile each of them on its own in Swift 6 language mode.
//
// The convention (README, "Samples in this documentation"):
// - A block fenced as ```swift is compiled. Shell commands, output and layouts use another fence
//   (```sh, ```text, or a bare ```), which is never compiled.
// - A Swift block with no `import` line is compiled with `import Ripple` in front (the module of
//   the catalog it is in, for a DocC article outside Ripple's).
// - `<!-- sample: continues -->` on the line before a fence: the block is compiled together with the
//   Swift block before it in the same file (it uses what that one declared).
// - `<!-- sample: not compiled, <why> -->` on the line before a fence: the block is not compiled (a
//   fragment that only makes sense inside another; say why).
//
// Usage: swift .ci/extract-samples.swift OUTPUT_DIRECTORY
import Foundation

let output = CommandLine.arguments.dropFirst().first ?? ".build/samples"
let fileManager = FileManager.default
try? fileManager.removeItem(atPath: output)
try fileManager.createDirectory(atPath: output, withIntermediateDirectories: true)

var documents = ["README.md"]
if let enumerator = fileManager.enumerator(atPath: "Sources") {
    for case let path as String in enumerator where path.hasSuffix(".md") && path.contains(".docc/") {
        documents.append("Sources/" + path)
    }
}

struct Sample {
    var document: String
    var line: Int
    var code: String
}

func module(of document: String) -> String {
    // Sources/<Module>/<Module>.docc/...: the catalog's module; the README and Ripple's catalog: Ripple.
    let parts = document.split(separator: "/")
    return parts.count > 2 && parts[0] == "Sources" ? String(parts[1]) : "Ripple"
}

var samples: [Sample] = []
var skipped = 0
for document in documents.sorted() {
    guard let text = try? String(contentsOfFile: document, encoding: .utf8) else { continue }
    let lines = text.components(separatedBy: "\n")
    var index = 0
    var previousMarker = ""
    while index < lines.count {
        let line = lines[index].trimmingCharacters(in: .whitespaces)
        if line.hasPrefix("```") {
            let language = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
            let start = index + 1
            index += 1
            var body: [String] = []
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            if language == "swift" {
                if previousMarker.hasPrefix("<!-- sample: not compiled") {
                    skipped += 1
                } else if previousMarker.hasPrefix("<!-- sample: continues"), let last = samples.last,
                    last.document == document
                {
                    samples[samples.count - 1].code += "\n" + body.joined(separator: "\n")
                } else {
                    samples.append(Sample(document: document, line: start, code: body.joined(separator: "\n")))
                }
            }
            previousMarker = ""
        } else if !line.isEmpty {
            previousMarker = line
        }
        index += 1
    }
}

for (number, sample) in samples.enumerated() {
    let hasImport = sample.code.components(separatedBy: "\n").contains {
        $0.trimmingCharacters(in: .whitespaces).range(of: #"^(@\w+\s+)*import\s"#, options: .regularExpression) != nil
    }
    let prelude = hasImport ? "" : "import \(module(of: sample.document))\n"
    let name = sample.document.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".md", with: "")
    let file = "\(output)/\(String(format: "%02d", number))-\(name)-L\(sample.line).swift"
    // A #sourceLocation line makes compiler errors point at the Markdown file and line.
    let source = prelude + "#sourceLocation(file: \"\(sample.document)\", line: \(sample.line))\n" + sample.code + "\n"
    try source.write(toFile: file, atomically: true, encoding: .utf8)
}
print("\(samples.count) Swift samples from \(documents.count) documents (\(skipped) marked not compiled)")
