extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published elements.
    ///
    /// Elements before the range are dropped (each returns `.max(1)` upstream). Right after the
    /// range's last element is delivered, the upstream is cancelled and the publisher finishes —
    /// `subject.prefix(1)` finishes as the first value is sent, without waiting for a second.
    /// This is Combine's moment. The tests recorded against Combine (OpenCombine's `OutputTests`,
    /// CombineX's `OutputSpec`) agree with it and never show a completion waiting for an element
    /// past the range — the element that completes the range returns the downstream's demand —
    /// and code that passes on Apple platforms relies on it: GRDB's `testDeadlockPrevention` awaits
    /// `prefix(1)`'s completion after a single value, and guides to Combine describe `prefix(_:)` as
    /// passing the first values, then cancelling the upstream and finishing. (OpenCombine finishes
    /// on the element after the range.) An empty range delivers nothing: the first element past
    /// the dropped ones cancels the upstream and finishes.
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
            upstream.receive(subscriber: OutputInner<S>(downstream: subscriber, range: range))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Republishes elements up to the specified maximum count, then finishes.
    ///
    /// The completion (and the upstream's cancel) come right after the `maxLength`-th element is
    /// delivered, as in Combine: `subject.prefix(1)` finishes as the subject sends its first value.
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

/// Counts elements against a range; it is the downstream's subscription (as in Combine).
///
/// Elements before the range return `.max(1)` upstream. The range's last element is delivered and
/// then, right after the downstream returns from it, the upstream is cancelled and the publisher
/// finishes (so `prefix(2)` over a subject finishes as the second value is sent). An empty range
/// delivers nothing and finishes on the first element past the dropped ones.
private final class OutputInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
    }

    private let lock = Lock()
    private var state: State
    /// Touched only from the upstream's serial calls.
    private var remainingUntilStart: Int
    private var remainingCount: Int

    init(downstream: Downstream, range: CountableRange<Int>) {
        state = State(downstream: downstream)
        remainingUntilStart = range.lowerBound
        remainingCount = range.count
    }

    var description: String { "Output" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard let downstream = state.downstream, state.upstream.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        if remainingUntilStart > 0 {
            remainingUntilStart -= 1
            return .max(1)
        }
        guard remainingCount > 0 else {
            finish()
            return .none
        }
        remainingCount -= 1
        let demand = downstream.receive(input)
        if remainingCount == 0 { finish() }
        return demand
    }

    /// The range is exhausted: cancels the upstream and finishes, unless the downstream cancelled
    /// meanwhile (then nothing is left to finish).
    private func finish() {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            lock.unlock()
            return
        }
        let upstream = state.upstream.terminate()
        state.downstream = nil
        lock.unlock()
        upstream?.cancel()
        downstream.receive(completion: .finished)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            lock.unlock()
            return
        }
        state.upstream = .terminal
        state.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { state.upstream.subscription }?.request(demand)
    }

    func cancel() {
        lock.lock()
        let upstream = state.upstream.terminate()
        let released = state.downstream
        state.downstream = nil
        lock.unlock()
        upstream?.cancel()
        _ = released
    }
}
