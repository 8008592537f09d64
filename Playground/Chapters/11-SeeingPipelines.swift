import Ripple

/// Chapter 11: seeing pipelines — a view model that leaks its subscriptions, found by the
/// registry, drawn as a graph, and a trace of one pipeline's events.
struct SeeingPipelinesChapter: Chapter {
    let title = "Seeing your pipelines: leaks, graphs and timelines"
    let summary = """
        A view model stores its sinks in a Set<AnyCancellable>, and one sink captures self: model and
        subscription keep each other alive. RippleDiagnostics.withRegistry records what the code makes
        and lists what is still alive afterwards, with the chain that made it; the live graph prints as
        text, Graphviz DOT or Mermaid; trace(_:) records a pipeline's events for Perfetto.
        """

    final class SearchModel {
        let query = PassthroughSubject<String, Never>()
        let favourites = CurrentValueSubject<Set<String>, Never>([])
        private(set) var results: [String] = []
        private(set) var favouriteCount = 0
        private var cancellables = Set<AnyCancellable>()

        init(capturingSelf: Bool) {
            if capturingSelf {
                query.map { $0.lowercased() }.removeDuplicates()
                    .sink { self.results.append($0) }  // `self`, strongly: a cycle
                    .store(in: &cancellables)
            } else {
                query.map { $0.lowercased() }.removeDuplicates()
                    .sink { [weak self] in self?.results.append($0) }
                    .store(in: &cancellables)
            }
            favourites.map(\.count).sink { [weak self] in self?.favouriteCount = $0 }.store(in: &cancellables)
        }
    }

    func run() async {
        show("Example 11.1: the model is dropped — which of its subscriptions are still alive?")
        let (_, leaked) = RippleDiagnostics.withRegistry {
            let model = SearchModel(capturingSelf: true)
            model.query.send("Ripple")
            model.query.send("ripple")
        }
        show("  \(leaked.count) subscription(s) still alive after the model was dropped:")
        for subscription in leaked { show("    " + subscription.description) }
        show("  Both: the cycle through the first sink keeps the model, and the model keeps the second.")
        print("")

        show("Example 11.2: the same model with [weak self]")
        let (_, none) = RippleDiagnostics.withRegistry {
            let model = SearchModel(capturingSelf: false)
            model.query.send("Ripple")
        }
        show("  still alive: \(none.count)")
        print("")

        show("Example 11.3: the live graph, while a model is in use")
        let (model, alive) = RippleDiagnostics.withRegistry { () -> SearchModel in
            let model = SearchModel(capturingSelf: false)
            model.query.send("graph")
            model.favourites.send(["a", "b"])
            return model
        }
        let graph = RippleDiagnostics.graph(alive)
        show("  as text:")
        for line in RippleDiagnostics.dump(alive).split(separator: "\n") { show("    " + line) }
        show("  as Mermaid (\(graph.nodes.count) nodes, \(graph.edges.count) edges):")
        for line in graph.mermaid.split(separator: "\n") { show("    " + line) }
        show("  as Graphviz DOT:")
        for line in graph.dot.split(separator: "\n") { show("    " + line) }
        withExtendedLifetime(model) {}
        print("")

        show("Example 11.4: a trace of one pipeline (open the JSON in ui.perfetto.dev)")
        let timeline = RippleDiagnostics.Timeline()
        let keystrokes = PassthroughSubject<String, Never>()
        let search = keystrokes.trace("keystrokes", to: timeline)
            .filter { $0.count > 1 }
            .trace("queries", to: timeline)
            .sink { _ in }
        for text in ["r", "ri", "rip"] { keystrokes.send(text) }
        search.cancel()
        for event in timeline.events {
            show("  \(event.name) #\(event.subscription): \(event.kind)")
        }
        let json = timeline.chromeTraceJSON()
        show("  chromeTraceJSON(): \(json.split(separator: "\n").count - 2) trace events, one track per subscription")
    }
}
