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
        lock.withLock { state.downstream = downstream }
        downstream.receive(subscription: self)
    }

    // MARK: Outer

    func outerReceive(subscription: any Subscription) {
        lock.lock()
        guard state.downstream != nil, state.outer.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        subscription.request(.unlimited)
    }

    func outerReceive<P: Publisher>(_ publisher: P) where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        lock.lock()
        guard state.downstream != nil, state.failure == nil else {
            lock.unlock()
            return
        }
        state.generation += 1
        let generation = state.generation
        let previous = state.child
        state.child = nil
        state.childRunning = true
        lock.unlock()
        previous?.cancel()
        publisher.receive(subscriber: Child(core: self, generation: generation))
    }

    func outerReceive(completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard state.downstream != nil, !state.outer.isTerminal else {
            lock.unlock()
            return
        }
        state.outer = .terminal
        if case .failure(let error) = completion, state.failure == nil {
            state.failure = error
        }
        takeTurnThenDrainLocked()
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "SwitchToLatest: demand must be greater than zero (got \(demand))")
        lock.lock()
        guard state.downstream != nil else {
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
        let outer = state.outer.terminate()
        let child = state.child
        let released = state.downstream
        state.downstream = nil
        state.child = nil
        // Queued values leave the locked state here and are released after unlocking.
        let dropped = state.pending
        state.pending = FIFO()
        lock.unlock()
        outer?.cancel()
        child?.cancel()
        withExtendedLifetime((released, dropped)) {}
    }

    // MARK: Children

    private func childReceive(subscription: any Subscription, generation: Int) {
        lock.lock()
        guard state.downstream != nil, generation == state.generation, state.child == nil, state.childRunning else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.child = subscription
        let demand = state.demand
        lock.unlock()
        if demand > 0 {
            subscription.request(demand)
        }
    }

    private func childReceive(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        guard state.downstream != nil, generation == state.generation else {
            lock.unlock()
            return .none
        }
        guard state.demand > 0, state.pending.isEmpty else {
            // No demand (or older values still wait for it): the value waits for a request; the
            // thread that brings the demand delivers it.
            state.pending.append(input)
            lock.unlock()
            return .none
        }
        state.demand -= 1
        guard
            let (more, nested) = callInTurnLocked(
                name: "SwitchToLatest", to: { state.downstream }, { $0.receive(input) })
        else {
            // Cancelled or completed while this thread waited.
            return .none
        }
        state.demand += more
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
        guard state.downstream != nil, generation == state.generation, state.childRunning else {
            lock.unlock()
            return
        }
        if state.child == nil {
            // A broken inner publisher: Combine traps here too (a value before the subscription
            // is queued like any value without demand, see the type's doc comment).
            lock.unlock()
            fatalError("SwitchToLatest: an inner publisher sent a completion before its subscription")
        }
        state.child = nil
        state.childRunning = false
        if case .failure(let error) = completion, state.failure == nil {
            state.failure = error
        }
        takeTurnThenDrainLocked()
    }

    /// With the lock held: takes the delivery turn (waiting for it if another thread holds it), then
    /// drains. If this thread already holds it (a call from inside the downstream), the outer call
    /// drains instead. Unlocks.
    /// `demand` is added once the turn is this thread's (or at once, nested); returns the inner
    /// subscription current at that moment (the one the demand is for).
    @discardableResult
    private func takeTurnThenDrainLocked(adding demand: Subscribers.Demand = .none) -> (any Subscription)? {
        takeTurnLocked(name: "SwitchToLatest") {  // which checks that the lock is held
            guard state.downstream != nil else { return nil }
            state.demand += demand
            return state.child
        } drain: {
            drainLocked()
        }
    }

    /// Delivers queued values while there is demand, then a due completion, and gives the turn
    /// back. Called with `lock` and the turn held; unlocks.
    private func drainLocked() {
        lock.assertHeld()
        var extra = Subscribers.Demand.none
        while let downstream = state.downstream {
            if let failure = state.failure {
                finishLocked(downstream, .failure(failure))
                return
            }
            if state.demand > 0, let value = state.pending.popFirst() {
                state.demand -= 1
                let more = unlocked { downstream.receive(value) }
                state.demand += more
                extra += more
                continue
            }
            if state.pending.isEmpty, state.outer.isTerminal, !state.childRunning {
                finishLocked(downstream, .finished)
                return
            }
            break
        }
        let child = state.child
        leaveTurnLocked()
        // Demand returned for queued values goes to the current inner publisher.
        if extra > 0 { child?.request(extra) }
    }

    /// Ends the stream: cancels what still runs, gives the turn back and completes. Unlocks.
    private func finishLocked(_ downstream: Downstream, _ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.assertHeld()
        let outer = state.outer.terminate()
        let child = state.child
        state.downstream = nil
        state.child = nil
        state.childRunning = false
        let dropped = state.pending
        state.pending = FIFO()
        // Nobody calls the downstream after this (`downstream` is nil): the turn can go now.
        leaveTurnLocked()
        outer?.cancel()
        child?.cancel()
        downstream.receive(completion: completion)
        withExtendedLifetime(dropped) {}
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

/// What ``SwitchCore`` keeps under its lock.
struct SwitchState<Downstream: Subscriber> {
    var downstream: Downstream?
    var demand = Subscribers.Demand.none
    var outer = UpstreamStatus.awaitingSubscription
    var child: (any Subscription)?
    var generation = 0
    var childRunning = false
    var pending = FIFO<Downstream.Input>()
    var failure: Downstream.Failure?
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
