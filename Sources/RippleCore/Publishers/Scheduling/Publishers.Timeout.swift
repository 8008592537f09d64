extension Publishers {
    /// A publisher that terminates publishing if the upstream publisher exceeds a specified time
    /// interval without producing an element.
    ///
    /// The clock starts at subscription and restarts with every element. When it runs out, the
    /// upstream is cancelled and the publisher finishes — or fails with `customError()`, if given.
    /// Requests go straight to the upstream; values are delivered on the scheduler.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum time interval the publisher can go without emitting an element.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to deliver events.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?
        /// A closure that executes if the publisher times out; `nil` finishes normally.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a `Timeout` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: TimeoutInner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publisher {
    /// Terminates publishing if the upstream publisher exceeds the specified time interval without
    /// producing an element.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

private final class TimeoutInner<Downstream: Subscriber, Upstream: Publisher, Context: Scheduler>:
    TimedInner<Downstream, Context, Int>, Subscriber
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let interval: Context.SchedulerTimeType.Stride
    private let customError: (() -> Failure)?

    init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
        interval = publisher.interval
        customError = publisher.customError
        super.init(downstream: downstream, scheduler: publisher.scheduler, options: publisher.options, extra: 0, name: "Timeout")
    }

    override var initialUpstreamDemand: Subscribers.Demand { .none }

    func receive(subscription: any Subscription) {
        if accept(subscription) { restartClock() }
    }

    /// Starts a new wait; an older wait that fires finds a newer generation and does nothing.
    private func restartClock() {
        let generation = lock.withLock { () -> Int in
            state.extra += 1
            return state.extra
        }
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance, options: options) {
            [self] in
            guard lock.withLock({ state.extra == generation && state.downstream != nil }) else { return }
            complete(customError.map { .failure($0()) } ?? .finished, cancellingUpstream: true)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard lock.withLock({ state.downstream != nil }) else { return .none }
        restartClock()
        scheduler.schedule(options: options) { [self] in
            guard let downstream = lock.withLock({ state.downstream }) else { return }
            let more = downstream.receive(input)
            if more > 0 { lock.withLock { state.upstream.subscription }?.request(more) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            state.upstream = .terminal
            state.extra += 1
        }
        scheduler.schedule(options: options) { [self] in complete(completion) }
    }

    /// Requests go straight upstream, as for any operator that does not count demand itself; as
    /// in Combine, a request for `.none` is passed on too, not trapped.
    override func request(_ demand: Subscribers.Demand) {
        passUpstream(demand)
    }
}
