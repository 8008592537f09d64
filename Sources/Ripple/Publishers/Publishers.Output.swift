extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published elements.
    ///
    /// Elements before the range are dropped (each returns `.max(1)` upstream); once the range is
    /// exhausted the upstream is cancelled and the publisher finishes.
    public struct Output<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a `Output` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            require(range.lowerBound >= 0, "Publishers.Output: lower bound must not be negative")
            self.upstream = upstream
            self.range = range
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(OutputInner<S>(downstream: subscriber, range: range))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Republishes elements up to the specified maximum count, then finishes.
    ///
    /// ```swift
    /// let cancellable = (1...10).publisher.prefix(2).sink { print($0) }
    /// // Prints "1", "2"
    /// ```
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        require(maxLength >= 0, "prefix: maxLength must not be negative (got \(maxLength))")
        return Publishers.Output(upstream: self, range: 0..<maxLength)
    }
}

/// Counts elements against a range. Its state is touched only from the upstream's serial calls.
private final class OutputInner<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let range: CountableRange<Int>
    private var index = 0
    private var upstream: (any Subscription)?
    private var terminated = false

    init(downstream: Downstream, range: CountableRange<Int>) {
        self.downstream = downstream
        self.range = range
    }

    var description: String { "Output" }

    func receive(subscription: any Subscription) {
        guard upstream == nil, !terminated else {
            subscription.cancel()
            return
        }
        if range.isEmpty {
            // Nothing can ever be published: stop the upstream and finish.
            terminated = true
            subscription.cancel()
            downstream.receive(subscription: Subscriptions.empty)
            downstream.receive(completion: .finished)
            return
        }
        upstream = subscription
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !terminated else { return .none }
        let position = index
        index += 1
        if position < range.lowerBound {
            return .max(1)
        }
        let isLast = position == range.upperBound - 1
        if isLast {
            terminated = true
            let upstream = self.upstream
            self.upstream = nil
            upstream?.cancel()
        }
        let more = downstream.receive(input)
        if isLast {
            downstream.receive(completion: .finished)
            return .none
        }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard !terminated else { return }
        terminated = true
        upstream = nil
        downstream.receive(completion: completion)
    }
}
