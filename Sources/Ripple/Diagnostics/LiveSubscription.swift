extension RippleDiagnostics {
    /// A subscription recorded by ``RippleDiagnostics``, as it was when the snapshot was taken.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let (cancellable, alive) = RippleDiagnostics.withRegistry {
    ///     subject.map { $0 + 1 }.sink { _ in }
    /// }
    /// print(alive[0].chain, alive[0].demand == .unlimited)
    /// // Prints "PassthroughSubject → Map → Sink true"
    /// cancellable.cancel()
    /// ```
    public struct LiveSubscription: Sendable, Identifiable, CustomStringConvertible {
        /// Where a subscription stands.
        public enum Status: Sendable, Hashable {
            /// Subscribed, not completed.
            case active
            /// Receiving a `.finished` completion (the snapshot was taken while its closure ran).
            case finished
            /// Receiving a failure, described.
            case failed(String)
        }

        /// A number that identifies the subscription in this process, in the order they were made.
        public let id: Int
        /// The publisher subscribed to: the last operator, with the chain above it as its upstreams.
        public let publisher: RippleDiagnostics.PublisherNode
        /// The subscriber's description: "Sink", "Assign Model." for `assign(to:on:)`, the subject's
        /// type for a subject ("PassthroughSubject"), or the type's name for a subscriber of your own.
        ///
        /// An ``AnySubscriber`` is described as the subscriber it wraps.
        public let subscriber: String
        /// The demand the subscriber has outstanding, where Ripple knows it without wrapping the
        /// subscriber: `.unlimited` for `sink`, `assign` and ``Subscribers/Sink``; `nil` (unknown) for a
        /// subject or a subscriber of your own.
        public let demand: Subscribers.Demand?
        /// How many values the subscriber has received, where Ripple counts them (`sink`); `nil`
        /// (unknown) for every other subscriber.
        public let valuesDelivered: Int?
        /// Whether it is active or receiving its completion.
        public let status: Status
        /// The thread that delivered the last value (a number that identifies it while it runs), or `nil`
        /// before the first value or where values are not counted.
        public let lastDeliveryThread: UInt?

        /// The publisher chain and the subscriber, source first: "PassthroughSubject → Map → Sink".
        public var chain: String { publisher.chain + " → " + subscriber }

        /// One line: the number, the chain, and what is known of its demand, values, status and thread
        /// (what is unknown is left out).
        public var description: String {
            var facts: [String] = []
            if let demand { facts.append("demand " + Self.describe(demand)) }
            if let valuesDelivered { facts.append("\(valuesDelivered) value\(valuesDelivered == 1 ? "" : "s")") }
            switch status {
            case .active: facts.append("active")
            case .finished: facts.append("finishing")
            case .failed(let error): facts.append("failing: \(error)")
            }
            if let lastDeliveryThread { facts.append("last on thread 0x" + String(lastDeliveryThread, radix: 16)) }
            return "#\(id) \(chain): " + facts.joined(separator: ", ")
        }

        /// The snapshot of a subscription the core recorded.
        init(_ recorded: RecordedSubscription) {
            id = recorded.id
            publisher = PublisherNode(recorded.publisher)
            subscriber = recorded.subscriber
            demand = recorded.demand
            valuesDelivered = recorded.valuesDelivered
            switch recorded.status {
            case .active: status = .active
            case .finished: status = .finished
            case .failed(let error): status = .failed(error)
            }
            lastDeliveryThread = recorded.lastDeliveryThread
        }

        static func describe(_ demand: Subscribers.Demand) -> String {
            demand == .unlimited ? "unlimited" : "\(demand.max ?? 0)"
        }
    }
}

extension RippleDiagnostics {
    /// A publisher in a recorded chain: its name, the object it is if it is a class (a subject, say),
    /// and the publishers it subscribes to.
    public struct PublisherNode: Sendable, Hashable, CustomStringConvertible {
        /// The publisher's type name without its generic arguments or module: "Map",
        /// "PassthroughSubject", "Published.Publisher".
        public let name: String
        /// The publisher object, for a class (subjects, `Future`, `share()`): the same object in two
        /// chains is one node of a ``SubscriptionGraph``. `nil` for a value type.
        public let object: ObjectIdentifier?
        /// The publishers this one subscribes to, as far as they can be seen: a value type's, and
        /// those of `share()`, `multicast` and `autoconnect()`; other class publishers (subjects,
        /// `Future`) have none here.
        public let upstreams: [PublisherNode]

        /// Creates a node; Ripple makes them from the publishers it records.
        public init(name: String, object: ObjectIdentifier? = nil, upstreams: [PublisherNode] = []) {
            self.name = name
            self.object = object
            self.upstreams = upstreams
        }

        /// The chain, source first: "PassthroughSubject → Map"; several upstreams are listed in
        /// parentheses: "(PassthroughSubject, Just) → Merge".
        public var chain: String {
            switch upstreams.count {
            case 0: return name
            case 1: return upstreams[0].chain + " → " + name
            default: return "(" + upstreams.map(\.chain).joined(separator: ", ") + ") → " + name
            }
        }

        /// The chain.
        public var description: String { chain }

        /// The node for a publisher the core recorded.
        init(_ recorded: RecordedPublisher) {
            self.init(name: recorded.name, object: recorded.object, upstreams: recorded.upstreams.map(PublisherNode.init))
        }
    }
}
