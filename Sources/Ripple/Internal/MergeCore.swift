/// The subscription behind `merge` and `MergeMany`: any number of upstreams with one output type,
/// delivered to one downstream one event at a time.
///
/// - Demand: with unlimited downstream demand every child is asked for `.unlimited`; otherwise each
///   child has at most one element outstanding (`.max(1)`), so at most one value per child waits
///   here while the downstream has no demand.
/// - Values are delivered in arrival order. When two upstreams send at the same moment, one thread
///   delivers and the other leaves its value in the queue for that thread to deliver (nothing is
///   lost or duplicated, and the downstream is never called concurrently).
/// - It finishes when every child has finished and nothing waits; the first failure cancels the
///   other children and is delivered at once (after the delivery in progress, if any).
final class MergeCore<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    private struct ChildState {
        var subscription: (any Subscription)?
        /// Has an outstanding request (`.max(1)`, or `.unlimited`).
        var requested = false
        /// Was asked for `.unlimited`: never needs asking again.
        var unlimited = false
        var finished = false
    }

    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var children: [ChildState]
        var finishedCount = 0
        var pending = FIFO<Downstream.Input>()
        var failure: Downstream.Failure?
        /// A thread is inside the downstream's `receive`; others queue their events for it.
        var delivering = false
    }

    private let lock = Lock()
    private var state: State
    private let name: String

    init(downstream: Downstream, count: Int, name: String) {
        state = State(downstream: downstream, children: Array(repeating: ChildState(), count: count))
        self.name = name
    }

    var description: String { name }

    /// Sends this subscription downstream; the caller then subscribes each child with ``subscribe(_:at:)``.
    func start() {
        let downstream = lock.withLock { state.downstream }
        downstream?.receive(subscription: self)
        if lock.withLock({ state.children.isEmpty }) {
            // MergeMany of nothing: finish at once.
            lock.lock()
            let downstream = state.downstream
            state.downstream = nil
            lock.unlock()
            downstream?.receive(completion: .finished)
        }
    }

    func subscribe<P: Publisher>(_ publisher: P, at index: Int)
    where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        guard lock.withLock({ state.downstream != nil }) else { return }
        publisher.subscribe(Child(core: self, index: index))
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
        let released = state.downstream
        state.downstream = nil
        state.pending.removeAll()
        for index in state.children.indices {
            state.children[index].subscription = nil
        }
        lock.unlock()
        for subscription in subscriptions {
            subscription.cancel()
        }
        _ = released
    }

    // MARK: Children

    private func childReceive(subscription: any Subscription, index: Int) {
        lock.lock()
        guard state.downstream != nil, state.children[index].subscription == nil, !state.children[index].finished else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.children[index].subscription = subscription
        let ask = state.demand > 0 && !state.children[index].requested
        let demand: Subscribers.Demand = state.demand == .unlimited ? .unlimited : .max(1)
        if ask {
            state.children[index].requested = true
            state.children[index].unlimited = demand == .unlimited
        }
        lock.unlock()
        if ask { subscription.request(demand) }
    }

    private func childReceive(_ input: Downstream.Input, index: Int) -> Subscribers.Demand {
        lock.lock()
        guard let downstream = state.downstream else {
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
        if unlimited || state.demand == .unlimited {
            // This child's `.max(1)` is spent; the drain asks it for `.unlimited` now.
            if !unlimited { state.children[index].requested = false }
            drainLocked()
            return .none
        }
        // Keep this child's one request going if there is still demand; the drain covers the rest.
        state.children[index].requested = false
        if state.demand > 0, state.pending.isEmpty, !state.children[index].finished,
            state.children[index].subscription != nil
        {
            state.children[index].requested = true
            drainLocked()
            return .max(1)
        }
        drainLocked()
        return .none
    }

    private func childReceive(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        lock.lock()
        guard state.downstream != nil, !state.children[index].finished else {
            lock.unlock()
            return
        }
        state.children[index].finished = true
        state.children[index].subscription = nil
        state.finishedCount += 1
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
                let subscriptions = state.children.compactMap(\.subscription)
                state.downstream = nil
                state.pending.removeAll()
                state.delivering = false
                lock.unlock()
                for subscription in subscriptions {
                    subscription.cancel()
                }
                downstream.receive(completion: .failure(failure))
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
            if state.pending.isEmpty, state.finishedCount == state.children.count {
                state.downstream = nil
                state.delivering = false
                lock.unlock()
                downstream.receive(completion: .finished)
                return
            }
            break
        }
        // Ask every idle child for more, now that the queue is as empty as demand allows.
        var asks: [(any Subscription, Subscribers.Demand)] = []
        if state.demand == .unlimited {
            for index in state.children.indices where !state.children[index].unlimited && !state.children[index].finished {
                guard let subscription = state.children[index].subscription else { continue }
                state.children[index].requested = true
                state.children[index].unlimited = true
                asks.append((subscription, .unlimited))
            }
        } else if state.demand > 0 {
            for index in state.children.indices where !state.children[index].requested && !state.children[index].finished {
                guard let subscription = state.children[index].subscription else { continue }
                state.children[index].requested = true
                asks.append((subscription, .max(1)))
            }
        }
        state.delivering = false
        lock.unlock()
        for (subscription, demand) in asks {
            subscription.request(demand)
        }
    }

    private final class Child: Subscriber, CustomStringConvertible {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure

        let core: MergeCore
        let index: Int

        init(core: MergeCore, index: Int) {
            self.core = core
            self.index = index
        }

        var description: String { core.name }

        func receive(subscription: any Subscription) { core.childReceive(subscription: subscription, index: index) }
        func receive(_ input: Input) -> Subscribers.Demand { core.childReceive(input, index: index) }
        func receive(completion: Subscribers.Completion<Failure>) { core.childReceive(completion: completion, index: index) }
    }
}
