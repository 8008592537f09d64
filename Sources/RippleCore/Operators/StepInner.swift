/// What a serial operator does with one upstream value.
enum OperatorStep<Output, Failure: Error> {
    /// Send this value downstream.
    case send(Output)
    /// Drop the value; `.max(1)` goes back upstream so the downstream's demand is still met.
    case drop
    /// Cancel the upstream and finish.
    case finish
    /// Cancel the upstream and fail.
    case fail(Failure)
}

/// The subscriber behind serial operators that are their own subscription in Combine (the `try`
/// variants, removeDuplicates, drop(while:), prefix(while:)): it hands *itself* downstream as the
/// subscription, forwards requests upstream while subscribed (none after termination), and runs
/// a step per value. A `.finish` or `.fail` step cancels the upstream *before* the completion goes
/// downstream, and everything after it is ignored.
///
/// Its lock guards the status only; the step runs unlocked (the upstream's calls are serial).
/// The downstream is released on termination.
final class StepInner<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Failure = UpstreamFailure
    typealias Step = OperatorStep<Downstream.Input, Downstream.Failure>

    private struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
    }

    private let lock = Lock()
    private var state: State
    private let name: String
    private let mirrorsDownstream: Bool
    private let step: (Input) -> Step
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    /// Whether a request for `.none` is passed upstream instead of trapping (Combine's
    /// `measureInterval`; its filtering and `try` inners trap).
    private let passesZeroDemand: Bool
    /// Whether a value, a completion or a request that arrives before the upstream subscription
    /// traps (Combine's removeDuplicates, tryRemoveDuplicates, prefix(while:), tryPrefix(while:),
    /// tryFilter and tryCompactMap do) instead of being ignored. (The downstream gets this inner
    /// only with the upstream's subscription, so a request before it comes from code that found
    /// the inner some other way.)
    private let trapsBeforeSubscription: Bool
    /// Whether the demand the downstream returns for a value is requested of the upstream (and
    /// `.none` returned to it) rather than returned — Combine's `measureInterval`.
    private let requestsReturnedDemand: Bool

    /// - Parameter mirrorsDownstream: whether `customMirror` shows the downstream (Combine's
    ///   filtering inners do; drop(while:) and tryScan show nothing).
    /// - Parameter passesZeroDemand: whether a request for `.none` goes upstream instead of trapping.
    /// - Parameter trapsBeforeSubscription: whether an event before the upstream subscription traps.
    /// - Parameter requestsReturnedDemand: whether demand returned for a value is requested upstream.
    init(
        downstream: Downstream, name: String, mirrorsDownstream: Bool = true, passesZeroDemand: Bool = false,
        trapsBeforeSubscription: Bool = false, requestsReturnedDemand: Bool = false,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure, step: @escaping (Input) -> Step
    ) {
        state = State(downstream: downstream)
        self.name = name
        self.mirrorsDownstream = mirrorsDownstream
        self.passesZeroDemand = passesZeroDemand
        self.trapsBeforeSubscription = trapsBeforeSubscription
        self.requestsReturnedDemand = requestsReturnedDemand
        self.step = step
        self.mapFailure = mapFailure
    }

    var description: String { name }

    var playgroundDescription: Any { description }

    var customMirror: Mirror {
        guard mirrorsDownstream else { return Mirror(self, children: [:]) }
        let downstream = lock.withLock { state.downstream }
        return Mirror(self, children: ["downstream": downstream as Any])
    }

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
            let early = state.upstream.isAwaitingSubscription
            lock.unlock()
            require(!(early && trapsBeforeSubscription), "\(name): received a value before a subscription")
            return .none
        }
        lock.unlock()
        switch step(input) {
        case .send(let output):
            let more = downstream.receive(output)
            guard requestsReturnedDemand else { return more }
            if more > 0 { lock.withLock { state.upstream.subscription }?.request(more) }
            return .none
        case .drop:
            return .max(1)
        case .finish:
            terminate()?.cancel()
            downstream.receive(completion: .finished)
        case .fail(let error):
            terminate()?.cancel()
            downstream.receive(completion: .failure(error))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            let early = state.upstream.isAwaitingSubscription
            lock.unlock()
            require(!(early && trapsBeforeSubscription), "\(name): received a completion before a subscription")
            return
        }
        state.upstream = .terminal
        state.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion.mapFailure(mapFailure))
    }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0 || passesZeroDemand, "\(name): demand must be greater than zero (got \(demand))")
        let (upstream, early) = lock.withLock { (state.upstream.subscription, state.upstream.isAwaitingSubscription) }
        require(!(early && trapsBeforeSubscription), "\(name): demand requested before a subscription")
        upstream?.request(demand)
    }

    func cancel() {
        let released: Downstream?
        lock.lock()
        let upstream = state.upstream.terminate()
        released = state.downstream
        state.downstream = nil
        lock.unlock()
        upstream?.cancel()
        _ = released
    }

    /// Marks the stream ended; returns the upstream to cancel. The downstream is released by the
    /// caller's local going out of scope after it has completed it.
    private func terminate() -> (any Subscription)? {
        lock.lock()
        let upstream = state.upstream.terminate()
        state.downstream = nil
        lock.unlock()
        return upstream
    }
}

/// Runs a throwing step and turns a thrown error into `.fail`.
@inline(__always)
func attempt<Output>(_ body: () throws -> OperatorStep<Output, any Error>) -> OperatorStep<Output, any Error> {
    do {
        return try body()
    } catch {
        return .fail(error)
    }
}
