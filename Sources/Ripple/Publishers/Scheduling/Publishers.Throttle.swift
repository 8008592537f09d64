extension Publishers {
    /// A publisher that publishes either the most-recent or first element published by the upstream
    /// publisher in a specified time interval.
    ///
    /// The first element after a quiet period is delivered at once (on the scheduler) and opens a
    /// window of `interval`; elements inside the window are held (the latest, or the first) and
    /// delivered when it closes, which opens the next window. Upstream demand is `.unlimited`; an
    /// element due while the downstream has no demand is dropped. On completion a held element is
    /// delivered first, then the completion.
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
            upstream.subscribe(ThrottleInner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

extension Publisher {
    /// Publishes either the most-recent or first element published by the upstream publisher in the
    /// specified time interval.
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

private struct ThrottleState<Value> {
    var held: Value?
    var windowOpen = false
}

private final class ThrottleInner<Downstream: Subscriber, Context: Scheduler>:
    TimedInner<Downstream, Context, ThrottleState<Downstream.Input>>, Subscriber
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

    func receive(_ input: Input) -> Subscribers.Demand {
        let opensWindow = lock.withLock { () -> Bool in
            guard state.downstream != nil else { return false }
            if state.extra.windowOpen {
                if latest || state.extra.held == nil { state.extra.held = input }
                return false
            }
            state.extra.windowOpen = true
            return true
        }
        if opensWindow {
            scheduler.schedule(options: nil) { [self] in
                deliver(input)
                scheduleWindowEnd()
            }
        }
        return .none
    }

    /// Closes the window after `interval`: delivers what it held and opens the next one, or goes quiet.
    private func scheduleWindowEnd() {
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance, options: nil) {
            [self] in
            let held = lock.withLock { () -> Input? in
                defer { state.extra.held = nil }
                if state.extra.held == nil { state.extra.windowOpen = false }
                return state.extra.held
            }
            if let held {
                deliver(held)
                scheduleWindowEnd()
            }
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let held = lock.withLock { () -> Input? in
            state.upstream = .terminal
            defer { state.extra.held = nil }
            return state.extra.held
        }
        scheduler.schedule(options: nil) { [self] in
            if let held { deliver(held) }
            complete(completion)
        }
    }
}
