extension Publishers {
    /// A publisher that flattens nested publishers: it republishes the elements of the most recent
    /// inner publisher and cancels the previous one whenever a new one arrives.
    ///
    /// It asks the upstream for `.unlimited` publishers. The downstream's outstanding demand is
    /// handed to each new inner publisher. It finishes when the upstream has finished and the current
    /// inner publisher (if any) has finished; any failure cancels the rest and fails.
    ///
    /// Differs from Combine: a value that a broken inner publisher sends without demand waits until
    /// the downstream asks for it, instead of trapping; the same queue keeps values in order when
    /// concurrent senders race a request.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `SwitchToLatest` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = SwitchCore<S>()
            core.start(downstream: subscriber)
            upstream.receive(subscriber: SwitchOuter<S, P>(core: core))
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// ```swift
    /// let queries = PassthroughSubject<String, Never>()
    /// let cancellable = queries
    ///     .map { query in search(query) }   // a publisher per query
    ///     .switchToLatest()                  // only the newest search's results
    ///     .sink { print($0) }
    /// ```
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes elements sent by the most recently received publisher, for an upstream that
    /// cannot fail and inner publishers that can.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: setFailureType(to: Output.Failure.self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, when neither can fail.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, for inner publishers that
    /// cannot fail and an upstream that can.
    public func switchToLatest() -> Publishers.SwitchToLatest<
        Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    > {
        Publishers.SwitchToLatest(upstream: map { $0.setFailureType(to: Failure.self) })
    }
}

/// The subscription behind ``Publishers/SwitchToLatest``.
///
/// Delivery follows the engine's contract (``DeliveryTurn``): a value that arrives while there is
/// demand is delivered on the thread that sent it; a thread that finds another one delivering (an
/// old inner publisher racing the new one) waits its turn, in arrival order, and then delivers its
/// own value; a send from inside the downstream's `receive` on the same thread is delivered nested.
/// Values that arrive without demand wait in a queue and are delivered, in arrival order, by the
/// thread that brings the demand; a completion is delivered by the thread that brings it, in its turn.
final class SwitchCore<Downstream: Subscriber>: TurnStorage<SwitchState<Downstream>>, Subscription,
    CustomStringConvertible
{
    /// A core with no downstream yet (``start(downstream:)`` gives it one).
    init() {
        super.init(state: SwitchState())
    }

    var description: String { "SwitchToLatest" }

    func start(downstream: Downstream) {
        lock.withLock { state.start(downstream) }
        downstream.receive(subscription: self)
    }

    // MARK: Outer

    func outerReceive(subscription: any Subscription) {
        guard lock.withLock({ state.acceptOuter(subscription) }) else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    func outerReceive<P: Publisher>(_ publisher: P) where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        switch lock.withLock({ state.switchToNewChild() }) {
        case .ignore:
            return
        case .subscribe(let generation, let previous):
            previous?.cancel()
            publisher.receive(subscriber: Child(core: self, generation: generation))
        }
    }

    func outerReceive(completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        end(state.outerCompleted(completion))
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "SwitchToLatest: demand must be greater than zero (got \(demand))")
        lock.lock()
        guard state.isActive else {
            lock.unlock()
            return
        }
        // The demand counts from this thread's turn on: the thread that brings it delivers the
        // queued values it allows, then hands it to the current inner publisher.
        let child = takeTurnThenDrainLocked(adding: demand)
        child?.request(demand)
    }

    func cancel() {
        lock.lock()
        // Queued values leave the locked state here and are released after unlocking.
        let teardown = state.cancel()
        lock.unlock()
        teardown.cancelSubscriptions()
        withExtendedLifetime(teardown) {}
    }

    // MARK: Children

    private func childReceive(subscription: any Subscription, generation: Int) {
        switch lock.withLock({ state.attachChild(subscription, generation: generation) }) {
        case .cancel: subscription.cancel()
        case .keep: break
        case .request(let demand): subscription.request(demand)
        }
    }

    private func childReceive(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        switch state.arrive(input, generation: generation) {
        case .drop, .queued:
            // Queued: the value waits for a request; the thread that brings the demand delivers it.
            lock.unlock()
            return .none
        case .deliver:
            break
        }
        guard
            case .called(let more, let nested) = callInTurnLocked(
                name: "SwitchToLatest", to: { state.downstream }, { $0.receive(input) })
        else {
            // Cancelled or completed while this thread waited.
            return .none
        }
        state.delivered(more)
        if nested {
            // The outermost call on this thread drains.
            lock.unlock()
            return more
        }
        drainLocked()
        return more
    }

    private func childReceive(completion: Subscribers.Completion<Downstream.Failure>, generation: Int) {
        lock.lock()
        end(state.childCompleted(completion, generation: generation))
    }

    /// Performs what a completion made due. Called with `lock` held; unlocks.
    private func end(_ ending: SwitchState<Downstream>.Ending) {
        switch ending {
        case .ignore:
            lock.unlock()
        case .brokenChild:
            // A broken inner publisher: Combine traps here too (a value before the subscription
            // is queued like any value without demand, see the type's doc comment).
            lock.unlock()
            fatalError("SwitchToLatest: an inner publisher sent a completion before its subscription")
        case .drain:
            takeTurnThenDrainLocked()
        }
    }

    /// With the lock held: takes the delivery turn (waiting for it if another thread holds it), then
    /// drains. If this thread already holds it (a call from inside the downstream), the outer call
    /// drains instead. Unlocks.
    /// `demand` is added once the turn is this thread's (or at once, nested); returns the inner
    /// subscription current at that moment (the one the demand is for).
    @discardableResult
    private func takeTurnThenDrainLocked(adding demand: Subscribers.Demand = .none) -> (any Subscription)? {
        takeTurnLocked(name: "SwitchToLatest") {  // which checks that the lock is held
            state.request(demand)
        } drain: {
            drainLocked()
        }
    }

    /// Delivers queued values while there is demand, then a due completion, and gives the turn
    /// back. Called with `lock` and the turn held; unlocks.
    private func drainLocked() {
        lock.assertHeld()
        var extra = Subscribers.Demand.none
        while true {
            switch state.next() {
            case .deliver(let downstream, let value):
                let more = unlocked { downstream.receive(value) }
                state.delivered(more)
                extra += more
            case .finish(let downstream, let completion, let teardown):
                // Nobody calls the downstream after this (it left the state): the turn can go now.
                leaveTurnLocked()
                teardown.cancelSubscriptions()
                downstream.receive(completion: completion)
                withExtendedLifetime(teardown) {}
                return
            case .idle(let child):
                leaveTurnLocked()
                // Demand returned for queued values goes to the current inner publisher.
                if extra > 0 { child?.request(extra) }
                return
            }
        }
    }

    private final class Child: Subscriber, CustomStringConvertible {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure

        let core: SwitchCore
        let generation: Int

        init(core: SwitchCore, generation: Int) {
            self.core = core
            self.generation = generation
        }

        var description: String { "SwitchToLatest" }
        func receive(subscription: any Subscription) { core.childReceive(subscription: subscription, generation: generation) }
        func receive(_ input: Input) -> Subscribers.Demand { core.childReceive(input, generation: generation) }
        func receive(completion: Subscribers.Completion<Failure>) {
            core.childReceive(completion: completion, generation: generation)
        }
    }
}

private final class SwitchOuter<Downstream: Subscriber, P: Publisher>: Subscriber, CustomStringConvertible
where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
    typealias Input = P
    typealias Failure = Downstream.Failure

    let core: SwitchCore<Downstream>

    init(core: SwitchCore<Downstream>) { self.core = core }

    var description: String { "SwitchToLatest" }
    func receive(subscription: any Subscription) { core.outerReceive(subscription: subscription) }
    func receive(_ input: P) -> Subscribers.Demand {
        core.outerReceive(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) { core.outerReceive(completion: completion) }
}
