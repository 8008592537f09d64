extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an
    /// upstream publisher.
    ///
    /// The first element reports the time since subscription; each later one the time since the
    /// element before. Synchronous: it reads `scheduler.now` and schedules nothing.
    ///
    /// As in Combine, the demand the downstream returns for an interval is requested of the
    /// upstream from inside that delivery, and `.none` is returned to the upstream.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler used for tracking the timing of events.
        public let scheduler: Context

        /// Creates a `MeasureInterval` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let scheduler = self.scheduler
            let last = PreviousValue<Context.SchedulerTimeType>()
            upstream.receive(subscriber:
                StepInner<S, Upstream.Output, Failure>(
                    downstream: subscriber, name: "MeasureInterval", passesZeroDemand: true,
                    requestsReturnedDemand: true, mapFailure: { $0 }
                ) { _ in
                    let now = scheduler.now
                    defer { last.value = now }
                    return .send((last.value ?? now).distance(to: now))
                }
                .startingClock { last.value = scheduler.now })
        }
    }
}

extension Publisher {
    /// Measures and emits the time interval between events received from an upstream publisher.
    public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension StepInner {
    /// Runs `start` when the subscription arrives (MeasureInterval starts its clock there).
    fileprivate func startingClock(_ start: @escaping () -> Void) -> ClockStartingSubscriber<StepInner> {
        ClockStartingSubscriber(inner: self, start: start)
    }
}

fileprivate struct ClockStartingSubscriber<Inner: Subscriber>: Subscriber {
    typealias Input = Inner.Input
    typealias Failure = Inner.Failure
    let inner: Inner
    let start: () -> Void
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
        start()
        inner.receive(subscription: subscription)
    }
    func receive(_ input: Input) -> Subscribers.Demand { inner.receive(input) }
    func receive(completion: Subscribers.Completion<Failure>) { inner.receive(completion: completion) }
}
