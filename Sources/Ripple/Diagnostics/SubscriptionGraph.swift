extension RippleDiagnostics {
    /// Live subscriptions as a graph — publishers and subscribers as nodes, each subscription the
    /// edge into its subscriber, labelled with its demand and values — ready to render as Graphviz
    /// DOT or Mermaid.
    ///
    /// A class publisher (a subject, say) is one node however many chains start from it; the
    /// operators of each chain are nodes of their own, as each subscription has its own.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let (cancellables, alive) = RippleDiagnostics.withRegistry {
    ///     [subject.map { $0 * 2 }.sink { _ in }, subject.sink { _ in }]
    /// }
    /// let graph = RippleDiagnostics.SubscriptionGraph(alive)
    /// print(graph.nodes.count, graph.edges.count)
    /// // Prints "4 3"
    /// print(graph.mermaid)
    /// cancellables.forEach { $0.cancel() }
    /// ```
    public struct SubscriptionGraph: Sendable, Hashable {
        /// A publisher or a subscriber.
        public struct Node: Sendable, Hashable {
            /// The node's name in DOT and Mermaid: `p1`, `p2`, … for publishers, `s` and the
            /// subscription's ID for subscribers.
            public let id: String
            /// What is drawn: the publisher's or subscriber's name.
            public let label: String
            /// Whether it is a subscriber (the end of a subscription) rather than a publisher.
            public let isSubscriber: Bool
        }

        /// A publisher feeding another, or a subscription (from its publisher to its subscriber).
        public struct Edge: Sendable, Hashable {
            /// The upstream node's ID.
            public let from: String
            /// The downstream node's ID.
            public let to: String
            /// For a subscription: its number, demand and values ("#3 · demand unlimited · 2
            /// values"); `nil` between publishers.
            public let label: String?
        }

        /// Publishers first, each after its upstreams, then subscribers.
        public let nodes: [Node]
        /// Publisher-to-publisher edges and one edge per subscription.
        public let edges: [Edge]

        /// The graph of `subscriptions`.
        public init(_ subscriptions: [LiveSubscription]) {
            var nodes: [Node] = []
            var edges: [Edge] = []
            var edgeSet = Set<Edge>()
            var objects: [ObjectIdentifier: String] = [:]
            var subscribers: [Node] = []

            // Sources first: a node is added after its upstreams.
            func add(_ publisher: PublisherNode) -> String {
                if let object = publisher.object, let id = objects[object] { return id }
                let upstreams = publisher.upstreams.map(add)
                let id = "p\(nodes.count + 1)"
                nodes.append(Node(id: id, label: publisher.name, isSubscriber: false))
                if let object = publisher.object { objects[object] = id }
                for upstream in upstreams {
                    let edge = Edge(from: upstream, to: id, label: nil)
                    if edgeSet.insert(edge).inserted { edges.append(edge) }
                }
                return id
            }

            for subscription in subscriptions {
                let publisher = add(subscription.publisher)
                let subscriber = Node(id: "s\(subscription.id)", label: subscription.subscriber, isSubscriber: true)
                subscribers.append(subscriber)
                var label = ["#\(subscription.id)"]
                if let demand = subscription.demand { label.append("demand " + LiveSubscription.describe(demand)) }
                if let values = subscription.valuesDelivered { label.append("\(values) value\(values == 1 ? "" : "s")") }
                edges.append(Edge(from: publisher, to: subscriber.id, label: label.joined(separator: " · ")))
            }
            self.nodes = nodes + subscribers
            self.edges = edges
        }

        /// The graph in Graphviz's DOT language (`dot -Tsvg graph.dot`): publishers as boxes,
        /// subscribers as ellipses, left to right.
        ///
        /// ```
        /// digraph Ripple {
        ///   rankdir=LR;
        ///   node [shape=box, fontname="Helvetica"];
        ///   p1 [label="PassthroughSubject"];
        ///   p2 [label="Map"];
        ///   s1 [label="Sink", shape=ellipse];
        ///   p1 -> p2;
        ///   p2 -> s1 [label="#1 · demand unlimited · 0 values"];
        /// }
        /// ```
        public var dot: String {
            var lines = ["digraph Ripple {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
            for node in nodes {
                let shape = node.isSubscriber ? ", shape=ellipse" : ""
                lines.append("  \(node.id) [label=\(Self.dotQuoted(node.label))\(shape)];")
            }
            for edge in edges {
                let label = edge.label.map { " [label=\(Self.dotQuoted($0))]" } ?? ""
                lines.append("  \(edge.from) -> \(edge.to)\(label);")
            }
            lines.append("}")
            return lines.joined(separator: "\n") + "\n"
        }

        /// The graph as a Mermaid flowchart (paste it into a code block fenced as `mermaid`): publishers
        /// as rectangles, subscribers as rounded ones, left to right.
        public var mermaid: String {
            var lines = ["flowchart LR"]
            for node in nodes {
                let label = Self.mermaidQuoted(node.label)
                lines.append("  " + node.id + (node.isSubscriber ? "([\(label)])" : "[\(label)]"))
            }
            for edge in edges {
                let label = edge.label.map { "|\(Self.mermaidQuoted($0))|" } ?? ""
                lines.append("  \(edge.from) -->\(label) \(edge.to)")
            }
            return lines.joined(separator: "\n") + "\n"
        }

        static func dotQuoted(_ text: String) -> String {
            var quoted = "\""
            for character in text {
                switch character {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case "\n": quoted += "\\n"
                default: quoted.append(character)
                }
            }
            return quoted + "\""
        }

        static func mermaidQuoted(_ text: String) -> String {
            // Mermaid has no escape inside a quoted label but its entity codes.
            var quoted = "\""
            for character in text {
                switch character {
                case "\"": quoted += "#quot;"
                case "\n": quoted += " "
                default: quoted.append(character)
                }
            }
            return quoted + "\""
        }
    }
}
