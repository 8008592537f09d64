/// The subscription behind `merge`, `MergeMany` and `flatMap`: upstreams with one output type,
/// delivered to one downstream one event at a time.
///
/// - Children: a fixed set (merge), or added while an outer upstream runs (flatMap, which asks the
///   outer upstream for `maxPublishers` and for one more each time a child finishes). Finished
///   children's slots are reused; a generation number keeps a late event from an old child out.
/// - Demand: with unlimited downstream demand every child is asked for `.unlimited`; otherwise each
///   child has at most one element outstanding (`.max(1)`), so at most one value per child waits
///   here while the downstream has no demand.
/// - Values are delivered in arrival order. When two upstreams send at the same moment, one thread
///   delivers and the other leaves its value in the queue for that thread to deliver (nothing is
///   lost or duplicated, and the downstream is never called concurrently).
/// - It finishes when the outer upstream (if any) and every child have finished and nothing waits;
///   the first failure cancels everything else and is delivered at once (after the delivery in
///   progress, if any).
final class MergeCore<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    private struct ChildState {
        var subscription: (any Subscription)?
        /// Has an outstanding request (`.max(1)`, or `.unlimited`).
        var requested = false
        /// Was asked for `.unlimited`: never needs asking again.
        var unlimited = false
        var finished = false
        var generation = 0
    }

    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var children: [ChildState]
        /// Slots of finished children, for reuse.
        var free: [Int] = []
        /// Children not yet finished.
        var active: Int
        /// flatMap's upstream of publishers; `.terminal` when there is none or it has finished.
        var outer = UpstreamStatus.terminal
        var pending = FIFO<Downstream.Input>()
        var failure: Downstream.Failure?
        /// A thread is inside the downstream's `receive`; others queue their events for it.
        var delivering = false
    }

    private let lock = Lock()
    private var state: State
    private let name: String
    /// flatMap with a bounded `maxPublishers`: ask the outer upstream for one more per finished child.
    private let refillsOuter: Bool

    /// A merge of `count` children, subscribed with ``subscribe(_:at:)``.
    init(downstream: Downstream, count: Int, name: String) {
        state = State(downstream: downstream, children: Array(repeating: ChildState(), count: count), active: count)
        self.name = name
        refillsOuter = false
    }

    /// A flatMap: children are added as the outer upstream publishes them.
    init(downstream: Downstream, outerIsBounded: Bool, name: String) {
        state = State(downstream: downstream, children: [], active: 0)
        state.outer = .awaitingSubscription
        self.name = name
        refillsOuter = outerIsBounded
    }

    var description: String { name }

    /// Sends this subscription downstream (and, for a merge of nothing, finishes).
    func start() {
        let downstream = lock.withLock { state.downstream }
        downstream?.receive(subscription: self)
        lock.lock()
        guard state.downstream != nil, !state.delivering else {
            lock.unlock()
            return
        }
        state.delivering = true
        drainLocked()
    }

    func subscribe<P: Publisher>(_ publisher: P, at index: Int)
    where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        guard lock.withLock({ state.downstream != nil }) else { return }
        publisher.subscribe(Child(core: self, index: index, generation: 0))
    }

    // MARK: The outer upstream (flatMap)

    /// Takes the outer subscription; returns `false` if it must be cancelled.
    func outerReceive(subscription: any Subscription) -> Bool {
        lock.withLock {
            guard state.downstream != nil, case .awaitingSubscription = state.outer else { return false }
            state.outer = .subscribed(subscription)
            return true
        }
    }

    /// Subscribes a new child for a publisher the outer upstream produced.
    func addChild<P: Publisher>(_ publisher: P) where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        lock.lock()
        guard state.downstream != nil, state.failure == nil else {
            lock.unlock()
            return
        }
        let index: Int
        if let reused = state.free.popLast() {
            index = reused
            state.children[index] = ChildState(generation: state.children[index].generation + 1)
        } else {
            index = state.children.count
            state.children.append(ChildState())
        }
        state.active += 1
        let generation = state.children[index].generation
        lock.unlock()
        publisher.subscribe(Child(core: self, index: index, generation: generation))
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
        if state.delivering {
            lock.unlock()
            return
        }
        state.delivering = true
        drainLocked()
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
        if state.delivering {
            // The delivering thread sees the new demand when it drains.
            lock.unlock()
            return
        }
        state.delivering = true
        drainLocked()
    }

    func cancel() {
        lock.lock()
        let subscriptions = state.children.compactMap(\.subscription)
        let outer = state.outer.terminate()
        let released = state.downstream
        state.downstream = nil
        state.pending.removeAll()
        state.children.removeAll()
        lock.unlock()
        outer?.cancel()
        for subscription in subscriptions {
            subscription.cancel()
        }
        _ = released
    }

    // MARK: Children

    private func isCurrent(_ index: Int, _ generation: Int) -> Bool {
        index < state.children.count && state.children[index].generation == generation
            && !state.children[index].finished
    }

    private func childReceive(subscription: any Subscription, index: Int, generation: Int) {
        lock.lock()
        guard state.downstream != nil, isCurrent(index, generation), state.children[index].subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.children[index].subscription = subscription
        let ask = state.demand > 0
        let demand: Subscribers.Demand = state.demand == .unlimited ? .unlimited : .max(1)
        if ask {
            state.children[index].requested = true
            state.children[index].unlimited = demand == .unlimited
        }
        lock.unlock()
        if ask { subscription.request(demand) }
    }

    private func childReceive(_ input: Downstream.Input, index: Int, generation: Int) -> Subscribers.Demand {
        lock.lock()
        guard let downstream = state.downstream, isCurrent(index, generation) else {
            lock.unlock()
            return .none
        }
        let unlimited = state.children[index].unlimited
        guard !state.delivering, state.demand > 0, state.pending.isEmpty else {
            state.pending.append(input)
            if !unlimited { state.children[index].requested = false }
            lock.unlock()
            return .none
        }
        state.delivering = true
        state.demand -= 1
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        state.demand += more
        guard isCurrent(index, generation), !unlimited else {
            drainLocked()
            return .none
        }
        // This child's `.max(1)` is spent. Keep it going by returning demand if there is more and
        // nothing queued; when demand became unlimited the drain asks it for `.unlimited` instead.
        state.children[index].requested = false
        if state.demand > 0, state.demand != .unlimited, state.pending.isEmpty, state.children[index].subscription != nil {
            state.children[index].requested = true
            drainLocked()
            return .max(1)
        }
        drainLocked()
        return .none
    }

    private func childReceive(completion: Subscribers.Completion<Downstream.Failure>, index: Int, generation: Int) {
        lock.lock()
        guard state.downstream != nil, isCurrent(index, generation) else {
            lock.unlock()
            return
        }
        state.children[index].finished = true
        state.children[index].subscription = nil
        state.active -= 1
        state.free.append(index)
        var refill: (any Subscription)?
        switch completion {
        case .failure(let error):
            if state.failure == nil { state.failure = error }
        case .finished:
            if refillsOuter { refill = state.outer.subscription }
        }
        if state.delivering {
            lock.unlock()
        } else {
            state.delivering = true
            drainLocked()
        }
        refill?.request(.max(1))
    }

    /// Delivers queued values while there is demand, then a due completion, then asks idle
    /// children for more. Called with `lock` held and `delivering` set; unlocks.
    private func drainLocked() {
        while true {
            guard let downstream = state.downstream else {
                state.delivering = false
                lock.unlock()
                return
            }
            if let failure = state.failure {
                finishLocked(downstream, .failure(failure))
                return
            }
            if state.demand > 0, let value = state.pending.popFirst() {
                state.demand -= 1
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                state.demand += more
                continue
            }
            if state.pending.isEmpty, state.active == 0, state.outer.isTerminal {
                finishLocked(downstream, .finished)
                return
            }
            break
        }
        // Ask every idle child for more, now that the queue is as empty as demand allows.
        var asks: [(any Subscription, Subscribers.Demand)] = []
        if state.demand > 0 {
            let unlimited = state.demand == .unlimited
            for index in state.children.indices {
                let child = state.children[index]
                guard !child.finished, let subscription = child.subscription,
                    unlimited ? !child.unlimited : !child.requested
                else { continue }
                state.children[index].requested = true
                state.children[index].unlimited = unlimited
                asks.append((subscription, unlimited ? .unlimited : .max(1)))
            }
        }
        state.delivering = false
        lock.unlock()
        for (subscription, demand) in asks {
            subscription.request(demand)
        }
    }

    /// Ends the stream: cancels what still runs and completes. Unlocks.
    private func finishLocked(_ downstream: Downstream, _ completion: Subscribers.Completion<Downstream.Failure>) {
        let subscriptions = state.children.compactMap(\.subscription)
        let outer = state.outer.terminate()
        state.downstream = nil
        state.pending.removeAll()
        state.children.removeAll()
        state.delivering = false
        lock.unlock()
        outer?.cancel()
        for subscription in subscriptions {
            subscription.cancel()
        }
        downstream.receive(completion: completion)
    }

    private final class Child: Subscriber, CustomStringConvertible {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure

        let core: MergeCore
        let index: Int
        let generation: Int

        init(core: MergeCore, index: Int, generation: Int) {
            self.core = core
            self.index = index
            self.generation = generation
        }

        var description: String { core.name }

        func receive(subscription: any Subscription) {
            core.childReceive(subscription: subscription, index: index, generation: generation)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            core.childReceive(input, index: index, generation: generation)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            core.childReceive(completion: completion, index: index, generation: generation)
        }
    }
}
