extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    ///
    /// Values and failures pass through; if the upstream finishes without a value, `output` is
    /// published (once the downstream has demand) and then `.finished`.
    ///
    /// Differs from Combine: it asks its upstream for exactly the downstream's demand. Combine's
    /// asks for `.unlimited` on top of it and can then deliver more values than were requested.
    /// And a subscriber that cancels inside `receive(_:)` of the replacement gets no `.finished`
    /// (Combine's sends it), as with ``Just``: nothing is delivered after `cancel()` returns.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any elements.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `ReplaceEmpty` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReplaceEmptyInner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// ```swift
    /// let cancellable = Empty<Int, Never>().replaceEmpty(with: 0).sink { print($0) }
    /// // Prints "0"
    /// ```
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

private struct ReplaceEmptyState {
    var sawValue = false
    var demanded = false
    /// Upstream finished empty; the replacement waits for demand.
    var holding = false
    /// Set by `cancel()`: a cancel made inside the replacement's delivery stops the `.finished`.
    var cancelled = false
}

private final class ReplaceEmptyInner<Downstream: Subscriber>: OperatorInner<Downstream, ReplaceEmptyState>, Subscriber {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let output: Input

    init(downstream: Downstream, output: Input) {
        self.output = output
        super.init(downstream: downstream, extra: ReplaceEmptyState(), name: "ReplaceEmpty")
    }

    func receive(subscription: any Subscription) {
        accept(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream = state.downstream else {
            lock.unlock()
            return .none
        }
        state.extra.sawValue = true
        lock.unlock()
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard let downstream = state.downstream else {
            lock.unlock()
            return
        }
        state.upstream = .terminal
        if case .finished = completion, !state.extra.sawValue {
            guard state.extra.demanded else {
                state.extra.holding = true
                lock.unlock()
                return
            }
            state.downstream = nil
            lock.unlock()
            deliverReplacement(to: downstream)
            return
        }
        state.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion)
    }

    override func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "ReplaceEmpty: demand must be greater than zero (got \(demand))")
        lock.lock()
        state.extra.demanded = true
        if state.extra.holding, let downstream = state.downstream {
            state.downstream = nil
            lock.unlock()
            deliverReplacement(to: downstream)
            return
        }
        let upstream = state.upstream.subscription
        lock.unlock()
        upstream?.request(demand)
    }

    override func cancel() {
        lock.withLock { state.extra.cancelled = true }
        super.cancel()
    }

    /// Sends the replacement and `.finished` — unless the downstream cancels inside the value's
    /// delivery, as ``Just`` does: no delivery follows a returned `cancel()`.
    private func deliverReplacement(to downstream: Downstream) {
        _ = downstream.receive(output)
        guard !lock.withLock({ state.extra.cancelled }) else { return }
        downstream.receive(completion: .finished)
    }
}
