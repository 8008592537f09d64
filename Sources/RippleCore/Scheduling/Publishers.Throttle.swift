extension Publishers {
    /// A publisher that publishes either the most-recent or first element published by the upstream
    /// publisher in a specified time interval.
    ///
    /// Combine's timing: an element that arrives when nothing is pending schedules a delivery — at
    /// once (on the scheduler's next turn) if `interval` has passed since the last delivery (or
    /// there was none), else for `interval` after the last delivery. Elements that arrive before
    /// that delivery runs fold into it: it publishes the newest (`latest: true`) or the first
    /// (`latest: false`) of them. So `1, 2, 3` sent before the scheduler runs publish `3` alone.
    ///
    /// Demand: the upstream is asked for `.unlimited`; an element that arrives while the downstream
    /// has no demand is dropped at once (nothing is scheduled for it, and demand requested later
    /// does not bring it back). A completion waits for the pending delivery and follows it; with
    /// nothing pending it is scheduled at once.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The interval in which to find and emit the most recent element.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to publish elements.
        public let scheduler: Context
        /// A Boolean value indicating whether to publish the most recent element (else the first).
        public let latest: Bool

        /// Creates a `Throttle` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ThrottleInner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

extension Publisher {
    /// Publishes either the most-recent or first element published by the upstream publisher in the
    /// specified time interval.
    ///
    /// As in Combine, elements that arrive before a scheduled delivery runs fold into it: `1, 2, 3`
    /// sent before the scheduler runs publish `3` alone with `latest: true`, `1` with `false`. An
    /// element that arrives while the downstream has no demand is dropped; a completion follows the
    /// pending delivery. ``Publishers/Throttle`` has the timing in full.
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

private struct ThrottleState<Value, Failure: Error, Time> {
    /// What the scheduled delivery will publish.
    var pending: Value?
    /// A delivery is scheduled and has not run yet.
    var scheduled = false
    /// A completion that arrived while a delivery was scheduled: it follows that delivery.
    var completion: Subscribers.Completion<Failure>?
    /// When the last delivery ran.
    var lastDelivery: Time?
}

private final class ThrottleInner<Downstream: Subscriber, Context: Scheduler>:
    TimedInner<Downstream, Context, ThrottleState<Downstream.Input, Downstream.Failure, Context.SchedulerTimeType>>,
    Subscriber
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let interval: Context.SchedulerTimeType.Stride
    private let latest: Bool

    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
        self.interval = interval
        self.latest = latest
        super.init(downstream: downstream, scheduler: scheduler, options: nil, extra: ThrottleState(), name: "Throttle")
    }

    func receive(subscription: any Subscription) {
        accept(subscription)
    }

    /// Counts the downstream's demand; as in Combine, a request for `.none` is ignored.
    override func request(_ demand: Subscribers.Demand) {
        countDemand(demand)
    }

    private enum Due {
        case nothing
        case now
        case at(Context.SchedulerTimeType)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        let due = lock.withLock { () -> Due in
            guard state.downstream != nil, !state.upstream.isTerminal, state.demand > 0 else { return .nothing }
            if state.extra.scheduled {
                if latest { state.extra.pending = input }
                return .nothing
            }
            state.extra.pending = input
            state.extra.scheduled = true
            if let last = state.extra.lastDelivery, now < last.advanced(by: interval) {
                return .at(last.advanced(by: interval))
            }
            return .now
        }
        switch due {
        case .nothing:
            break
        case .now:
            scheduler.schedule(options: nil) { [self] in deliverPending() }
        case .at(let date):
            scheduler.schedule(after: date, tolerance: scheduler.minimumTolerance, options: nil) { [self] in
                deliverPending()
            }
        }
        return .none
    }

    /// The scheduled delivery: publishes what it holds, then a completion that waited for it.
    private func deliverPending() {
        let now = scheduler.now
        let (value, completion) = lock.withLock { () -> (Input?, Subscribers.Completion<Failure>?) in
            defer {
                state.extra.pending = nil
                state.extra.scheduled = false
                state.extra.completion = nil
                state.extra.lastDelivery = now
            }
            return (state.extra.pending, state.extra.completion)
        }
        if let value { deliver(value) }
        if let completion { complete(completion) }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let waits = lock.withLock { () -> Bool? in
            guard state.downstream != nil, !state.upstream.isTerminal else { return nil }
            state.upstream = .terminal
            if state.extra.scheduled {
                state.extra.completion = completion
                return true
            }
            return false
        }
        if waits == false {
            scheduler.schedule(options: nil) { [self] in complete(completion) }
        }
    }
}
