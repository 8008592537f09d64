extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    ///
    /// Every value and the completion are delivered `interval` after they arrive, on the scheduler,
    /// in order. Requests go straight to the upstream; demand the downstream returns from
    /// `receive(_:)` is requested from the upstream.
    ///
    /// Differs from Combine: after the subscriber cancels, nothing already scheduled is delivered;
    /// Combine still delivers a completion it scheduled before the cancel. Its subscription
    /// describes itself as "Delay"; Combine's has no description of its own (its type name).
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride
        /// The allowed tolerance in firing delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler to deliver the delayed events.
        public let scheduler: Context
        /// Options relevant to the scheduler's behavior.
        public let options: Context.SchedulerOptions?

        /// Creates a `Delay` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DelayInner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Delays delivery of all output to the downstream receiver by a specified amount of time on a
    /// particular scheduler.
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler,
            options: options)
    }
}

private final class DelayInner<Downstream: Subscriber, Upstream: Publisher, Context: Scheduler>:
    TimedInner<Downstream, Context, Void>, Subscriber
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let interval: Context.SchedulerTimeType.Stride
    private let tolerance: Context.SchedulerTimeType.Stride

    init(downstream: Downstream, publisher: Publishers.Delay<Upstream, Context>) {
        interval = publisher.interval
        tolerance = publisher.tolerance
        super.init(downstream: downstream, scheduler: publisher.scheduler, options: publisher.options, extra: (), name: "Delay")
    }

    override var initialUpstreamDemand: Subscribers.Demand { .none }

    func receive(subscription: any Subscription) {
        accept(subscription)
    }

    private func later(_ action: @escaping () -> Void) {
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        later { [self] in
            guard let downstream = lock.withLock({ state.downstream }) else { return }
            let more = downstream.receive(input)
            if more > 0 { lock.withLock { state.upstream.subscription }?.request(more) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { state.upstream = .terminal }
        later { [self] in complete(completion) }
    }

    /// Requests go straight upstream, as for any operator that does not count demand itself; as
    /// in Combine, a request for `.none` is passed on too, not trapped.
    override func request(_ demand: Subscribers.Demand) {
        passUpstream(demand)
    }
}
