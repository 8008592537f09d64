/// The machinery behind operators that consume the whole upstream and publish at most one value
/// (first, collect, and later reduce, count, min, max, contains, allSatisfy, last …).
///
/// It sends itself downstream as the subscription, requests `.unlimited` upstream, and holds the
/// result until the downstream has asked for something. A `reduce` step that returns `true` means
/// "the answer is known": the upstream is cancelled at once and the result published. A step that
/// throws cancels the upstream and fails (the `try` variants).
final class ReduceInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Failure = UpstreamFailure
    typealias Output = Downstream.Input

    private enum Status {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Upstream is done; the result waits for demand.
        case holding(Subscribers.Completion<Downstream.Failure>)
        case terminal
    }

    private struct State {
        var status = Status.awaitingSubscription
        var downstream: Downstream?
        var demanded = false
        /// Set by `cancel()`, also once terminal: a cancel made from inside the result's delivery
        /// stops the completion that would follow it.
        var cancelled = false
    }

    private let lock = Lock()
    private var state: State
    /// Touched only from the upstream's serial calls until the status leaves `.subscribed`.
    private var result: Output?
    private let reduce: (inout Output?, Input) throws(Downstream.Failure) -> Bool
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    private let name: String

    init(
        downstream: Downstream, initial: Output?, name: String,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        reduce: @escaping (inout Output?, Input) throws(Downstream.Failure) -> Bool
    ) {
        state = State(downstream: downstream)
        result = initial
        self.reduce = reduce
        self.mapFailure = mapFailure
        self.name = name
    }

    var description: String { name }
    var playgroundDescription: Any { name }

    /// As Combine's reducing inners: the downstream and the result so far.
    var customMirror: Mirror {
        let downstream = lock.withLock { state.downstream }
        return Mirror(self, children: ["downstream": downstream as Any, "result": result as Any])
    }

    // MARK: Upstream side

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state.status, let downstream = state.downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.status = .subscribed(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        // Cancellation is final: a downstream that cancelled inside receive(subscription:) (and
        // may have requested after it) leaves the upstream unasked.
        guard !lock.withLock({ state.cancelled }) else { return }
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let upstream) = state.status else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        do {
            if try reduce(&result, input) {
                upstream.cancel()
                finish(.finished)
            }
        } catch {
            upstream.cancel()
            finish(.failure(error))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        finish(completion.mapFailure(mapFailure))
    }

    /// Publishes the result (a failure at once; a value and `.finished` once there is demand).
    private func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard case .subscribed = state.status else {
            lock.unlock()
            return
        }
        state.status = .holding(completion)
        deliverIfReadyLocked()
    }

    // MARK: Downstream side

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.lock()
        state.demanded = true
        deliverIfReadyLocked()
    }

    func cancel() {
        lock.lock()
        let status = state.status
        let released = state.downstream
        state = State(status: .terminal, downstream: nil, cancelled: true)
        lock.unlock()
        if case .subscribed(let upstream) = status {
            upstream.cancel()
        }
        _ = released
    }

    /// Called with `lock` held; unlocks it.
    private func deliverIfReadyLocked() {
        lock.assertHeld()
        guard case .holding(let completion) = state.status, let downstream = state.downstream else {
            lock.unlock()
            return
        }
        // As Combine: a finished stream waits for the downstream's first request, with a result
        // or without one (an empty upstream's `first()` finishes only once asked).
        if case .finished = completion, !state.demanded {
            lock.unlock()
            return
        }
        state = State(status: .terminal, downstream: nil)
        let value = result
        result = nil
        lock.unlock()
        if case .finished = completion, let value {
            _ = downstream.receive(value)
            // Cancelled while receiving the value: nothing more is delivered.
            if lock.withLock({ state.cancelled }) { return }
        }
        downstream.receive(completion: completion)
    }
}
