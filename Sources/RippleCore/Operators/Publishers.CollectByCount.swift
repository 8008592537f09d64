extension Publishers {
    /// A publisher that buffers a maximum number of items.
    ///
    /// Each downstream request for `n` arrays asks the upstream for `n × count` elements. A full
    /// buffer is published at once; when the upstream finishes, a partly filled buffer is published
    /// before `.finished`; a failure drops the buffer.
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` of that last, partly
    /// filled buffer gets no `.finished` (Combine's sends it), as with ``Just``: nothing is
    /// delivered after `cancel()` returns.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a `CollectByCount` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, count: Int) {
            require(count > 0, "collect(_:): count must be greater than zero (got \(count))")
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByCountInner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of the
    /// collection.
    ///
    /// ```swift
    /// let cancellable = (1...5).publisher.collect(2).sink { print($0) }
    /// // Prints "[1, 2]", "[3, 4]", "[5]"
    /// ```
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

private final class CollectByCountInner<Downstream: Subscriber, Element>: OperatorInner<Downstream, Void>, Subscriber
where Downstream.Input == [Element] {
    typealias Input = Element
    typealias Failure = Downstream.Failure

    /// Touched only from the upstream's serial calls.
    private var buffer: [Element] = []
    private let count: Int

    init(downstream: Downstream, count: Int) {
        self.count = count
        super.init(downstream: downstream, extra: (), name: "CollectByCount")
        buffer.reserveCapacity(count)
    }

    func receive(subscription: any Subscription) {
        accept(subscription)
    }

    func receive(_ input: Element) -> Subscribers.Demand {
        guard let downstream = lock.withLock({ state.downstream }) else { return .none }
        buffer.append(input)
        guard buffer.count == count else { return .none }
        let full = buffer
        buffer.removeAll(keepingCapacity: true)
        return downstream.receive(full) * count
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let downstream = state.downstream
        state.upstream = .terminal
        lock.unlock()
        guard let downstream else { return }
        let rest = buffer
        buffer = []
        if case .finished = completion, !rest.isEmpty {
            _ = downstream.receive(rest)
        }
        // A cancel made inside that delivery detached the downstream: nothing follows it.
        complete(completion)
    }

    /// Each array asked for is `count` elements upstream.
    override func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "CollectByCount: demand must be greater than zero (got \(demand))")
        let upstream = lock.withLock { state.upstream.subscription }
        upstream?.request(demand * count)
    }
}
