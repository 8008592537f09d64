/// What ``CombinerCore`` keeps under its lock, besides the typed values its children hold: two
/// non-generic values whose transitions are compiled out of line.
@usableFromInline
struct CombinerState<Machine: CombinerMachine> {
    /// The upstreams' subscriptions, and zip's hand-off and delivery bookkeeping.
    @usableFromInline var links: CombinerLinks
    /// combineLatest's or zip's bookkeeping: demand, which upstreams have values, what is due.
    @usableFromInline var machine: Machine

    @inlinable
    init(count: Int) {
        links = CombinerLinks(count: count)
        machine = Machine(count: count)
    }
}

/// The subscription behind `combineLatest` (``CombineLatestMachine``) and `zip` (``ZipMachine``):
/// a fixed number of typed upstreams whose values are combined into tuples for one downstream.
///
/// Each child keeps its own typed storage (the latest value, or a queue for zip) guarded by this
/// core's lock; `take` reads (or, for zip, pops) one value from every child to build the tuple,
/// under the lock, with no user code. The machine decides when a tuple is due; this core holds the
/// values, the subscriptions and the delivery turn (``TurnStorage``), and calls out. The transform
/// variants are `map` on top, as in Combine.
///
/// - Demand: a downstream request for `n` is forwarded to every child, and so is the demand it
///   returns for a tuple (zip: the child whose value completed the tuple gets it, or a request
///   made inside the delivery, as the return of its `receive(_:)` instead, see
///   ``CombinerMachine/returnsDemandToSender``).
/// - The first failure cancels the other children and is delivered at once (after a delivery in
///   progress).
/// - Delivery follows the engine's contract (``DeliveryTurn``): the tuple a value completes, while
///   there is demand, is built at once and delivered on the thread that sent the value; a thread
///   that finds another one delivering waits its turn (arrival order) and then delivers its own
///   tuple; a send from inside the downstream's `receive` is delivered nested. Tuples due for lack of
///   demand are delivered by the thread that brings the demand.
///
/// Inlinable, so it is specialized for the concrete downstream where it is subscribed; a thin shell
/// that holds what is generic (the downstream, the tuple builder, the failure) and calls out, over
/// the non-generic ``CombinerMachine`` and ``CombinerLinks``, whose transitions are not inlined.
@usableFromInline
final class CombinerCore<Downstream: Subscriber, Machine: CombinerMachine>: TurnStorage<CombinerState<Machine>>,
    Subscription, CustomStringConvertible
{
    @usableFromInline let name: String
    /// Guarded by `lock`; `nil` once terminated.
    @usableFromInline @exclusivity(unchecked) var subscriber: Downstream?
    /// The first failure. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var failure: Downstream.Failure?
    /// Builds the next tuple; `nil` once terminated, which also breaks the core ↔ children cycle.
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var take: (() -> Downstream.Input)?

    /// A core for `count` upstreams delivering to `downstream`; `name` names it in descriptions.
    @inlinable
    init(downstream: Downstream, count: Int, name: String) {
        subscriber = downstream
        self.name = name
        super.init(state: CombinerState(count: count))
    }

    @usableFromInline var description: String { name }

    /// Sets how tuples are built (reading the children created for this core), sends this
    /// subscription downstream; the caller then subscribes each child.
    @inlinable
    func start(take: @escaping () -> Downstream.Input) {
        lock.withLock { self.take = take }
        let downstream = lock.withLock { subscriber }
        downstream?.receive(subscription: self)
    }

    /// zip: sets how tuples are built; the caller then subscribes each child, and the downstream
    /// gets this subscription from the last child's `receive(subscription:)` (Combine's order), or
    /// just before a completion that comes earlier.
    @inlinable
    func prepare(take: @escaping () -> Downstream.Input) {
        lock.withLock {
            self.take = take
            state.links.awaitHandOff()
        }
    }

    /// Subscribes `child` to `publisher`, unless the downstream is already gone.
    @inlinable
    func subscribe<P: Publisher>(_ publisher: P, child: CombinerChild<Downstream, Machine, P.Output, P.Failure>)
    where P.Failure == Downstream.Failure {
        guard lock.withLock({ !state.links.terminated }) else { return }
        publisher.receive(subscriber: child)
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.lock()
        // zip, from inside a delivery: the child whose value is being delivered gets this demand as
        // the return of its `receive(_:)` (Combine's rule); the others now.
        guard let subscriptions = state.links.request(demand, onDeliveringThread: turn.owner == currentThreadID())
        else {
            lock.unlock()
            return
        }
        // The demand counts from this thread's turn on, as in merge, switchToLatest and buffer: the
        // thread that brings it delivers the tuples it allows (a thread inside the downstream on
        // another thread does not deliver them for it).
        takeTurnThenDrainLocked { state.machine.demand += demand }
        for (index, subscription) in subscriptions.enumerated() {
            // An upstream that failed (or finished the stream) inside an earlier request cancelled
            // the others: they are asked for nothing more (cancellation is final).
            if index > 0, lock.withLock({ state.links.terminated }) { break }
            subscription?.request(demand)
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let subscriptions = state.links.terminate()
        // Released after unlocking: the subscriber, the tuple builder (and with it the children
        // and their values).
        let released = (subscriber, take)
        subscriber = nil
        take = nil
        lock.unlock()
        for subscription in subscriptions {
            subscription?.cancel()
        }
        withExtendedLifetime(released) {}
    }

    // MARK: Children

    /// Child `index` got its subscription: kept, and asked for the demand so far; zip's downstream
    /// gets this subscription once every child has its own.
    @inlinable
    func childReceive(subscription: any Subscription, index: Int) {
        lock.lock()
        let acceptance = state.links.accept(subscription, at: index, finished: state.machine.finishedUpstreams)
        guard acceptance != .refuse else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let demand = state.machine.demand
        let handOff = acceptance == .keepAndHandOff ? subscriber : nil
        lock.unlock()
        if let handOff {
            handOff.receive(subscription: self)
        }
        if demand > 0 {
            subscription.request(demand)
        }
    }

    /// Child `index` sent a value; `store` puts it into the child's storage (it runs under the
    /// lock). Returns the demand the child's `receive(_:)` returns.
    @inlinable
    func childReceive(index: Int, store: () -> Void) -> Subscribers.Demand {
        lock.lock()
        guard !state.links.terminated, let take else {
            lock.unlock()
            return .none
        }
        store()
        switch state.machine.receive(from: index) {
        case .hold:
            lock.unlock()
            return .none
        case .giveBack:
            lock.unlock()
            return .max(1)
        case .emit:
            return deliverLocked(take(), from: Machine.returnsDemandToSender ? index : nil)
        }
    }

    /// Delivers `output` (already charged to the demand) on this thread, in its turn: waits if another
    /// thread holds the turn; then, unless nested, drains what else is due and gives the turn back.
    /// Called with the lock held; unlocks.
    ///
    /// `child` (zip): the child whose value completed the tuple. As in Combine, that child gets
    /// the demand the downstream returns (or, failing that, requests from inside the delivery) as
    /// the returned value, and every other child is asked for the returned demand
    /// (``CombinerMachine/route(returned:requestedDuringDelivery:)``); without a `child`, every
    /// child is asked for it.
    @inlinable
    func deliverLocked(_ output: Downstream.Input, from child: Int?) -> Subscribers.Demand {
        lock.assertHeld()
        let nested = enterTurnLocked(name: name)
        guard let downstream = subscriber else {
            // Cancelled or completed meanwhile.
            leaveTurnLocked(nested: nested)
            return .none
        }
        let outer = child.map { state.links.beginDelivery(from: $0) }
        let more = unlocked { downstream.receive(output) }
        state.machine.demand += more
        var route = DemandRoute(toSender: .none, toOthers: more)
        if let outer {
            route = Machine.route(returned: more, requestedDuringDelivery: state.links.endDelivery(restoring: outer))
        }
        // Copied only when there is demand to ask for (no array is copied per tuple otherwise).
        let subscriptions = route.toOthers == .none ? [] : state.links.subscriptions(except: child)
        if nested {
            lock.unlock()
        } else {
            drainLocked()
        }
        for subscription in subscriptions { subscription?.request(route.toOthers) }
        return route.toSender
    }

    /// Child `index` completed: the stream fails (the first failure), or finishes when the machine
    /// says nothing more can come.
    @inlinable
    func childReceive(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        lock.lock()
        guard !state.links.terminated, state.machine.finish(index) else {
            lock.unlock()
            return
        }
        let handOff = state.links.completed(index)
        if case .failure(let error) = completion, failure == nil {
            failure = error
        }
        if handOff {
            // A completion before every child has its subscription: the downstream gets its
            // subscription first.
            let downstream = subscriber
            lock.unlock()
            downstream?.receive(subscription: self)
            lock.lock()
            guard !state.links.terminated else {
                lock.unlock()
                return
            }
        }
        takeTurnThenDrainLocked()
    }

    /// With the lock held: takes the delivery turn (waiting for it if another thread holds it), then
    /// drains. If this thread already holds it (a call from inside the downstream), the outer call
    /// drains instead. Unlocks.
    @inlinable
    func takeTurnThenDrainLocked(_ inTurn: () -> Void = {}) {
        takeTurnLocked(name: name, inTurn) { drainLocked() }
    }

    /// Delivers the tuples due for lack of demand while there is demand, then a due completion, and
    /// gives the turn back. Called with `lock` and the turn held; unlocks.
    @inlinable
    func drainLocked() {
        lock.assertHeld()
        while true {
            guard let downstream = subscriber, let take else {
                leaveTurnLocked()
                return
            }
            if let failure {
                finishLocked(downstream, .failure(failure))
                return
            }
            switch state.machine.next() {
            case .emit:
                let output = take()
                let more = unlocked { downstream.receive(output) }
                state.machine.demand += more
                if more > 0 {
                    let subscriptions = state.links.subscriptions
                    unlocked {
                        for subscription in subscriptions { subscription?.request(more) }
                    }
                }
            case .finish:
                finishLocked(downstream, .finished)
                return
            case .idle:
                leaveTurnLocked()
                return
            }
        }
    }

    /// Ends the stream: cancels the children still running and completes (zip, as Combine's:
    /// completes, then cancels). Unlocks.
    @inlinable
    func finishLocked(_ downstream: Downstream, _ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.assertHeld()
        let subscriptions = state.links.terminate()
        let released = take
        subscriber = nil
        take = nil
        // Nobody calls the downstream after this (`subscriber` is nil): the turn can go now.
        leaveTurnLocked()
        if Machine.completesBeforeCancelling {
            downstream.receive(completion: completion)
            for subscription in subscriptions {
                subscription?.cancel()
            }
        } else {
            for subscription in subscriptions {
                subscription?.cancel()
            }
            downstream.receive(completion: completion)
        }
        withExtendedLifetime(released) {}
    }
}

/// One upstream of a ``CombinerCore``, with its own typed storage (guarded by the core's lock): the
/// latest value (combineLatest) or a queue (zip, ``CombinerMachine/keepsAll``).
@usableFromInline
final class CombinerChild<Downstream: Subscriber, Machine: CombinerMachine, Input, Failure: Error>: Subscriber,
    CustomStringConvertible
where Failure == Downstream.Failure {
    @usableFromInline let core: CombinerCore<Downstream, Machine>
    @usableFromInline let index: Int
    /// Guarded by the core's lock.
    @usableFromInline @exclusivity(unchecked) var latest: Input?
    /// Guarded by the core's lock.
    @usableFromInline @exclusivity(unchecked) var queue = FIFO<Input>()

    /// Upstream number `index` of `core`.
    @inlinable
    init(core: CombinerCore<Downstream, Machine>, index: Int) {
        self.core = core
        self.index = index
    }

    @usableFromInline var description: String { core.description }

    /// The value for the next tuple. Called by the core under its lock, only when one is held.
    @inlinable
    func take() -> Input {
        Machine.keepsAll ? queue.popFirst()! : latest!
    }

    @inlinable
    func receive(subscription: any Subscription) {
        core.childReceive(subscription: subscription, index: index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        core.childReceive(index: index) {
            if Machine.keepsAll { queue.append(input) } else { latest = input }
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        core.childReceive(completion: completion, index: index)
    }
}
