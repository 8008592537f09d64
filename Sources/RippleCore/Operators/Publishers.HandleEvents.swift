extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    ///
    /// The closures run before the event is passed on. `receiveCancel` runs once, for the first
    /// cancel of a subscription that has its upstream; after a completion or a cancel no closure runs.
    ///
    /// A cancel that arrives before the upstream subscription — possible only through the
    /// subscriber this operator attached upstream, which is also the downstream's subscription —
    /// is final and runs no closure: not `receiveCancel`, and not `receiveSubscription` when the
    /// subscription then arrives; that subscription is cancelled at once and nothing reaches the
    /// downstream.
    ///
    /// Differs from Combine: after the downstream cancelled, nothing more is passed on to it — no
    /// value, no completion. Combine's passes on what its upstream still sends after a cancel. For
    /// a cancel before the upstream subscription, Combine's runs `receiveCancel` at the cancel and
    /// `receiveSubscription` when the subscription arrives, and leaves that subscription uncancelled.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that executes when the publisher receives the subscription from the upstream publisher.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// A closure that executes when the publisher receives a value from the upstream publisher.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// A closure that executes when the upstream publisher finishes normally or terminates with an error.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// A closure that executes when the downstream receiver cancels publishing.
        public var receiveCancel: (() -> Void)?
        /// A closure that executes when the publisher receives a request for more elements.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a `HandleEvents` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // The inner keeps the closures only, never `self`: the upstream publisher is not kept
            // alive by the subscription.
            let handlers = EventHandlers(
                receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
            upstream.receive(subscriber: HandleEventsInner(downstream: subscriber, events: handlers))
        }
    }
}

extension Publisher {
    /// Performs the specified closures when publisher events occur.
    ///
    /// ```swift
    /// let cancellable = Just(1)
    ///     .handleEvents(receiveOutput: { print("saw", $0) })
    ///     .sink { _ in }
    /// // Prints "saw 1"
    /// ```
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}

/// The closures of one `handleEvents` subscription.
private struct EventHandlers<Input, Failure: Error> {
    var receiveSubscription: ((any Subscription) -> Void)?
    var receiveOutput: ((Input) -> Void)?
    var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    var receiveCancel: (() -> Void)?
    var receiveRequest: ((Subscribers.Demand) -> Void)?
}

/// Sits between upstream and downstream (as both subscriber and subscription) to report events.
private final class HandleEventsInner<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var upstream: (any Subscription)?
        var events: EventHandlers<Input, Failure>?
        var terminated = false
    }

    private let lock = Lock()
    private var state: State
    private let downstream: Downstream

    init(downstream: Downstream, events: EventHandlers<Input, Failure>) {
        self.downstream = downstream
        state = State(events: events)
    }

    var description: String { "HandleEvents" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    private var events: EventHandlers<Input, Failure>? {
        lock.withLock { state.events }
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard state.upstream == nil, !state.terminated else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.upstream = subscription
        let events = state.events
        lock.unlock()
        events?.receiveSubscription?(subscription)
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let events else { return .none }
        events.receiveOutput?(input)
        let demand = downstream.receive(input)
        if demand > 0 { events.receiveRequest?(demand) }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let events = state.events
        state = State(upstream: nil, events: nil, terminated: true)
        lock.unlock()
        guard let events else { return }
        events.receiveCompletion?(completion)
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = state.upstream
        let events = state.events
        lock.unlock()
        events?.receiveRequest?(demand)
        upstream?.request(demand)
    }

    func cancel() {
        lock.lock()
        let upstream = state.upstream
        let events = state.events
        state = State(upstream: nil, events: nil, terminated: true)
        lock.unlock()
        guard let upstream else { return }
        events?.receiveCancel?()
        upstream.cancel()
    }
}
