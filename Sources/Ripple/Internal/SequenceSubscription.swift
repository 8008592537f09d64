/// Emits the elements of a sequence as demand allows, then a terminal completion
/// (`Publishers.Sequence`, `Record`).
///
/// Only the thread that holds the emitting role touches the iterator, so advancing it (which may
/// run user code) happens outside the lock. A request made from inside `receive` adds demand to
/// the running loop instead of starting a nested one.
final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>: Subscription,
    CustomStringConvertible
where Elements.Element == Downstream.Input {
    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var emitting = false
    }

    private let lock = Lock()
    private var state: State
    /// Owned by whichever thread holds `state.emitting`.
    private var iterator: Elements.Iterator
    private var next: Elements.Element?
    private let completion: Subscribers.Completion<Downstream.Failure>
    private let name: String

    /// Sends `elements` then `completion`. When `elements` is empty the subscriber gets
    /// ``Subscriptions/empty`` and the completion at once.
    static func start(
        _ elements: Elements, then completion: Subscribers.Completion<Downstream.Failure>,
        to downstream: Downstream, name: String
    ) {
        var iterator = elements.makeIterator()
        guard let first = iterator.next() else {
            downstream.receive(subscription: Subscriptions.empty)
            downstream.receive(completion: completion)
            return
        }
        let subscription = SequenceSubscription(
            downstream: downstream, iterator: iterator, first: first, completion: completion, name: name)
        downstream.receive(subscription: subscription)
    }

    private init(
        downstream: Downstream, iterator: Elements.Iterator, first: Elements.Element,
        completion: Subscribers.Completion<Downstream.Failure>, name: String
    ) {
        state = State(downstream: downstream)
        self.iterator = iterator
        self.next = first
        self.completion = completion
        self.name = name
    }

    var description: String { name }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        state.demand += demand
        guard !state.emitting else {
            lock.unlock()
            return
        }
        state.emitting = true
        while true {
            guard let downstream = state.downstream, state.demand > 0 else {
                state.emitting = false
                lock.unlock()
                return
            }
            state.demand -= 1
            lock.unlock()
            let value = next!
            next = iterator.next()
            let more = downstream.receive(value)
            if next == nil {
                lock.lock()
                let stillSubscribed = state.downstream != nil
                state.downstream = nil
                lock.unlock()
                if stillSubscribed {
                    downstream.receive(completion: completion)
                }
                return
            }
            lock.lock()
            state.demand += more
        }
    }

    func cancel() {
        lock.lock()
        let released = state.downstream
        state.downstream = nil
        lock.unlock()
        _ = released
    }
}
