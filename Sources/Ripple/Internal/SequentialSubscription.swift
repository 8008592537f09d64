/// The subscription behind operators that subscribe to one publisher after another — append,
/// prepend, concatenate, catch, tryCatch, retry (rule 28).
///
/// The downstream sees one subscription for the whole run. Its demand is remembered; each
/// publisher in turn is subscribed only after the previous one completed, and is asked at once for
/// the demand not yet met. Every child carries a generation number so that a late event from a
/// replaced child is ignored.
final class SequentialSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    /// What to do when the current child completes.
    enum Next {
        /// Complete the downstream.
        case complete(Subscribers.Completion<Downstream.Failure>)
        /// Subscribe to the next publisher (the closure calls ``attach(_:onCompletion:)``).
        case `continue`(() -> Void)
    }

    private struct State {
        var downstream: Downstream?
        /// Requested by the downstream and not yet delivered.
        var demand = Subscribers.Demand.none
        var current: (any Subscription)?
        var generation = 0
    }

    private let lock = Lock()
    private var state: State
    private let name: String

    init(downstream: Downstream, name: String) {
        state = State(downstream: downstream)
        self.name = name
    }

    var description: String { name }

    /// Sends this subscription downstream, then subscribes the first publisher.
    func start<P: Publisher>(
        with publisher: P, onCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Next
    ) where P.Output == Downstream.Input {
        let downstream = lock.withLock { state.downstream }
        downstream?.receive(subscription: self)
        attach(publisher, onCompletion: onCompletion)
    }

    /// Subscribes `publisher` as the next child.
    func attach<P: Publisher>(
        _ publisher: P, onCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Next
    ) where P.Output == Downstream.Input {
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        let generation = state.generation
        lock.unlock()
        publisher.subscribe(Child(parent: self, generation: generation, onCompletion: onCompletion))
    }

    // MARK: Downstream side

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        state.demand += demand
        let current = state.current
        lock.unlock()
        current?.request(demand)
    }

    func cancel() {
        lock.lock()
        let current = state.current
        let released = state.downstream
        state.current = nil
        state.downstream = nil
        state.generation += 1
        lock.unlock()
        current?.cancel()
        _ = released
    }

    // MARK: Children

    private func childReceive(subscription: any Subscription, generation: Int) {
        lock.lock()
        guard state.downstream != nil, generation == state.generation, state.current == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.current = subscription
        let demand = state.demand
        lock.unlock()
        if demand > 0 {
            subscription.request(demand)
        }
    }

    private func childReceive(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        guard let downstream = state.downstream, generation == state.generation else {
            lock.unlock()
            return .none
        }
        if state.demand > 0 {
            state.demand -= 1
        }
        lock.unlock()
        let more = downstream.receive(input)
        if more > 0 {
            lock.withLock { state.demand += more }
        }
        return more
    }

    /// Retires the child; returns `true` if it was current (and so decides what comes next).
    private func childCompleted(generation: Int) -> Bool {
        lock.withLock {
            guard state.downstream != nil, generation == state.generation else { return false }
            state.generation += 1
            state.current = nil
            return true
        }
    }

    private func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        let downstream = state.downstream
        state.downstream = nil
        state.current = nil
        lock.unlock()
        downstream?.receive(completion: completion)
    }

    private final class Child<ChildFailure: Error>: Subscriber, CustomStringConvertible {
        typealias Input = Downstream.Input
        typealias Failure = ChildFailure

        let parent: SequentialSubscription
        let generation: Int
        let onCompletion: (Subscribers.Completion<ChildFailure>) -> Next

        init(parent: SequentialSubscription, generation: Int, onCompletion: @escaping (Subscribers.Completion<ChildFailure>) -> Next) {
            self.parent = parent
            self.generation = generation
            self.onCompletion = onCompletion
        }

        var description: String { parent.name }

        func receive(subscription: any Subscription) {
            parent.childReceive(subscription: subscription, generation: generation)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            parent.childReceive(input, generation: generation)
        }

        func receive(completion: Subscribers.Completion<ChildFailure>) {
            guard parent.childCompleted(generation: generation) else { return }
            switch onCompletion(completion) {
            case .complete(let completion):
                parent.finish(completion)
            case .continue(let next):
                next()
            }
        }
    }
}
