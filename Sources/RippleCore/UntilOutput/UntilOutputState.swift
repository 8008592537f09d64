/// What `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)` keep under their lock, as a value:
/// the upstream, the trigger, the downstream, demand asked before the upstream subscribed, and
/// whether the trigger fired or ended — and, from these, what each event makes due.
///
/// Its transitions are applied with the operator's lock held and return what the operator must do
/// after unlocking (cancel, request, hand the subscription down, deliver, end); it calls nothing
/// out. What leaves the state leaves by being returned.
struct UntilOutputState<Downstream: Subscriber> {
    private(set) var upstream = UpstreamStatus.awaitingSubscription
    private(set) var trigger = UpstreamStatus.awaitingSubscription
    private(set) var downstream: Downstream?
    /// drop: demand the downstream asked for before the upstream subscribed.
    private(set) var pendingDemand = Subscribers.Demand.none
    private(set) var triggered = false
    private(set) var triggerEnded = false
    /// prefix: the downstream has its subscription.
    private(set) var handedDown = false

    /// A state for `downstream`, waiting for both subscriptions.
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    // MARK: Answers

    /// What ``fire()`` decided about the trigger's element.
    enum Fire {
        /// After the end, or the trigger fired or ended already: nothing.
        case ignore
        /// It fired: cancel `trigger` after unlocking; `handedDown` tells whether the downstream
        /// had its subscription then (prefix ends the stream now if so, else when the upstream's
        /// subscription arrives).
        case fired(cancelling: (any Subscription)?, handedDown: Bool)
    }

    /// What leaves the state when the stream ends or is cancelled: to cancel, deliver to and release
    /// after unlocking.
    struct Teardown {
        var upstream: (any Subscription)?
        var trigger: (any Subscription)?
        var downstream: Downstream
    }

    /// What drop's upstream subscription makes the operator do.
    enum DropSubscription {
        /// A second one, or after the end: cancel it.
        case cancel
        /// Kept; request `demand` (asked before it arrived) of it if that is not `.none`.
        case keep(requesting: Subscribers.Demand)
    }

    /// What prefix's upstream subscription makes the operator do.
    enum PrefixSubscription {
        /// A second one, or after the end: cancel it.
        case cancel
        /// Kept: hand the downstream its subscription.
        case handDown(Downstream)
        /// The trigger fired already: cancel it, hand the downstream its subscription, then finish.
        case handDownAndFinish(Downstream)
    }

    /// What drop's upstream element makes the operator do.
    enum DropArrival: Equatable {
        /// Before the trigger fired (its demand is used up, as in Combine), or after the end.
        case drop
        /// Deliver it in this thread's turn.
        case deliver
        /// An element before the subscription: trap, as Combine does, after unlocking.
        case broken
    }

    // MARK: Transitions

    /// Whether the stream is still running (it has a downstream).
    var isActive: Bool { downstream != nil }

    /// The trigger's subscription arrives; `false` if it must be cancelled (else it is asked for one
    /// element).
    mutating func acceptTrigger(_ subscription: any Subscription) -> Bool {
        downstream != nil && trigger.accept(subscription)
    }

    /// The trigger sends an element.
    mutating func fire() -> Fire {
        guard downstream != nil, !triggered, !triggerEnded else { return .ignore }
        triggered = true
        return .fired(cancelling: trigger.terminate(), handedDown: handedDown)
    }

    /// The trigger completes; returns whether it had fired.
    mutating func triggerCompleted() -> Bool {
        trigger = .terminal
        triggerEnded = true
        return triggered
    }

    /// The stream ends (a completion to deliver after the turn in progress): the subscriptions to
    /// cancel and the downstream, or `nil` after the end.
    mutating func end() -> Teardown? {
        guard let downstream else { return nil }
        let teardown = Teardown(upstream: upstream.terminate(), trigger: trigger.terminate(), downstream: downstream)
        self.downstream = nil
        return teardown
    }

    /// The downstream cancels: the subscriptions to cancel and the downstream to release, after
    /// unlocking.
    mutating func cancel() -> (upstream: (any Subscription)?, trigger: (any Subscription)?, released: Downstream?) {
        let taken = (upstream.terminate(), trigger.terminate(), downstream)
        downstream = nil
        return taken
    }

    /// drop: the upstream's subscription arrives.
    mutating func acceptDropUpstream(_ subscription: any Subscription) -> DropSubscription {
        guard downstream != nil, upstream.accept(subscription) else { return .cancel }
        let demand = pendingDemand
        pendingDemand = .none
        return .keep(requesting: demand)
    }

    /// drop: the upstream sends an element.
    func dropArrival() -> DropArrival {
        if upstream.isAwaitingSubscription { return .broken }
        return downstream != nil && triggered ? .deliver : .drop
    }

    /// drop: the downstream asks for `demand`: the upstream subscription to pass it to after
    /// unlocking, or `nil` (kept for the subscription if it has not arrived yet).
    mutating func dropRequest(_ demand: Subscribers.Demand) -> (any Subscription)? {
        guard let subscription = upstream.subscription else {
            if downstream != nil, upstream.isAwaitingSubscription {
                pendingDemand += demand
            }
            return nil
        }
        return subscription
    }

    /// prefix: the upstream's subscription arrives.
    mutating func acceptPrefixUpstream(_ subscription: any Subscription) -> PrefixSubscription {
        guard let downstream, upstream.accept(subscription) else { return .cancel }
        handedDown = true
        guard triggered else { return .handDown(downstream) }
        upstream = .terminal
        self.downstream = nil
        return .handDownAndFinish(downstream)
    }

    /// The upstream's subscription, for a request (prefix) after unlocking.
    var upstreamSubscription: (any Subscription)? { upstream.subscription }
}
