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
        /// The subscriber's description: "Sink", or "Assign Model." for `assign(to:on:)`.
        public let subscriber: String
        /// The demand the subscriber has outstanding, where Ripple knows it (`.unlimited` for `sink` and
        /// `assign`).
        public let demand: Subscribers.Demand?
        /// How many values the subscriber has received, where Ripple counts them (`sink`; `nil` for
        /// `assign`).
        public let valuesDelivered: Int?
        /// Whether it is active or receiving its completion.
        public let status: Status
        /// The thread that delivered the last value (a number that identifies it while it runs), or `nil`
        /// before the first value or where values are not counted.
        public let lastDeliveryThread: UInt?

        /// The publisher chain and the subscriber, source first: "PassthroughSubject → Map → Sink".
        public var chain: String { publisher.chain + " → " + subscriber }

        /// One line: the number, the chain, and what is known of its demand, values, status and thread.
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
        /// The publishers this one subscribes to, as far as they can be seen (a class publisher's
        /// upstreams are not looked into).
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

        /// The node for `publisher`, walking its upstreams through its mirror.
        static func of(_ publisher: Any) -> PublisherNode {
            var budget = 256
            return make(publisher, depth: 0, budget: &budget)
        }

        private static func make(_ publisher: Any, depth: Int, budget: inout Int) -> PublisherNode {
            budget -= 1
            let type = type(of: publisher)
            let name = shortName(of: type)
            // A class publisher is a source here: reading its stored properties through a mirror
            // could race with its own lock.
            if type is AnyClass {
                let object = (publisher as? any DiagnosticSource)?.diagnosticIdentity
                return PublisherNode(name: name, object: object ?? ObjectIdentifier(publisher as AnyObject))
            }
            var upstreams: [PublisherNode] = []
            if depth < 64 && budget > 0 {
                for child in Mirror(reflecting: publisher).children where child.value is any Publisher {
                    upstreams.append(make(child.value, depth: depth + 1, budget: &budget))
                }
            }
            return PublisherNode(name: name, upstreams: upstreams)
        }

        /// "Ripple.Publishers.Map<…>" → "Map", "Ripple.Published<Swift.Int>.Publisher" →
        /// "Published.Publisher".
        static func shortName(of type: Any.Type) -> String {
            let key = ObjectIdentifier(type)
            if let name = shortNames.withLock({ $0[key] }) { return name }
            let name = makeShortName(of: type)
            shortNames.withLock { $0[key] = name }
            return name
        }

        /// ``shortName(of:)`` of the types seen so far (`String(reflecting:)` is most of the cost
        /// of recording a subscription).
        private static let shortNames = LockedValue<[ObjectIdentifier: String]>([:])

        private static func makeShortName(of type: Any.Type) -> String {
            var plain = ""
            var depth = 0
            for character in String(reflecting: type) {
                switch character {
                case "<": depth += 1
                case ">": depth -= 1
                default: if depth == 0 { plain.append(character) }
                }
            }
            var parts = plain.split(separator: ".").filter { !$0.hasPrefix("(") }
            if parts.count > 1 { parts.removeFirst() }  // the module
            if parts.count > 1 && parts[0] == "Publishers" { parts.removeFirst() }
            return parts.joined(separator: ".")
        }
    }
}

extension RippleDiagnostics {
    /// `sink` on any publisher, recorded: a ``Subscribers/Sink`` given counting closures. Not
    /// inlinable, so that the client's specialized code for the unrecorded path is not duplicated
    /// here. Reached only while diagnostics are on.
    @usableFromInline
    static func recordedSink<P: Publisher>(
        on publisher: P, receiveCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void,
        receiveValue: @escaping (P.Output) -> Void
    ) -> AnyCancellable {
        recordSink(on: publisher, receiveCompletion: receiveCompletion, receiveValue: receiveValue) {
            receiveCompletion, receiveValue in
            let sink = Subscribers.Sink<P.Output, P.Failure>(
                receiveCompletion: receiveCompletion ?? { _ in }, receiveValue: receiveValue)
            publisher.subscribe(sink)
            return AnyCancellable(object: sink)
        }
    }

    /// `sink` on a subject-backed publisher, recorded: its closures, counting, attached to the
    /// subject's conduit. Reached only while diagnostics are on.
    @usableFromInline
    static func recordedSubjectSink<P: _SubjectBacked>(
        on publisher: P, receiveCompletion: ((Subscribers.Completion<P.Failure>) -> Void)?,
        receiveValue: @escaping (P.Output) -> Void
    ) -> AnyCancellable {
        recordSink(on: publisher, receiveCompletion: receiveCompletion, receiveValue: receiveValue) {
            publisher._attachSink(receiveCompletion: $0, receiveValue: $1)
        }
    }

    /// Records a `sink` on `publisher` and gives `attach` closures that count values and end the
    /// record when the sink lets them go.
    static func recordSink<P: Publisher>(
        on publisher: P, receiveCompletion: ((Subscribers.Completion<P.Failure>) -> Void)?,
        receiveValue: @escaping (P.Output) -> Void,
        attach: (((Subscribers.Completion<P.Failure>) -> Void)?, @escaping (P.Output) -> Void) -> AnyCancellable
    ) -> AnyCancellable {
        let probe = SubscriptionRegistry.shared.registerSink(publisher: .of(publisher))
        return attach(receiveCompletion.map(probe.counting), probe.counting(receiveValue))
    }

    /// Records a subscriber that is looked at through a weak reference (`assign`): `isLive` says
    /// whether it is still subscribed. Reached only while diagnostics are on.
    static func recordObject<P: Publisher>(
        on publisher: P, subscriber: AnyObject, description: String, isLive: @escaping @Sendable (AnyObject) -> Bool
    ) {
        _ = SubscriptionRegistry.shared.register(
            publisher: .of(publisher), subscriber: description, demand: .unlimited, countsValues: false,
            object: subscriber, isLive: isLive)
    }
}

/// A publisher whose identity in ``RippleDiagnostics``' graphs is an object of its own (a subject's
/// storage), the same one its conduits report, so that both ways of subscribing meet in one node.
protocol DiagnosticSource {
    var diagnosticIdentity: ObjectIdentifier { get }
}

extension PassthroughSubject: DiagnosticSource {
    var diagnosticIdentity: ObjectIdentifier { ObjectIdentifier(core) }
}

extension CurrentValueSubject: DiagnosticSource {
    var diagnosticIdentity: ObjectIdentifier { ObjectIdentifier(core) }
}

extension ObservableObjectPublisher: DiagnosticSource {
    var diagnosticIdentity: ObjectIdentifier { ObjectIdentifier(core) }
}
