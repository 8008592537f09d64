/// The shared frame of operators that stand between an upstream and a downstream as both
/// subscriber and subscription: one lock around one state struct holding the upstream
/// subscription, the downstream (cleared on termination — which is how late events and scheduled
/// actions know to do nothing), the downstream's demand where the operator counts it, and the
/// operator's own fields (`extra`).
///
/// Subclasses implement the `Subscriber` side and override ``request(_:)`` when they do more than
/// forward demand upstream. Rules kept here for all of them: a second subscription, or one after
/// termination, is cancelled; requesting `.none` traps; cancel releases the
/// downstream outside the lock.
class OperatorInner<Downstream: Subscriber, Extra>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        /// The operator's own fields.
        var extra: Extra
    }

    let lock = Lock()
    var state: State
    let name: String

    init(downstream: Downstream, extra: Extra, name: String) {
        state = State(downstream: downstream, extra: extra)
        self.name = name
    }

    var description: String { name }
    var playgroundDescription: Any { name }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    /// What the operator asks of the upstream as soon as it is subscribed.
    var initialUpstreamDemand: Subscribers.Demand { .none }

    /// Accepts the upstream subscription, sends this subscription downstream, and asks
    /// the upstream for ``initialUpstreamDemand``. Returns `false` if it was refused.
    @discardableResult
    func accept(_ subscription: any Subscription) -> Bool {
        lock.lock()
        guard let downstream = state.downstream, state.upstream.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return false
        }
        lock.unlock()
        downstream.receive(subscription: self)
        // A downstream that cancelled inside receive(subscription:) ended the upstream
        // subscription: it is asked for nothing (cancellation is final).
        let initial = initialUpstreamDemand
        if initial > 0, let live = lock.withLock({ state.upstream.subscription }) { live.request(initial) }
        return true
    }

    /// Ends the stream once: cancels the upstream if asked, and completes the downstream.
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>, cancellingUpstream: Bool = false) {
        lock.lock()
        let downstream = state.downstream
        let upstream = state.upstream.terminate()
        state.downstream = nil
        lock.unlock()
        if cancellingUpstream { upstream?.cancel() }
        downstream?.receive(completion: completion)
    }

    /// Forwards the demand upstream (after checking it).
    func request(_ demand: Subscribers.Demand) {
        forwardUpstream(demand)
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

extension OperatorInner {
    /// ``OperatorInner/request(_:)``'s behaviour, for subclasses whose parent overrides it.
    func forwardUpstream(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        passUpstream(demand)
    }

    /// Passes the demand upstream as it is, `.none` included: Combine's `delay`, `timeout` and
    /// `receive(on:)` forward a request for `.none` instead of trapping.
    func passUpstream(_ demand: Subscribers.Demand) {
        lock.withLock { state.upstream.subscription }?.request(demand)
    }
}
