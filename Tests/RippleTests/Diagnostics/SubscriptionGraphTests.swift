import Ripple
import Testing

@Suite struct SubscriptionGraphTests {
    /// One subject feeding two chains, plus a merge of two subjects.
    private func knownPipeline() -> ([AnyCancellable], [RippleDiagnostics.LiveSubscription]) {
        let subject = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        return RippleDiagnostics.withRegistry {
            let tokens = [
                subject.map { $0 + 1 }.sink { _ in },
                subject.filter { $0 > 0 }.sink { _ in },
                subject.merge(with: other).sink { _ in },
            ]
            subject.send(1)
            return tokens
        }
    }

    @Test func dotParsesBackToTheKnownNodesAndEdges() {
        let (tokens, alive) = knownPipeline()
        let dot = RippleDiagnostics.SubscriptionGraph(alive).dot
        let lines = dot.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
        #expect(lines.first == "digraph Ripple {")
        #expect(lines.last == "}")
        // Node statements: `id [label="…"…];`; edge statements: `a -> b…;`.
        let nodeLines = lines.filter { $0.contains(" [label=") && !$0.contains("->") }
        let edgeLines = lines.filter { $0.contains(" -> ") }
        var labels: [String: String] = [:]
        for line in nodeLines {
            let id = String(line.prefix { $0 != " " })
            let label = line.split(separator: "\"")[1]
            labels[id] = String(label)
        }
        // Publishers: the subject once, Map, Filter, the other subject, Merge; subscribers: 3 sinks.
        #expect(labels.values.sorted() == ["Filter", "Map", "Merge", "PassthroughSubject", "PassthroughSubject", "Sink", "Sink", "Sink"])
        #expect(nodeLines.count == 8)
        // subject→Map, subject→Filter, subject→Merge, other→Merge, and three subscriptions.
        #expect(edgeLines.count == 7)
        let edges = edgeLines.map { line -> (String, String) in
            let parts = line.split(separator: " ")
            return (String(parts[0]), String(parts[2].prefix { $0 != ";" }))
        }
        for (from, to) in edges {
            #expect(labels[from] != nil && labels[to] != nil)
            #expect(labels[from] != "Sink")
        }
        // The subject is one node with three edges out of it.
        let subjectIDs = labels.filter { $0.value == "PassthroughSubject" }.map(\.key)
        let fanOut = subjectIDs.map { id in edges.filter { $0.0 == id }.count }.sorted()
        #expect(fanOut == [1, 3])
        let subscriptionLabels = edgeLines.filter { $0.contains("label=") }
        #expect(subscriptionLabels.count == 3)
        #expect(subscriptionLabels.allSatisfy { $0.contains("demand unlimited") })
        #expect(subscriptionLabels.filter { $0.contains("· 1 value\"") }.count == 3)
        tokens.forEach { $0.cancel() }
    }

    @Test func mermaidHasTheSameNodesAndEdges() {
        let (tokens, alive) = knownPipeline()
        let graph = RippleDiagnostics.SubscriptionGraph(alive)
        let lines = graph.mermaid.split(separator: "\n")
        #expect(lines.first == "flowchart LR")
        #expect(lines.filter { $0.contains("-->") }.count == graph.edges.count)
        #expect(lines.dropFirst().filter { !$0.contains("-->") }.count == graph.nodes.count)
        #expect(graph.nodes.count == 8 && graph.edges.count == 7)
        #expect(lines.contains { $0.hasSuffix("([\"Sink\"])") })
        tokens.forEach { $0.cancel() }
    }

    @Test func textDumpListsEverySubscription() {
        let (tokens, alive) = knownPipeline()
        let text = RippleDiagnostics.dump(alive)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "3 live subscriptions")
        #expect(lines.dropFirst().map { $0.split(separator: ":")[0].split(separator: " ", maxSplits: 1)[1] } == [
            "PassthroughSubject → Map → Sink", "PassthroughSubject → Filter → Sink",
            "(PassthroughSubject, PassthroughSubject) → Merge → Sink",
        ])
        tokens.forEach { $0.cancel() }
    }
}
