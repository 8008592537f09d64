extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an element
    /// from a second publisher.
    ///
    /// Dropped elements give `.max(1)` back upstream. The second publisher is asked for one
    /// element and cancelled once it sends it; if it fails, so does this publisher; if it finishes
    /// without an element, every upstream element is dropped.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a `DropUntilOutput` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = TriggerCore<S, Other.Failure>(downstream: subscriber, mode: .drop)
            other.subscribe(TriggerSubscriber<S, Other.Output, Other.Failure>(core: core))
            upstream.subscribe(core)
        }
    }

    /// A publisher that republishes elements until another publisher emits an element; then it
    /// cancels the upstream and finishes.
    ///
    /// The second publisher's completion (finished or failed) only means it will never trigger:
    /// elements keep flowing.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The publisher that, once it emits, ends this publisher.
        public let other: Other

        /// Creates a `PrefixUntilOutput` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = TriggerCore<S, Other.Failure>(downstream: subscriber, mode: .prefix)
            other.subscribe(TriggerSubscriber<S, Other.Output, Other.Failure>(core: core))
            upstream.subscribe(core)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second
    /// publisher.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }

    /// Republishes elements until another publisher emits an element.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

/// Upstream side and subscription of drop/prefix(untilOutputFrom:). The trigger publisher's events
/// arrive through ``TriggerSubscriber``. Deliveries never overlap: a completion caused by the
/// trigger while an upstream element is being delivered waits for that delivery to return.
private final class TriggerCore<Downstream: Subscriber, TriggerFailure: Error>: Subscriber, Subscription,
    CustomStringConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    enum Mode {
        case drop
        case prefix
    }

    private struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var trigger = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
        var triggered = false
        var delivering = false
        var pendingCompletion: Subscribers.Completion<Failure>?
    }

    private let lock = Lock()
    private var state: State
    private let mode: Mode

    init(downstream: Downstream, mode: Mode) {
        state = State(downstream: downstream)
        self.mode = mode
    }

    var description: String { mode == .drop ? "DropUntilOutput" : "PrefixUntilOutput" }

    // MARK: Trigger

    func triggerReceive(subscription: any Subscription) {
        let accepted = lock.withLock { state.downstream != nil && state.trigger.accept(subscription) }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.max(1))
    }

    func triggerFired() {
        lock.lock()
        guard state.downstream != nil, !state.triggered else {
            lock.unlock()
            return
        }
        state.triggered = true
        let trigger = state.trigger.terminate()
        lock.unlock()
        trigger?.cancel()
        if mode == .prefix {
            end(.finished, cancellingUpstream: true)
        }
    }

    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>) {
        lock.withLock { state.trigger = .terminal }
        // prefix: the trigger can no longer fire, nothing changes. drop: a failure fails everything
        // (the failure types are the same by the operator's constraint).
        if mode == .drop, case .failure(let error) = completion, let failure = error as? Failure {
            end(.failure(failure), cancellingUpstream: true)
        }
    }

    /// Completes the downstream now, or after the delivery in progress (which then delivers it).
    private func end(_ completion: Subscribers.Completion<Failure>, cancellingUpstream: Bool) {
        lock.lock()
        guard let downstream = state.downstream, state.pendingCompletion == nil else {
            lock.unlock()
            return
        }
        let upstream = state.upstream.terminate()
        let trigger = state.trigger.terminate()
        let deliverNow = !state.delivering
        if deliverNow {
            state.downstream = nil
        } else {
            state.pendingCompletion = completion
        }
        lock.unlock()
        if cancellingUpstream { upstream?.cancel() }
        trigger?.cancel()
        if deliverNow {
            downstream.receive(completion: completion)
        }
    }

    // MARK: Upstream

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
        guard let downstream = state.downstream, state.pendingCompletion == nil else {
            lock.unlock()
            return .none
        }
        if mode == .drop, !state.triggered {
            lock.unlock()
            return .max(1)
        }
        state.delivering = true
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        state.delivering = false
        guard let completion = state.pendingCompletion else {
            lock.unlock()
            return more
        }
        state.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        end(completion, cancellingUpstream: false)
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(description): demand must be greater than zero (got \(demand))")
        lock.withLock { state.upstream.subscription }?.request(demand)
    }

    func cancel() {
        lock.lock()
        let upstream = state.upstream.terminate()
        let trigger = state.trigger.terminate()
        let released = state.downstream
        state.downstream = nil
        lock.unlock()
        upstream?.cancel()
        trigger?.cancel()
        _ = released
    }
}

private final class TriggerSubscriber<Downstream: Subscriber, Input, Failure: Error>: Subscriber, CustomStringConvertible {
    let core: TriggerCore<Downstream, Failure>

    init(core: TriggerCore<Downstream, Failure>) { self.core = core }

    var description: String { core.description }
    func receive(subscription: any Subscription) { core.triggerReceive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand {
        core.triggerFired()
        return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) { core.triggerCompleted(completion) }
}
