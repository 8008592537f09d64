#if canImport(Combine)
import Combine
#endif

extension Publishers {
    /// A hand-written operator with its own subscription: passes on every second value.
    public struct EveryOther<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        public let upstream: Upstream

        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }
    }
}

extension Publishers.EveryOther {
    /// Sits between upstream and downstream: a `Combine.Subscriber` upstream, a
    /// `Combine.Subscription` downstream.
    private final class Inner<Downstream: Subscriber>: Combine.Subscriber, Combine.Subscription
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let downstream: Downstream
        private var upstream: (any Combine.Subscription)?
        private var skipNext = false

        init(downstream: Downstream) { self.downstream = downstream }

        func receive(subscription: any Combine.Subscription) {
            upstream = subscription
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Combine.Subscribers.Demand {
            defer { skipNext.toggle() }
            if skipNext { return .max(1) }  // dropped: ask upstream for its replacement
            return downstream.receive(input)
        }

        func receive(completion: Combine.Subscribers.Completion<Failure>) {
            upstream = nil
            downstream.receive(completion: completion)
        }

        func request(_ demand: Combine.Subscribers.Demand) {
            upstream?.request(demand)
        }

        func cancel() {
            upstream?.cancel()
            upstream = nil
        }
    }
}

extension Publisher {
    /// Passes on the first, third, fifth … value.
    public func everyOther() -> Publishers.EveryOther<Self> {
        Publishers.EveryOther(upstream: self)
    }
}
