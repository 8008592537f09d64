import Ripple

/// A scheduler that runs every action at once, on the calling thread, with another scheduler's
/// time and option types — so it can stand in where that scheduler is expected.
///
/// ```swift
/// let model = FeedModel(scheduler: .immediate)   // an AnySchedulerOf<DispatchQueue>
/// let queueLike: ImmediateSchedulerOf<DispatchQueue> = DispatchQueue.immediate
/// ```
///
/// Its clock never moves: `now` is the instant it was created with, and an action scheduled for
/// any later date runs at once. A repeating schedule runs its action once, as
/// `ImmediateScheduler` does.
///
/// Beyond Combine: Combine's `ImmediateScheduler` has time and option types of its own, so it
/// cannot replace a `DispatchQueue` in code that names one.
public struct TypedImmediateScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    /// The scheduler's fixed current time.
    public let now: SchedulerTimeType

    /// Creates an immediate scheduler whose clock reads `now`.
    public init(now: SchedulerTimeType) {
        self.now = now
    }

    /// Zero: an immediate scheduler never waits.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs the action at once.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs the action at once, whatever the date.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs the action once, at once, and returns a cancellable with nothing left to cancel.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return AnyCancellable {}
    }
}

/// The immediate scheduler that stands for `S`: `ImmediateSchedulerOf<DispatchQueue>` is what
/// `DispatchQueue.immediate` returns.
public typealias ImmediateSchedulerOf<S: Scheduler> = TypedImmediateScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension TypedImmediateScheduler: Sendable where SchedulerTimeType: Sendable {}
