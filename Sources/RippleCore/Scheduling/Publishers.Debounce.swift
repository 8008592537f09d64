extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between
    /// events.
    ///
    /// It asks the upstream for `.unlimited`; each element restarts the wait; when `dueTime` passes
    /// with no newer element, the latest one is delivered if the downstream has demand (otherwise
    /// dropped). As in Combine, the completion is delivered on the scheduler at once, and an element
    /// still waiting is dropped.
    ///
    /// Differs from Combine: a completion scheduled before the subscriber cancelled is not
    /// delivered (nothing is delivered after `cancel()` returns); what Combine does is not recorded
    /// (OpenCombine delivers it).
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context
        /// Scheduler options that customize this publisher's delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a `Debounce` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DebounceInner(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// ```swift
    /// let cancellable = searchText
    ///     .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
    ///     .sink { search($0) }
    /// ```
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

private struct DebounceState<Value> {
    var latest: Value?
    var generation = 0
}

private final class DebounceInner<Downstream: Subscriber, Context: Scheduler>:
    TimedInner<Downstream, Context, DebounceState<Downstream.Input>>, Subscriber
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let dueTime: Context.SchedulerTimeType.Stride

    init(downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?) {
        self.dueTime = dueTime
        super.init(downstream: downstream, scheduler: scheduler, options: options, extra: DebounceState(), name: "Debounce")
    }

    func receive(subscription: any Subscription) {
        accept(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let generation = lock.withLock { () -> Int? in
            guard state.downstream != nil else { return nil }
            state.extra.latest = input
            state.extra.generation += 1
            return state.extra.generation
        }
        guard let generation else { return .none }
        scheduler.schedule(after: scheduler.now.advanced(by: dueTime), tolerance: scheduler.minimumTolerance, options: options) {
            [self] in
            let value = lock.withLock { () -> Input? in
                guard state.extra.generation == generation else { return nil }
                defer { state.extra.latest = nil }
                return state.extra.latest
            }
            if let value { deliver(value) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            state.upstream = .terminal
            state.extra.latest = nil
            state.extra.generation += 1
        }
        scheduler.schedule(options: options) { [self] in complete(completion) }
    }
}
