extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    ///
    /// The subscription itself is passed on synchronously, and requests and cancellation go
    /// straight to the upstream; every value and the completion are scheduled on `scheduler`, in
    /// order. After cancellation, events already scheduled are not delivered. Demand the
    /// downstream returns from `receive(_:)` is requested from the upstream.
    ///
    /// Differs from Combine: a completion scheduled before the subscriber cancelled is not
    /// delivered either; Combine still delivers it (values it drops, as Ripple does).
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher uses to deliver elements.
        public let scheduler: Context
        /// Scheduler options used to customize element delivery.
        public let options: Context.SchedulerOptions?

        /// Creates a `ReceiveOn` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReceiveOnInner(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }

    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    ///
    /// Subscribing to the upstream, requests and cancellation are scheduled on `scheduler`; values
    /// and completion are delivered synchronously, on whatever thread the upstream uses.
    ///
    /// Differs from Combine: a request made from inside the upstream's handling of a request (on
    /// `ImmediateScheduler`, say) is passed on in turn; Combine traps on its own lock.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher should use to receive subscribe, request and cancel calls.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a `SubscribeOn` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = SubscribeOnInner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) { upstream.receive(subscriber: inner) }
        }
    }
}

extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// ```swift
    /// let cancellable = results
    ///     .receive(on: DispatchQueue.main)   // deliver on the main queue
    ///     .sink { label.text = $0 }
    /// ```
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }

    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

private final class ReceiveOnInner<Downstream: Subscriber, Context: Scheduler>: OperatorInner<Downstream, Void>,
    Subscriber
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.scheduler = scheduler
        self.options = options
        super.init(downstream: downstream, extra: (), name: "ReceiveOn")
    }

    func receive(subscription: any Subscription) {
        accept(subscription)
    }

    /// Requests go straight upstream; as in Combine, a request for `.none` is passed on too.
    override func request(_ demand: Subscribers.Demand) {
        passUpstream(demand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        scheduler.schedule(options: options) { [self] in
            guard let downstream = lock.withLock({ state.downstream }) else { return }
            let more = downstream.receive(input)
            if more > 0 {
                lock.withLock { state.upstream.subscription }?.request(more)
            }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { state.upstream = .terminal }
        scheduler.schedule(options: options) { [self] in
            let downstream = lock.withLock { () -> Downstream? in
                defer { state.downstream = nil }
                return state.downstream
            }
            downstream?.receive(completion: completion)
        }
    }
}

/// `subscribe(on:)`'s subscription: requests and cancels are scheduled, deliveries are
/// synchronous. After a cancel nothing more reaches the downstream, even when the upstream (whose
/// cancel is still scheduled) keeps sending.
private final class SubscribeOnInner<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
    }

    private let lock = Lock()
    private var state: State
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = State(downstream: downstream)
        self.scheduler = scheduler
        self.options = options
    }

    var description: String { "SubscribeOn" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard let downstream = state.downstream, state.upstream.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            lock.unlock()
            return
        }
        state.upstream = .terminal
        state.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion)
    }

    /// Schedules the request, `.none` included: Combine passes a request for `.none` on.
    func request(_ demand: Subscribers.Demand) {
        guard let subscription = lock.withLock({ state.upstream.subscription }) else { return }
        scheduler.schedule(options: options) { subscription.request(demand) }
    }

    func cancel() {
        lock.lock()
        let subscription = state.upstream.terminate()
        let released = state.downstream
        state.downstream = nil
        lock.unlock()
        _ = released
        guard let subscription else { return }
        scheduler.schedule(options: options) { subscription.cancel() }
    }
}
