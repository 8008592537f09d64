/// The shared frame of the time operators (debounce, throttle, delay, timeout, collect by time):
/// one lock around one state struct, the upstream subscription, the downstream (cleared on
/// termination, which is how scheduled actions know to do nothing) and the downstream's demand.
///
/// Deliveries happen from scheduled actions; like Combine, the operators expect a serial
/// scheduler for ordered, non-overlapping delivery.
class TimedInner<Downstream: Subscriber, Context: Scheduler, Extra>: Subscription, CustomStringConvertible {

    struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        /// The operator's own fields.
        var extra: Extra
    }

    let lock = Lock()
    var state: State
    let scheduler: Context
    let options: Context.SchedulerOptions?
    let name: String

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?, extra: Extra, name: String) {
        state = State(downstream: downstream, extra: extra)
        self.scheduler = scheduler
        self.options = options
        self.name = name
    }

    var description: String { name }

    /// What the operator asks of the upstream when subscribed.
    var initialUpstreamDemand: Subscribers.Demand { .unlimited }

    /// Accepts the upstream subscription (rule 6), sends this subscription downstream, and asks the
    /// upstream for ``initialUpstreamDemand``. Returns `false` if it was refused.
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
        let initial = initialUpstreamDemand
        if initial > 0 { subscription.request(initial) }
        return true
    }

    /// Delivers `value` if the downstream is still there and has demand (otherwise it is dropped);
    /// returns whether it was delivered.
    @discardableResult
    func deliver(_ value: Downstream.Input) -> Bool {
        lock.lock()
        guard let downstream = state.downstream, state.demand > 0 else {
            lock.unlock()
            return false
        }
        state.demand -= 1
        lock.unlock()
        let more = downstream.receive(value)
        if more > 0 { lock.withLock { state.demand += more } }
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

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.withLock { state.demand += demand }
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
