/// What ``SwitchCore`` keeps under its lock, as a value: the downstream, its demand, the outer
/// upstream, the current inner subscription and its generation, the values waiting for demand and a
/// due failure — and, from these, what each event makes due.
///
/// Its transitions are applied by the core with its lock held and return what the core must do
/// after unlocking (cancel, request, subscribe, deliver, finish); it calls nothing out. What leaves
/// the state (a subscription to cancel, values to release) leaves by being returned.
struct SwitchState<Downstream: Subscriber> {
    private(set) var downstream: Downstream?
    private(set) var demand = Subscribers.Demand.none
    private(set) var outer = UpstreamStatus.awaitingSubscription
    private(set) var child: (any Subscription)?
    /// Counts the inner publishers subscribed: an event from an earlier one is ignored.
    private(set) var generation = 0
    /// The current inner publisher has been subscribed and has not completed.
    private(set) var childRunning = false
    private(set) var pending = FIFO<Downstream.Input>()
    private(set) var failure: Downstream.Failure?

    /// A state with no downstream yet (``start(_:)`` gives it one).
    init() {}

    // MARK: Answers

    /// What ``switchToNewChild()`` decided about a publisher the outer upstream sent.
    enum NewChild {
        /// Cancelled, completed or failing: the publisher is not subscribed.
        case ignore
        /// Cancel `previous` (the inner subscription it replaces), then subscribe the publisher as
        /// the child of `generation`.
        case subscribe(generation: Int, cancelling: (any Subscription)?)
    }

    /// What ``attachChild(_:generation:)`` decided about an inner subscription.
    enum ChildSubscription: Equatable {
        /// Stale, a second one, or after the end: cancel it.
        case cancel
        /// Kept; there is no demand to hand it yet.
        case keep
        /// Kept; request the downstream's outstanding demand of it.
        case request(Subscribers.Demand)
    }

    /// What ``arrive(_:generation:)`` decided about an inner value.
    enum Arrival: Equatable {
        /// From a stale child, or after the end: drop it.
        case drop
        /// No demand, or older values wait: it was queued (the thread that brings demand delivers).
        case queued
        /// Deliver it now, in this thread's turn (one demand was charged for it); then apply
        /// ``delivered(_:)``.
        case deliver
    }

    /// What a completion (of the outer upstream or of the current child) makes the core do.
    enum Ending: Equatable {
        /// Stale, a second one, or after the end: nothing.
        case ignore
        /// Take the turn and drain (the completion or failure goes out when due).
        case drain
        /// The child completed before its subscription arrived: trap (as Combine does), after
        /// unlocking.
        case brokenChild
    }

    /// What leaves the state when the stream ends: to cancel and release after unlocking.
    struct Teardown {
        var outer: (any Subscription)?
        var child: (any Subscription)?
        /// The downstream (released by the caller, after unlocking; `nil` if it was gone already).
        var downstream: Downstream?
        var dropped: FIFO<Downstream.Input>

        /// Cancels the outer and the inner subscription. Called after unlocking.
        func cancelSubscriptions() {
            outer?.cancel()
            child?.cancel()
        }
    }

    /// What the thread draining (holding the turn) does next.
    enum Step {
        /// Deliver this queued value (one demand charged), then apply ``delivered(_:)``.
        case deliver(Downstream, Downstream.Input)
        /// The stream is over: give the turn back, cancel what `teardown` holds, then complete the
        /// downstream.
        case finish(Downstream, Subscribers.Completion<Downstream.Failure>, Teardown)
        /// Nothing is due: give the turn back, then hand the demand the drain was returned to
        /// `child`, the current inner subscription.
        case idle(child: (any Subscription)?)
    }

    // MARK: Transitions

    /// Whether the stream is still running (it has a downstream).
    var isActive: Bool { downstream != nil }

    /// The downstream subscribes.
    mutating func start(_ downstream: Downstream) {
        self.downstream = downstream
    }

    /// The outer upstream's subscription arrives; `false` if it must be cancelled (else it is asked
    /// for `.unlimited`).
    mutating func acceptOuter(_ subscription: any Subscription) -> Bool {
        downstream != nil && outer.accept(subscription)
    }

    /// The outer upstream sends a publisher: it replaces the current child.
    mutating func switchToNewChild() -> NewChild {
        guard downstream != nil, failure == nil else { return .ignore }
        generation += 1
        let previous = child
        child = nil
        childRunning = true
        return .subscribe(generation: generation, cancelling: previous)
    }

    /// The outer upstream completes.
    mutating func outerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) -> Ending {
        guard downstream != nil, !outer.isTerminal else { return .ignore }
        outer = .terminal
        keepFirstFailure(of: completion)
        return .drain
    }

    /// The child of `generation` sends its subscription.
    mutating func attachChild(_ subscription: any Subscription, generation: Int) -> ChildSubscription {
        guard downstream != nil, generation == self.generation, child == nil, childRunning else { return .cancel }
        child = subscription
        return demand > 0 ? .request(demand) : .keep
    }

    /// The child of `generation` sends `input`: delivered now if there is demand and nothing older
    /// waits, else queued.
    mutating func arrive(_ input: Downstream.Input, generation: Int) -> Arrival {
        guard downstream != nil, generation == self.generation else { return .drop }
        guard demand > 0, pending.isEmpty else {
            pending.append(input)
            return .queued
        }
        demand -= 1
        return .deliver
    }

    /// The downstream returned `more` for a delivered value.
    mutating func delivered(_ more: Subscribers.Demand) {
        demand += more
    }

    /// The child of `generation` completes.
    mutating func childCompleted(
        _ completion: Subscribers.Completion<Downstream.Failure>, generation: Int
    ) -> Ending {
        guard downstream != nil, generation == self.generation, childRunning else { return .ignore }
        guard child != nil else { return .brokenChild }
        child = nil
        childRunning = false
        keepFirstFailure(of: completion)
        return .drain
    }

    /// The downstream asks for `demand` more, in the requesting thread's turn. Returns the inner
    /// subscription to hand the demand to, after unlocking.
    mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
        guard downstream != nil else { return nil }
        self.demand += demand
        return child
    }

    /// The downstream cancels.
    mutating func cancel() -> Teardown {
        let teardown = Teardown(
            outer: outer.terminate(), child: child, downstream: downstream, dropped: pending)
        downstream = nil
        child = nil
        pending = FIFO()
        return teardown
    }

    /// The next step of a drain (the draining thread holds the turn): a due failure first, then
    /// queued values while there is demand, then the end once everything has finished.
    mutating func next() -> Step {
        guard let downstream else { return .idle(child: child) }
        if let failure {
            return .finish(downstream, .failure(failure), end())
        }
        if demand > 0, let value = pending.popFirst() {
            demand -= 1
            return .deliver(downstream, value)
        }
        if pending.isEmpty, outer.isTerminal, !childRunning {
            return .finish(downstream, .finished, end())
        }
        return .idle(child: child)
    }

    /// Ends the stream from the drain: nobody calls the downstream after this.
    private mutating func end() -> Teardown {
        let teardown = Teardown(outer: outer.terminate(), child: child, downstream: nil, dropped: pending)
        downstream = nil
        child = nil
        childRunning = false
        pending = FIFO()
        return teardown
    }

    private mutating func keepFirstFailure(of completion: Subscribers.Completion<Downstream.Failure>) {
        if case .failure(let error) = completion, failure == nil {
            failure = error
        }
    }
}
