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
/// - combineLatest emits only once every child has a value (rule 29) and finishes when all
///   children have finished. zip finishes, cancelling the others, as soon as a finished child has
///   nothing buffered. The first failure cancels the other children and is delivered at once
///   (after a delivery in progress).
/// - Deliveries never overlap: a value arriving while another thread delivers is stored, and that
///   thread delivers the resulting tuple before it leaves.
final class CombinerCore<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    enum Mode {
        case latest
        case zip
    }

    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var subscriptions: [(any Subscription)?]
        /// Values held per child: 0 or 1 for combineLatest, the queue length for zip.
        var counts: [Int]
        var finished: [Bool]
        var finishedCount = 0
        /// combineLatest: tuples built when their value arrived, while demand allowed (so that every
        /// value yields its own tuple, even when another thread is delivering).
        var queued = FIFO<Downstream.Input>()
        /// combineLatest: a value arrived beyond the demand; the newest tuple is due on the next request.
        var fresh = false
        var failure: Downstream.Failure?
        var delivering = false
        /// Builds the next tuple; `nil` once terminated, which also breaks the core ↔ children cycle.
        var take: (() -> Downstream.Input)?
    }

    private let lock = Lock()
    private var state: State
    private let mode: Mode
    private let name: String

    init(downstream: Downstream, count: Int, mode: Mode, name: String) {
        state = State(
            downstream: downstream, subscriptions: Array(repeating: nil, count: count),
            counts: Array(repeating: 0, count: count), finished: Array(repeating: false, count: count))
        self.mode = mode
        self.name = name
    }

    var description: String { name }

    /// Sets how tuples are built (reading the children created for this core), sends this
    /// subscription downstream; the caller then subscribes each child.
    func start(take: @escaping () -> Downstream.Input) {
        lock.withLock { state.take = take }
        let downstream = lock.withLock { state.downstream }
        downstream?.receive(subscription: self)
    }

    func subscribe<P: Publisher>(_ publisher: P, child: CombinerChild<Downstream, P.Output, P.Failure>)
    where P.Failure == Downstream.Failure {
        guard lock.withLock({ state.downstream != nil }) else { return }
        publisher.subscribe(child)
    }

    // MARK: Downstream side

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        state.demand += demand
        let subscriptions = state.subscriptions
        if state.delivering {
            lock.unlock()
        } else {
            state.delivering = true
            drainLocked()
        }
        for subscription in subscriptions {
            subscription?.request(demand)
        }
    }

    func cancel() {
        lock.lock()
        let subscriptions = state.subscriptions
        let released = (state.downstream, state.take)
        state.downstream = nil
        state.take = nil
        state.queued.removeAll()
        state.subscriptions = state.subscriptions.map { _ in nil }
        lock.unlock()
        for subscription in subscriptions {
            subscription?.cancel()
        }
        _ = released
    }

    // MARK: Children

    fileprivate func childReceive(subscription: any Subscription, index: Int) {
        lock.lock()
        guard state.downstream != nil, state.subscriptions[index] == nil, !state.finished[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.subscriptions[index] = subscription
        let demand = state.demand
        lock.unlock()
        if demand > 0 {
            subscription.request(demand)
        }
    }

    /// `store` puts the value into the child's storage; it runs under the lock.
    fileprivate func childReceive(index: Int, store: () -> Void) -> Subscribers.Demand {
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return .none
        }
        store()
        let wasEmpty = state.counts[index] == 0
        var replace = false
        switch mode {
        case .latest:
            state.counts[index] = 1
            if state.counts.contains(0) {
                // A first value that still cannot make a tuple gives its demand back.
                replace = wasEmpty && state.demand != .unlimited
            } else if let take = state.take, state.demand == .unlimited || state.demand > state.queued.count {
                state.queued.append(take())
                state.fresh = false
            } else {
                state.fresh = true
            }
        case .zip:
            state.counts[index] += 1
        }
        if state.delivering {
            lock.unlock()
            return replace ? .max(1) : .none
        }
        state.delivering = true
        drainLocked()
        return replace ? .max(1) : .none
    }

    fileprivate func childReceive(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        lock.lock()
        guard state.downstream != nil, !state.finished[index] else {
            lock.unlock()
            return
        }
        state.finished[index] = true
        state.finishedCount += 1
        state.subscriptions[index] = nil
        if case .failure(let error) = completion, state.failure == nil {
            state.failure = error
        }
        if state.delivering {
            lock.unlock()
            return
        }
        state.delivering = true
        drainLocked()
    }

    private var isDone: Bool {
        switch mode {
        case .latest:
            // Done when every child finished and no unsent tuple waits for demand.
            return state.finishedCount == state.counts.count && state.queued.isEmpty
                && !(state.fresh && !state.counts.contains(0))
        case .zip:
            // Done when a finished child has nothing left to pair.
            return state.counts.indices.contains { state.finished[$0] && state.counts[$0] == 0 }
        }
    }

    /// Delivers tuples while there is demand and every child has a value, then a due completion.
    /// Called with `lock` held and `delivering` set; unlocks.
    private func drainLocked() {
        while true {
            guard let downstream = state.downstream, let take = state.take else {
                state.delivering = false
                lock.unlock()
                return
            }
            if let failure = state.failure {
                finishLocked(downstream, .failure(failure))
                return
            }
            var next: Downstream.Input?
            if state.demand > 0 {
                switch mode {
                case .latest:
                    if let queued = state.queued.popFirst() {
                        next = queued
                    } else if state.fresh, !state.counts.contains(0) {
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
            state.delivering = false
            lock.unlock()
            return
        }
    }

    /// Ends the stream: cancels the children still running and completes. Unlocks.
    private func finishLocked(_ downstream: Downstream, _ completion: Subscribers.Completion<Downstream.Failure>) {
        let subscriptions = state.subscriptions
        let take = state.take
        state.downstream = nil
        state.take = nil
        state.queued.removeAll()
        state.subscriptions = state.subscriptions.map { _ in nil }
        state.delivering = false
        lock.unlock()
        for subscription in subscriptions {
            subscription?.cancel()
        }
        _ = take
        downstream.receive(completion: completion)
    }
}

/// One upstream of a ``CombinerCore``, with its own typed storage (guarded by the core's lock).
final class CombinerChild<Downstream: Subscriber, Input, Failure: Error>: Subscriber, CustomStringConvertible
where Failure == Downstream.Failure {
    private let core: CombinerCore<Downstream>
    private let index: Int
    private let keepsAll: Bool
    private var latest: Input?
    private var queue = FIFO<Input>()

    init(core: CombinerCore<Downstream>, index: Int, mode: CombinerCore<Downstream>.Mode) {
        self.core = core
        self.index = index
        keepsAll = mode == .zip
    }

    var description: String { core.description }

    /// The value for the next tuple. Called by the core under its lock, only when one is held.
    func take() -> Input {
        keepsAll ? queue.popFirst()! : latest!
    }

    func receive(subscription: any Subscription) {
        core.childReceive(subscription: subscription, index: index)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.childReceive(index: index) {
            if keepsAll { queue.append(input) } else { latest = input }
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        core.childReceive(completion: completion, index: index)
    }
}
