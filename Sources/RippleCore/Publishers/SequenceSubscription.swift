/// Emits the elements of a sequence as demand allows, then a terminal completion
/// (`Publishers.Sequence`, `Record`).
///
/// Only the thread that holds the emitting role touches the iterator, so advancing it (which may
/// run user code) happens outside the lock. A request made from inside `receive` adds demand to
/// the running loop instead of starting a nested one.
///
/// Described as Combine describes it: a `Publishers.Sequence` subscription by its sequence ("Sequence"
/// once finished or cancelled), a `Record` subscription by its recorded outputs ("Cancelled Events"
/// once over), reflecting the sequence (and a record's completion).
final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Elements.Element == Downstream.Input {
    /// Which publisher this subscription serves: what it is called and how it describes itself.
    enum Origin {
        case sequence
        case record
    }

    private struct State {
        var downstream: Downstream?
        /// The elements, for the description; released with the downstream.
        var elements: Elements?
        var demand = Subscribers.Demand.none
        var emitting = false
    }

    private let lock = Lock()
    private var state: State
    /// Owned by whichever thread holds `state.emitting`.
    private var iterator: Elements.Iterator
    private var next: Elements.Element?
    private let completion: Subscribers.Completion<Downstream.Failure>
    private let origin: Origin

    private var name: String {
        switch origin {
        case .sequence: "Sequence"
        case .record: "Record"
        }
    }

    /// Sends `elements` then `completion`. When `elements` is empty the subscriber gets
    /// ``Subscriptions/empty`` and the completion at once.
    static func start(
        _ elements: Elements, then completion: Subscribers.Completion<Downstream.Failure>,
        to downstream: Downstream, origin: Origin
    ) {
        var iterator = elements.makeIterator()
        guard let first = iterator.next() else {
            downstream.receive(subscription: Subscriptions.empty)
            downstream.receive(completion: completion)
            return
        }
        let subscription = SequenceSubscription(
            downstream: downstream, elements: elements, iterator: iterator, first: first, completion: completion,
            origin: origin)
        downstream.receive(subscription: subscription)
    }

    private init(
        downstream: Downstream, elements: Elements, iterator: Elements.Iterator, first: Elements.Element,
        completion: Subscribers.Completion<Downstream.Failure>, origin: Origin
    ) {
        state = State(downstream: downstream, elements: elements)
        self.iterator = iterator
        self.next = first
        self.completion = completion
        self.origin = origin
    }

    var description: String {
        let elements = lock.withLock { state.elements }
        guard let elements else {
            return origin == .sequence ? "Sequence" : "Cancelled Events"
        }
        return String(describing: elements)
    }

    var customMirror: Mirror {
        let elements = lock.withLock { state.elements }
        let sequence: Any = elements.map { $0 as Any } ?? [Elements.Element]()
        switch origin {
        case .sequence:
            return Mirror(self, children: [("sequence", sequence)])
        case .record:
            return Mirror(self, children: [("sequence", sequence), ("completion", completion)])
        }
    }

    var playgroundDescription: Any { description }

    /// Adds the demand and emits what it allows. As in Combine, a request for `.none` adds
    /// nothing and does not trap.
    func request(_ demand: Subscribers.Demand) {
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
                let elements = state.elements
                state.elements = nil
                lock.unlock()
                _ = elements
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
        let elements = state.elements
        state.downstream = nil
        state.elements = nil
        lock.unlock()
        _ = released
        _ = elements
    }
}
