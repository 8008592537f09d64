extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    ///
    /// The subscription itself is passed on synchronously, and requests and cancellation go
    /// straight to the upstream; every value and the completion are scheduled on `scheduler`, in
    /// order. After cancellation, events already scheduled are not delivered. Demand the
    /// downstream returns from `receive(_:)` is requested from the upstream.
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
            upstream.subscribe(ReceiveOnInner(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }

    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    ///
    /// Subscribing to the upstream, requests and cancellation are scheduled on `scheduler`; values
    /// and completion are delivered synchronously, on whatever thread the upstream uses.
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
            scheduler.schedule(options: options) { upstream.subscribe(inner) }
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

private final class SubscribeOnInner<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var upstream = UpstreamStatus.awaitingSubscription
    private let downstream: Downstream
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    var description: String { "SubscribeOn" }

    func receive(subscription: any Subscription) {
        guard lock.withLock({ upstream.accept(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { upstream = .terminal }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "SubscribeOn: demand must be greater than zero (got \(demand))")
        guard let subscription = lock.withLock({ upstream.subscription }) else { return }
        scheduler.schedule(options: options) { subscription.request(demand) }
    }

    func cancel() {
        guard let subscription = lock.withLock({ upstream.terminate() }) else { return }
        scheduler.schedule(options: options) { subscription.cancel() }
    }
}
