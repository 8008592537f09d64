import Ripple

extension Publishers {
    /// A connectable publisher that emits its scheduler's time on a fixed interval — a timer that
    /// runs on any ``Scheduler``, not only a run loop.
    ///
    /// `Timer.publish(every:on:in:)` ticks only while its run loop runs: in an app, the main
    /// loop; on a server or in a test with no running loop, never. This timer asks its scheduler
    /// to repeat an action, so it ticks on a `DispatchQueue` (no run loop needed), and on a
    /// `TestScheduler` (RippleTesting) it ticks exactly when the test moves virtual time past each interval:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var ticks = 0
    /// let timer = Publishers.Timer(every: .seconds(1), scheduler: scheduler)
    ///     .autoconnect()
    ///     .sink { _ in ticks += 1 }
    /// scheduler.advance(by: .seconds(3))
    /// // ticks == 3
    /// timer.cancel()
    /// ```
    ///
    /// The first tick comes one interval after ``connect()``, as `Timer.publish`'s does; ticks
    /// reach the subscribers that have demand at that moment. The shape of combine-schedulers'
    /// timer (`Publishers.Timer(every:scheduler:)`, `scheduler.timerPublisher(every:)`).
    public final class Timer<S: Scheduler>: ConnectablePublisher, @unchecked Sendable {
        public typealias Output = S.SchedulerTimeType
        public typealias Failure = Never

        /// The time between ticks.
        public let interval: S.SchedulerTimeType.Stride
        /// How late a tick may come, or `nil` for the scheduler's minimum.
        public let tolerance: S.SchedulerTimeType.Stride?
        /// The scheduler the ticks are scheduled on.
        public let scheduler: S
        /// The scheduler options every tick is scheduled with.
        public let options: S.SchedulerOptions?

        private let subject = PassthroughSubject<S.SchedulerTimeType, Never>()

        /// Creates a timer that ticks every `interval` on `scheduler` once connected.
        public init(
            every interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
            scheduler: S, options: S.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == S.SchedulerTimeType, Downstream.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        /// Starts the timer; cancel the result to stop it.
        public func connect() -> any Cancellable {
            let (subject, scheduler) = (self.subject, self.scheduler)
            return scheduler.schedule(
                after: scheduler.now.advanced(by: interval), interval: interval,
                tolerance: tolerance ?? scheduler.minimumTolerance, options: options
            ) {
                subject.send(scheduler.now)
            }
        }
    }
}

extension Scheduler {
    /// A timer that ticks every `interval` on this scheduler once connected (see
    /// ``Publishers/Timer``).
    public func timerPublisher(
        every interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil,
        options: SchedulerOptions? = nil
    ) -> Publishers.Timer<Self> {
        Publishers.Timer(every: interval, tolerance: tolerance, scheduler: self, options: options)
    }
}
