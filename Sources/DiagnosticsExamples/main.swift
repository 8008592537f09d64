// Writes the example diagnostics files in Documentation/Diagnostics: a marble diagram of a failing
// expectation as SVG, a Chrome trace-event file of a small pipeline (open it in ui.perfetto.dev),
// and the live graph of a model as Graphviz DOT and Mermaid.
//
//     swift run DiagnosticsExamples [output directory, Documentation/Diagnostics by default]
import Dispatch
import Foundation
import RippleTesting

let directory = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Documentation/Diagnostics")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

func write(_ text: String, to name: String) throws {
    try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    print("wrote \(directory.appendingPathComponent(name).relativePath)")
}

// 1. A debounced search field on virtual time, compared with a diagram that expects the search one
// frame too early: the comparison drawn as SVG, as a failing `expectMarbles` attaches it.
let scheduler = TestScheduler()
let keystrokes = PassthroughSubject<String, Never>()
let queries = keystrokes.debounce(for: .milliseconds(200), scheduler: scheduler).record(on: scheduler)
for (time, text) in [(100, "r"), (200, "ri"), (300, "rip"), (800, "ripp"), (900, "rippl"), (1_000, "ripple")] {
    scheduler.advance(to: .after(.milliseconds(time)))
    keystrokes.send(text)
}
scheduler.advance(by: .milliseconds(300))
keystrokes.send(completion: .finished)
scheduler.advance()
let comparison = queries.compare(
    toMarbles: "----p------q|", frame: .milliseconds(100), values: ["p": "rip", "q": "ripple"])
print(comparison)
try write(comparison.svg, to: "marbles.svg")

// 2. A trace of a pipeline whose values arrive on two threads, with one subscription cancelled and
// one finished.
let timeline = RippleDiagnostics.Timeline()
let prices = PassthroughSubject<Int, Never>()
let display = prices.trace("prices", to: timeline)
    .map { "$\($0)" }
    .trace("labels", to: timeline)
    .sink { _ in }
let alerts = prices.filter { $0 > 100 }.trace("alerts", to: timeline).sink { _ in }
prices.send(99)
let worker = DispatchQueue(label: "worker")
worker.sync { prices.send(120) }
usleep(2_000)
alerts.cancel()
prices.send(101)
worker.sync { prices.send(98) }
prices.send(completion: .finished)
withExtendedLifetime(display) {}
try write(timeline.chromeTraceJSON(), to: "trace.json")

// 3. The live graph of a small model.
final class Model {
    let query = PassthroughSubject<String, Never>()
    let favourites = CurrentValueSubject<Set<String>, Never>([])
    var cancellables = Set<AnyCancellable>()
    init() {
        query.map { $0.lowercased() }.removeDuplicates().sink { _ in }.store(in: &cancellables)
        query.merge(with: favourites.compactMap(\.first)).sink { _ in }.store(in: &cancellables)
        favourites.map(\.count).sink { _ in }.store(in: &cancellables)
    }
}
let (model, alive) = RippleDiagnostics.withRegistry {
    let model = Model()
    model.query.send("Ripple")
    return model
}
let graph = RippleDiagnostics.graph(alive)
try write(graph.dot, to: "graph.dot")
try write(graph.mermaid, to: "graph.mmd")
withExtendedLifetime(model) {}
