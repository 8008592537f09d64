extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval.
    ///
    /// ```swift
    /// let cancellable = Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { print($0) }
    /// ```
    ///
    /// The timer runs on `runLoop`, from ``TimerPublisher/connect()`` until the returned
    /// cancellable is cancelled; the first tick comes one interval after connecting. Ticks reach
    /// the subscribers that have demand.
    ///
    /// The run loop must be running: in an app, the main loop runs; on Linux, a server or a
    /// command-line tool runs `RunLoop.main` only if it says so (`RunLoop.main.run()`), and an async
    /// `main` or `dispatchMain()` does not. In a test, XCTest's `wait(for:timeout:)` runs the main
    /// loop while it waits, so a timer on `.main` ticks inside it; outside such a wait, nothing
    /// runs the loop. Without a running loop the timer never ticks. For a
    /// timer on any scheduler — a `DispatchQueue`, or virtual time in a test — use
    /// `Publishers.Timer(every:scheduler:)` from RippleSchedulers.
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> Timer.TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// A connectable publisher that repeatedly emits the current date on a given interval.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        public typealias Output = Date
        public typealias Failure = Never

        public let interval: TimeInterval
        public let tolerance: TimeInterval?
        public let runLoop: RunLoop
        public let mode: RunLoop.Mode
        public let options: RunLoop.SchedulerOptions?

        private let subject = PassthroughSubject<Date, Never>()

        /// Creates a publisher that repeatedly emits the current date on the given interval.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            require(interval > 0, "Timer.publish: the interval must be positive (got \(interval))")
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        /// Starts the timer; cancel the result to stop it.
        public func connect() -> any Cancellable {
            let subject = self.subject
            // The first tick one interval after connecting, as Combine's: on Linux,
            // `Timer(timeInterval:repeats:block:)` fires at once.
            let timer = Timer(fire: Date().addingTimeInterval(interval), interval: interval, repeats: true) { _ in
                subject.send(Date())
            }
            if let tolerance { timer.tolerance = tolerance }
            runLoop.add(timer, forMode: mode)
            let box = TimerBox(timer: timer)
            return AnyCancellable { box.timer.invalidate() }
        }
    }
}

/// Lets the connection's cancellable (which must be `Sendable`) invalidate the timer.
private struct TimerBox: @unchecked Sendable {
    let timer: Timer
}
