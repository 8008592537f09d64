extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into new publishers and
    /// merges their output.
    ///
    /// It asks the upstream for `maxPublishers` elements at first and for one more each time an
    /// inner publisher finishes, so no more than `maxPublishers` inner publishers run at once. Inner
    /// values are merged as by ``Publishers/MergeMany`` (see its demand rules), except that, as in
    /// Combine, each inner publisher is asked for one element as soon as it is subscribed and for the
    /// next one each time it delivers, even while the subscriber has no demand: that element waits
    /// here (one per inner publisher), and an inner publisher that finishes meanwhile makes room for
    /// the next one. It finishes when the upstream and every inner
    /// publisher have finished and nothing waits; any failure cancels everything and fails.
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` gets nothing more —
    /// not the elements still waiting here, not a completion (a drain under way when the cancel
    /// comes stops there): nothing is delivered after `cancel()` returns.
    ///
    /// Differs from Combine: an upstream that fails again from inside the cancel of an inner
    /// publisher (the cancel its first failure started) fails the stream once; Combine traps.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand
        /// A closure that takes an element as a parameter and returns a publisher that produces
        /// elements of that type.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a `FlatMap` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        @inlinable
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, outerIsBounded: maxPublishers != .unlimited, name: "FlatMap")
            core.start()
            upstream.receive(subscriber: FlatMapOuter(core: core, maxPublishers: maxPublishers, transform: transform))
        }
    }
}

@usableFromInline
final class FlatMapOuter<Downstream: Subscriber, Input, NewPublisher: Publisher>: Subscriber,
    CustomStringConvertible
where NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let core: MergeCore<Downstream>
    @usableFromInline let maxPublishers: Subscribers.Demand
    @usableFromInline let transform: (Input) -> NewPublisher

    @inlinable
    init(core: MergeCore<Downstream>, maxPublishers: Subscribers.Demand, transform: @escaping (Input) -> NewPublisher) {
        self.core = core
        self.maxPublishers = maxPublishers
        self.transform = transform
    }

    @usableFromInline var description: String { "FlatMap" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard core.outerReceive(subscription: subscription) else {
            subscription.cancel()
            return
        }
        subscription.request(maxPublishers)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        core.addChild(transform(input))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        core.outerReceive(completion: completion)
    }
}

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum
    /// number of publishers you specify.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .flatMap { value in [value, value * 10].publisher }
    ///     .sink { print($0) }
    /// // Prints "1", "10", "2", "20"
    /// ```
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from an upstream publisher that cannot fail into new publishers that
    /// can.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(upstream: setFailureType(to: P.Failure.self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher that cannot fail into new publishers that
    /// cannot fail either.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Transforms all elements into new publishers that cannot fail, for an upstream that can.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}
