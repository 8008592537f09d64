/// How a ``CombinerCore`` pairs values.
@usableFromInline
enum CombinerMode {
    case latest
    case zip
}

/// What ``CombinerCore`` decides under its lock, free of generic types (fixed offsets even in
/// unspecialized code).
@usableFromInline
struct CombinerState {
    /// `true` once the downstream is gone (cancelled or completed).
    @usableFromInline var terminated = false
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var subscriptions: [(any Subscription)?]
    /// Values held per child: 0 or 1 for combineLatest, the queue length for zip.
    @usableFromInline var counts: [Int]
    @usableFromInline var finished: [Bool]
    @usableFromInline var finishedCount = 0
    /// combineLatest: a value arrived beyond the demand; the newest tuple is due on the next request.
    @usableFromInline var fresh = false
    /// Who is calling the downstream, and who waits to (see ``DeliveryTurn``).
    @usableFromInline var turn = DeliveryTurn()
    /// zip: the downstream gets this subscription once every child has its own (or completed).
    @usableFromInline var awaitingHandOff = false
    /// zip: the child whose value completed the tuple being delivered (on the turn's thread), and
    /// what the downstream requested of this subscription from inside that delivery.
    @usableFromInline var processing: Int?
    @usableFromInline var processingDemand = Subscribers.Demand.none

    @inlinable
    init(count: Int) {
        subscriptions = Array(repeating: nil, count: count)
        counts = Array(repeating: 0, count: count)
        finished = Array(repeating: false, count: count)
    }
}

/// The subscription behind `combineLatest` and `zip`: a fixed number of typed upstreams whose
/// values are combined into tuples for one downstream.
///
/// Each child keeps its own typed storage (the latest value, or a queue for zip) guarded by this
/// core's lock; `take` reads (or, for zip, pops) one value from every child to build the tuple,
/// under the lock, with no user code. The transform variants are `map` on top, as in Combine.
///
/// - Demand: a downstream request for `n` is forwarded to every child. combineLatest returns
///   `.max(1)` to a child whose value produced no tuple because another child has no value yet.
///   While there is demand, each value yields its own tuple, built the moment it arrives (so two
///   threads sending at once lose nothing); a value that arrives beyond the demand only replaces
///   that child's latest value, and the newest tuple is delivered on the next request.
///   zip buffers every value.
/// - combineLatest emits only once every child has a value and finishes when all
///   children have finished. zip finishes as soon as a finished child has nothing buffered, then
///   cancels the others (Combine's order). The first failure cancels the other children and is delivered at once
///   (after a delivery in progress).
/// - Delivery follows the engine's contract (``DeliveryTurn``): the tuple a value completes, while
///   there is demand, is built at once and delivered on the thread that sent the value; a thread
///   that finds another one delivering waits its turn (arrival order) and then delivers its own
///   tuple; a send from inside the downstream's `receive` is delivered nested. Tuples due for lack of
///   demand are delivered by the thread that brings the demand.
///
/// Inlinable, so it is specialized for the concrete downstream where it is subscribed.
@usableFromInline
final class CombinerCore<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline typealias Mode = CombinerMode



    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var state: CombinerState
    @usableFromInline let mode: Mode
    @usableFromInline let name: String
    /// Guarded by `lock`; `nil` once terminated.
    @usableFromInline @exclusivity(unchecked) var subscriber: Downstream?
    /// The first failure. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var failure: Downstream.Failure?
    /// Builds the next tuple; `nil` once terminated, which also breaks the core ↔ children cycle.
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var take: (() -> Downstream.Input)?

    @inlinable
    init(downstream: Downstream, count: Int, mode: Mode, name: String) {
        state = CombinerState(count: count)
        subscriber = downstream
        self.mode = mode
        self.name = name
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
            state.awaitingHandOff = true
        }
    }

    @inlinable
    func subscribe<P: Publisher>(_ publisher: P, child: CombinerChild<Downstream, P.Output, P.Failure>)
    where P.Failure == Downstream.Failure {
        guard lock.withLock({ !state.terminated }) else { return }
        publisher.subscribe(child)
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.lock()
        guard !state.terminated else {
            lock.unlock()
            return
        }
        state.demand += demand
        var subscriptions = state.subscriptions
        if let child = state.processing, state.turn.owner == currentThreadID() {
            // zip, from inside a delivery: the child whose value is being delivered gets this
            // demand as the return of its `receive(_:)` (Combine's rule); the others now.
            subscriptions[child] = nil
            state.processingDemand = demand
        }
        takeTurnThenDrainLocked()
        for subscription in subscriptions {
            subscription?.request(demand)
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let subscriptions = state.subscriptions
        // Released after unlocking: the subscriber, the tuple builder (and with it the children
        // and their values).
        let released = (subscriber, take)
        subscriber = nil
        take = nil
        state.terminated = true
        state.subscriptions = state.subscriptions.map { _ in nil }
        lock.unlock()
        for subscription in subscriptions {
            subscription?.cancel()
        }
        withExtendedLifetime(released) {}
    }

    // MARK: Children

    @inlinable
    func childReceive(subscription: any Subscription, index: Int) {
        lock.lock()
        guard !state.terminated, state.subscriptions[index] == nil, !state.finished[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.subscriptions[index] = subscription
        let demand = state.demand
        var handOff: Downstream?
        if state.awaitingHandOff,
            !state.subscriptions.indices.contains(where: { state.subscriptions[$0] == nil && !state.finished[$0] })
        {
            state.awaitingHandOff = false
            handOff = subscriber
        }
        lock.unlock()
        if let handOff {
            handOff.receive(subscription: self)
        }
        if demand > 0 {
            subscription.request(demand)
        }
    }

    /// `store` puts the value into the child's storage; it runs under the lock.
    @inlinable
    func childReceive(index: Int, store: () -> Void) -> Subscribers.Demand {
        lock.lock()
        guard !state.terminated else {
            lock.unlock()
            return .none
        }
        store()
        let wasEmpty = state.counts[index] == 0
        var replace = false
        var output: Downstream.Input?
        switch mode {
        case .latest:
            state.counts[index] = 1
            if state.counts.contains(0) {
                // A first value that still cannot make a tuple gives its demand back.
                replace = wasEmpty && state.demand != .unlimited
            } else if let take, state.demand > 0 {
                output = take()
                state.fresh = false
            } else {
                state.fresh = true
            }
        case .zip:
            state.counts[index] += 1
            if let take, state.demand > 0, !state.counts.contains(0) {
                output = take()
                for child in state.counts.indices { state.counts[child] -= 1 }
            }
        }
        guard let output else {
            lock.unlock()
            return replace ? .max(1) : .none
        }
        state.demand -= 1
        return deliverLocked(output, from: mode == .zip ? index : nil)
    }

    /// Delivers `output` (already charged to the demand) on this thread, in its turn: waits if another
    /// thread holds the turn; then, unless nested, drains what else is due and gives the turn back.
    /// Called with the lock held; unlocks.
    ///
    /// `child` (zip): the child whose value completed the tuple. As in Combine, the demand the
    /// downstream returns (or, failing that, requests from inside the delivery) goes back to that
    /// child only, as the returned value; otherwise every child is asked for the returned demand.
    @inlinable
    func deliverLocked(_ output: Downstream.Input, from child: Int?) -> Subscribers.Demand {
        let nested: Bool
        switch state.turn.enter(currentThreadID(), name: name) {
        case .call(let isNested):
            nested = isNested
        case .wait(let waiter):
            waiter.waitForTurn(on: state.turn.queue.unsafelyUnwrapped, releasing: lock)
            nested = false
        }
        guard let downstream = subscriber else {
            // Cancelled or completed meanwhile.
            if nested { lock.unlock() } else { leaveTurnLocked() }
            return .none
        }
        let outer = (state.processing, state.processingDemand)
        if let child {
            state.processing = child
            state.processingDemand = .none
        }
        lock.unlock()
        let more = downstream.receive(output)
        lock.lock()
        state.demand += more
        var subscriptions = more > 0 ? state.subscriptions : []
        var returned = Subscribers.Demand.none
        if child != nil {
            returned = more > 0 ? more : state.processingDemand
            subscriptions = []
            (state.processing, state.processingDemand) = outer
        }
        if nested {
            lock.unlock()
        } else {
            drainLocked()
        }
        for subscription in subscriptions { subscription?.request(more) }
        return returned
    }

    @inlinable
    func childReceive(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        lock.lock()
        guard !state.terminated, !state.finished[index] else {
            lock.unlock()
            return
        }
        state.finished[index] = true
        state.finishedCount += 1
        state.subscriptions[index] = nil
        if case .failure(let error) = completion, failure == nil {
            failure = error
        }
        if state.awaitingHandOff {
            // A completion before every child has its subscription: the downstream gets its
            // subscription first.
            state.awaitingHandOff = false
            let downstream = subscriber
            lock.unlock()
            downstream?.receive(subscription: self)
            lock.lock()
            guard !state.terminated else {
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
    func takeTurnThenDrainLocked() {
        switch state.turn.enter(currentThreadID(), name: name) {
        case .call(nested: true):
            lock.unlock()
        case .call(nested: false):
            drainLocked()
        case .wait(let waiter):
            waiter.waitForTurn(on: state.turn.queue.unsafelyUnwrapped, releasing: lock)
            drainLocked()
        }
    }

    /// Gives the delivery turn back (to the next waiter, woken after unlocking). Unlocks.
    @inlinable
    func leaveTurnLocked() {
        let exit = state.turn.leave()
        lock.unlock()
        if case .handOff(let next) = exit { next.wake() }
    }

    @inlinable
    var isDone: Bool {
        switch mode {
        case .latest:
            // Done when every child finished and no unsent tuple waits for demand.
            return state.finishedCount == state.counts.count && !(state.fresh && !state.counts.contains(0))
        case .zip:
            // Done when a finished child has nothing left to pair.
            return state.counts.indices.contains { state.finished[$0] && state.counts[$0] == 0 }
        }
    }

    /// Delivers the tuples due for lack of demand while there is demand, then a due completion, and
    /// gives the turn back. Called with `lock` and the turn held; unlocks.
    @inlinable
    func drainLocked() {
        while true {
            guard let downstream = subscriber, let take else {
                leaveTurnLocked()
                return
            }
            if let failure {
                finishLocked(downstream, .failure(failure))
                return
            }
            var next: Downstream.Input?
            if state.demand > 0 {
                switch mode {
                case .latest:
                    if state.fresh, !state.counts.contains(0) {
                        next = take()
                        state.fresh = false
                    }
                case .zip:
                    if !state.counts.contains(0) {
                        next = take()
                        for index in state.counts.indices { state.counts[index] -= 1 }
                    }
                }
            }
            if let output = next {
                state.demand -= 1
                lock.unlock()
                let more = downstream.receive(output)
                lock.lock()
                state.demand += more
                if more > 0 {
                    let subscriptions = state.subscriptions
                    lock.unlock()
                    for subscription in subscriptions { subscription?.request(more) }
                    lock.lock()
                }
                continue
            }
            if isDone {
                finishLocked(downstream, .finished)
                return
            }
            leaveTurnLocked()
            return
        }
    }

    /// Ends the stream: cancels the children still running and completes (zip, as Combine's:
    /// completes, then cancels). Unlocks.
    @inlinable
    func finishLocked(_ downstream: Downstream, _ completion: Subscribers.Completion<Downstream.Failure>) {
        let subscriptions = state.subscriptions
        let released = take
        subscriber = nil
        take = nil
        state.terminated = true
        state.subscriptions = state.subscriptions.map { _ in nil }
        // Nobody calls the downstream after this (`subscriber` is nil): the turn can go now.
        let exit = state.turn.leave()
        lock.unlock()
        if case .handOff(let next) = exit { next.wake() }
        if mode == .zip {
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

/// One upstream of a ``CombinerCore``, with its own typed storage (guarded by the core's lock).
@usableFromInline
final class CombinerChild<Downstream: Subscriber, Input, Failure: Error>: Subscriber, CustomStringConvertible
where Failure == Downstream.Failure {
    @usableFromInline let core: CombinerCore<Downstream>
    @usableFromInline let index: Int
    @usableFromInline let keepsAll: Bool
    /// Guarded by the core's lock.
    @usableFromInline @exclusivity(unchecked) var latest: Input?
    /// Guarded by the core's lock.
    @usableFromInline @exclusivity(unchecked) var queue = FIFO<Input>()

    @inlinable
    init(core: CombinerCore<Downstream>, index: Int, mode: CombinerCore<Downstream>.Mode) {
        self.core = core
        self.index = index
        keepsAll = mode == .zip
    }

    @usableFromInline var description: String { core.description }

    /// The value for the next tuple. Called by the core under its lock, only when one is held.
    @inlinable
    func take() -> Input {
        keepsAll ? queue.popFirst()! : latest!
    }

    @inlinable
    func receive(subscription: any Subscription) {
        core.childReceive(subscription: subscription, index: index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        core.childReceive(index: index) {
            if keepsAll { queue.append(input) } else { latest = input }
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        core.childReceive(completion: completion, index: index)
    }
}
