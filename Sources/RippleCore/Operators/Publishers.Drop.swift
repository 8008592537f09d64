extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later elements.
    ///
    /// As Combine's, it hands the downstream its subscription *before* subscribing upstream, and
    /// asks the upstream for the elements it will omit up front: the first request upstream is
    /// `count` plus whatever the downstream asked for so far. The omitted elements return `.none`.
    ///
    /// Differs from Combine: a cancel made before the upstream subscription arrives is final — that
    /// subscription is cancelled on arrival and nothing is delivered, not even a completion the
    /// upstream sends at once. Combine's ignores such an early cancel, then requests and delivers.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The number of elements to drop.
        public let count: Int

        /// Creates a `Drop` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // As in Combine, a negative count traps when the publisher is subscribed, not when it is made.
            require(count >= 0, "dropFirst: count must not be negative (got \(count))")
            let inner = DropInner(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.receive(subscriber: inner)
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher.dropFirst(2).sink { print($0) }
    /// // Prints "3", "4"
    /// ```
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

/// The subscription `dropFirst` hands downstream: demand asked for before the upstream arrives is
/// kept and requested (with the elements to omit) once it does.
private final class DropInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
        /// Requested by the downstream before the upstream subscription arrived.
        var pending = Subscribers.Demand.none
    }

    private let lock = Lock()
    private var state: State
    /// Touched only from the upstream's serial calls.
    private var remaining: Int

    init(downstream: Downstream, count: Int) {
        state = State(downstream: downstream)
        remaining = count
    }

    var description: String { "Drop" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard state.downstream != nil, state.upstream.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let first = state.pending + remaining
        state.pending = .none
        lock.unlock()
        if first > 0 { subscription.request(first) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        if remaining > 0 {
            // Already asked for up front.
            remaining -= 1
            return .none
        }
        return downstream.receive(input)
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
        require(demand > 0, "Drop: demand must be greater than zero (got \(demand))")
        lock.lock()
        switch state.upstream {
        case .awaitingSubscription:
            state.pending += demand
            lock.unlock()
        case .subscribed(let upstream):
            lock.unlock()
            upstream.request(demand)
        case .terminal:
            lock.unlock()
        }
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
