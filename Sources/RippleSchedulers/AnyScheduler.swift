import Ripple

/// A type-erased scheduler: any scheduler whose time and option types match.
///
/// Inject a scheduler into a model without making the model generic. Type it after the scheduler
/// it stands for with ``AnySchedulerOf``, pass the real one in production and an immediate or
/// virtual-time one in tests:
///
/// ```swift
/// final class FeedModel: ObservableObject {
///     @Published var items: [String] = []
///     private let scheduler: AnySchedulerOf<DispatchQueue>
///     init(scheduler: AnySchedulerOf<DispatchQueue> = .main) { self.scheduler = scheduler }
/// }
/// let production = FeedModel()
/// let tests = FeedModel(scheduler: .immediate)
/// ```
///
/// Beyond Combine: Combine has no `AnyScheduler`; this one has the shape of the widely used
/// combine-schedulers library's. Sendable as Combine's schedulers are used: the wrapped scheduler
/// must be safe to call from the threads that use the wrapper (dispatch queues and the test
/// schedulers are).
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private let nowProvider: () -> SchedulerTimeType
    private let minimumToleranceProvider: () -> SchedulerTimeType.Stride
    private let scheduleNow: (SchedulerOptions?, @escaping () -> Void) -> Void
    private let scheduleAfter:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
    private let scheduleRepeating:
        (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping () -> Void) -> any Cancellable

    /// Wraps `scheduler`.
    public init<S: Scheduler>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        nowProvider = { scheduler.now }
        minimumToleranceProvider = { scheduler.minimumTolerance }
        scheduleNow = { options, action in scheduler.schedule(options: options, action) }
        scheduleAfter = { date, tolerance, options, action in
            scheduler.schedule(after: date, tolerance: tolerance, options: options, action)
        }
        scheduleRepeating = { date, interval, tolerance, options, action in
            scheduler.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
        }
    }

    /// A scheduler made of closures, one per requirement of `Scheduler` (for a scheduler that
    /// records, counts or refuses what it is asked to do).
    public init(
        minimumTolerance: @escaping () -> SchedulerTimeType.Stride,
        now: @escaping () -> SchedulerTimeType,
        scheduleImmediately: @escaping (SchedulerOptions?, @escaping () -> Void) -> Void,
        delayed: @escaping (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) ->
            Void,
        interval: @escaping (
            SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping () -> Void
        ) -> any Cancellable
    ) {
        nowProvider = now
        minimumToleranceProvider = minimumTolerance
        scheduleNow = scheduleImmediately
        scheduleAfter = delayed
        scheduleRepeating = interval
    }

    /// The wrapped scheduler's current time.
    public var now: SchedulerTimeType { nowProvider() }

    /// The wrapped scheduler's minimum tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceProvider() }

    /// Performs the action on the wrapped scheduler at its next opportunity.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        scheduleNow(options, action)
    }

    /// Performs the action on the wrapped scheduler at some time after `date`.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduleAfter(date, tolerance, options, action)
    }

    /// Performs the action on the wrapped scheduler repeatedly, until the returned cancellable is
    /// cancelled.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        scheduleRepeating(date, interval, tolerance, options, action)
    }
}

/// The type-erased scheduler that stands for `S`: `AnySchedulerOf<DispatchQueue>` accepts a dispatch
/// queue, `DispatchQueue.immediate`, or a virtual-time `DispatchQueue.test` from RippleTesting.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler {
    /// Wraps this scheduler in an ``AnyScheduler``.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
    /// ```
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}
