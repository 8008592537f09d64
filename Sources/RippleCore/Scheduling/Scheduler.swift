/// A protocol that defines when and how to execute a closure.
///
/// Operators such as ``Publisher/receive(on:options:)``, ``Publisher/debounce(for:scheduler:options:)``
/// and ``Publisher/delay(for:tolerance:scheduler:options:)`` take a scheduler. Ripple ships
/// ``ImmediateScheduler``, a `DispatchQueue` conformance (where Dispatch exists), `RunLoop` and
/// `OperationQueue` conformances in `RippleFoundation`, and a virtual-time `TestScheduler` in
/// `RippleTesting`.
///
/// Like Combine's, the actions are plain `() -> Void` closures: a scheduler that runs them on
/// another thread takes on the caller's promise that this is safe.
public protocol Scheduler<SchedulerTimeType> {
    /// Describes an instant in time for this scheduler.
    associatedtype SchedulerTimeType: Strideable
    where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// A type that defines options accepted by the scheduler.
    associatedtype SchedulerOptions

    /// This scheduler's definition of the current moment in time.
    var now: SchedulerTimeType { get }

    /// The minimum tolerance allowed by the scheduler.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Performs the action at the next possible opportunity.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

    /// Performs the action at some time after the specified date.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void)

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// until the returned cancellable is cancelled.
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable
}

extension Scheduler {
    /// Performs the action at the next possible opportunity, without options.
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Performs the action at some time after the specified date, using the minimum tolerance.
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Performs the action at some time after the specified date.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action repeatedly, using the minimum tolerance.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }

    /// Performs the action repeatedly.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }
}

/// A protocol that provides a scheduler with an expression for relative time.
public protocol SchedulerTimeIntervalConvertible {
    /// Converts the specified number of seconds into an instance of this scheduler time type.
    static func seconds(_ s: Int) -> Self
    /// Converts the specified number of seconds, as a floating-point value, into an instance of this
    /// scheduler time type.
    static func seconds(_ s: Double) -> Self
    /// Converts the specified number of milliseconds into an instance of this scheduler time type.
    static func milliseconds(_ ms: Int) -> Self
    /// Converts the specified number of microseconds into an instance of this scheduler time type.
    static func microseconds(_ us: Int) -> Self
    /// Converts the specified number of nanoseconds into an instance of this scheduler time type.
    static func nanoseconds(_ ns: Int) -> Self
}

/// Lets a scheduler's action cross into a closure the compiler requires to be `@Sendable`
/// (`DispatchQueue.async`, `Task`). Schedulers run actions the caller handed over, exactly as
/// Combine's do; the caller keeps the promise that doing so is safe.
@usableFromInline
struct UncheckedAction: @unchecked Sendable {
    @usableFromInline let run: () -> Void

    @inlinable
    init(_ run: @escaping () -> Void) { self.run = run }
}
