extension Publishers {
    /// A publisher that replaces any error in the stream with a provided element.
    ///
    /// On failure it cancels nothing (the upstream is done), publishes `output` once the downstream
    /// has demand, and finishes.
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` of the replacement gets
    /// no `.finished` (Combine's sends it), as with ``Just``: nothing is delivered after `cancel()`
    /// returns.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `ReplaceError` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(subscriber: ReplaceErrorInner<Upstream, S>(downstream: subscriber, replacement: output))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Replaces any errors in the stream with the provided element.
    ///
    /// ```swift
    /// struct Oops: Error {}
    /// let cancellable = Fail<Int, Oops>(error: Oops()).replaceError(with: 0).sink { print($0) }
    /// // Prints "0"
    /// ```
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

/// Counts outstanding demand so the replacement value is sent only when it was asked for.
private final class ReplaceErrorInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private enum Status {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Upstream failed; the replacement waits for demand.
        case owesReplacement
        /// The replacement is being delivered; `.finished` follows unless the downstream cancels.
        case replacing
        case terminal
    }

    private struct State {
        var status = Status.awaitingSubscription
        var demand = Subscribers.Demand.none
    }

    private let lock = Lock()
    private var state = State()
    private let downstream: Downstream
    private let replacement: Input

    init(downstream: Downstream, replacement: Input) {
        self.downstream = downstream
        self.replacement = replacement
    }

    var description: String { "ReplaceError" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state.status else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.status = .subscribed(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state.status else {
            lock.unlock()
            return .none
        }
        guard state.demand > 0 else {
            // A broken upstream sent a value nobody asked for: Combine traps here too.
            lock.unlock()
            fatalError("ReplaceError: received a value without demand")
        }
        state.demand -= 1
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        state.demand += more
        lock.unlock()
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state.status else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            state.status = .terminal
            lock.unlock()
            downstream.receive(completion: .finished)
        case .failure:
            state.status = .owesReplacement
            sendReplacementIfDemandedLocked()
        }
    }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "ReplaceError: demand must be greater than zero (got \(demand))")
        lock.lock()
        state.demand += demand
        switch state.status {
        case .subscribed(let upstream):
            lock.unlock()
            upstream.request(demand)
        case .owesReplacement:
            sendReplacementIfDemandedLocked()
        case .awaitingSubscription, .replacing, .terminal:
            lock.unlock()
        }
    }

    /// Called with `lock` held; unlocks it.
    private func sendReplacementIfDemandedLocked() {
        lock.assertHeld()
        guard state.demand > 0 else {
            lock.unlock()
            return
        }
        state.status = .replacing
        lock.unlock()
        _ = downstream.receive(replacement)
        // A cancel made inside the value's delivery stops the `.finished`, as ``Just``'s does: no
        // delivery follows a returned `cancel()`.
        lock.lock()
        guard case .replacing = state.status else {
            lock.unlock()
            return
        }
        state.status = .terminal
        lock.unlock()
        downstream.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let status = state.status
        state.status = .terminal
        lock.unlock()
        if case .subscribed(let upstream) = status {
            upstream.cancel()
        }
    }
}
