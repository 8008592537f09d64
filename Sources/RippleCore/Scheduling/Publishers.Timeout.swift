extension Publishers {
    /// A publisher that terminates publishing if the upstream publisher exceeds a specified time
    /// interval without producing an element.
    ///
    /// The clock starts at subscription, starts again at the downstream's first request (as in
    /// Combine), and restarts with every element. When it runs out, the
    /// upstream is cancelled and the publisher finishes — or fails with `customError()`, if given.
    /// Requests go straight to the upstream; values are delivered on the scheduler.
    ///
    /// Differs from Combine: on `ImmediateScheduler` it times out at once, during the
    /// subscription; Combine traps on its own lock.
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

/// The clock's generation (a timeout scheduled for an older one does nothing) and whether the
/// downstream has made its first request.
private struct TimeoutClock {
    var generation = 0
    var requested = false
    /// The subscription is on its way downstream: a wait that runs out meanwhile (on a scheduler
    /// that runs it at once) is acted on once the downstream has it, never before.
    var handingOn = false
    /// A wait ran out while the subscription was on its way: the subscription has timed out, and
    /// nothing more is asked of the upstream or taken from it.
    var ranOutWhileHandingOn = false
}

private final class TimeoutInner<Downstream: Subscriber, Upstream: Publisher, Context: Scheduler>:
    TimedInner<Downstream, Context, TimeoutClock>, Subscriber
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let interval: Context.SchedulerTimeType.Stride
    private let customError: (() -> Failure)?

    init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
        interval = publisher.interval
        customError = publisher.customError
        super.init(downstream: downstream, scheduler: publisher.scheduler, options: publisher.options, extra: TimeoutClock(), name: "Timeout")
    }

    override var initialUpstreamDemand: Subscribers.Demand { .none }

    /// The clock starts before the subscription goes downstream, as in Combine (OpenCombine's
    /// `TimeoutTests.testBasicBehavior`, recorded against Combine: the subscription's timeout is
    /// scheduled before the one the downstream's first request schedules), so of two waits due at
    /// the same instant the outer operator's runs last.
    ///
    /// A wait that runs out before the downstream has the subscription (an immediate scheduler runs
    /// it inside `schedule`) ends the subscription right after the downstream receives it: nothing
    /// reaches a subscriber before its subscription.
    func receive(subscription: any Subscription) {
        let starts = lock.withLock { () -> Bool in
            guard state.downstream != nil && state.upstream.isAwaitingSubscription else { return false }
            state.extra.handingOn = true
            return true
        }
        guard starts else {
            accept(subscription)
            return
        }
        restartClock()
        accept(subscription)
        let ranOut = lock.withLock { () -> Bool in
            state.extra.handingOn = false
            return state.extra.ranOutWhileHandingOn
        }
        if ranOut { runOut() }
    }

    /// Ends the subscription: the upstream is cancelled, the downstream finishes or gets the custom error.
    private func runOut() {
        complete(customError.map { .failure($0()) } ?? .finished, cancellingUpstream: true)
    }

    /// Starts a new wait; an older wait that fires finds a newer generation and does nothing.
    private func restartClock() {
        let generation = lock.withLock { () -> Int in
            state.extra.generation += 1
            return state.extra.generation
        }
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance, options: options) {
            [self] in
            let runsOut = lock.withLock { () -> Bool in
                guard state.extra.generation == generation && state.downstream != nil else { return false }
                guard !state.extra.handingOn else {
                    state.extra.ranOutWhileHandingOn = true
                    return false
                }
                return true
            }
            if runsOut { runOut() }
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard lock.withLock({ state.downstream != nil && !state.extra.ranOutWhileHandingOn }) else { return .none }
        restartClock()
        scheduler.schedule(options: options) { [self] in
            guard let downstream = lock.withLock({ state.downstream }) else { return }
            let more = downstream.receive(input)
            if more > 0 { lock.withLock { state.upstream.subscription }?.request(more) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let timedOut = lock.withLock { () -> Bool in
            state.upstream = .terminal
            state.extra.generation += 1
            return state.extra.ranOutWhileHandingOn
        }
        guard !timedOut else { return }  // the time-out's own completion follows
        scheduler.schedule(options: options) { [self] in complete(completion) }
    }

    /// Requests go straight upstream, as for any operator that does not count demand itself; as
    /// in Combine, a request for `.none` is passed on too, not trapped.
    /// The downstream's first request (`.none` too) starts the clock again, as in Combine
    /// (OpenCombine's `TimeoutTests.testRequest`, recorded against Combine: the timeout is
    /// scheduled when the subscription arrives and again at the first request, not at later ones).
    override func request(_ demand: Subscribers.Demand) {
        let (first, timedOut) = lock.withLock { () -> (Bool, Bool) in
            guard !state.extra.ranOutWhileHandingOn else { return (false, true) }
            guard state.downstream != nil, !state.extra.requested else { return (false, false) }
            state.extra.requested = true
            return (true, false)
        }
        guard !timedOut else { return }
        if first { restartClock() }
        passUpstream(demand)
    }
}
