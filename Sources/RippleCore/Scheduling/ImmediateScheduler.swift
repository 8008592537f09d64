/// A scheduler that performs every action at once, on the calling thread.
///
/// It has no clock: `now` is always the same instant, and an action scheduled "after" a date runs
/// immediately. A repeating schedule runs its action once (Combine's behaviour).
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The time type of the immediate scheduler: a single instant. As in Combine, its arithmetic is
    /// inert — `now.advanced(by: 100) == now`, and the distance between any two instants is zero —
    /// while its strides add, subtract and compare as plain numbers.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// A distance between two instants of the immediate scheduler.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            public typealias FloatLiteralType = Double
            public typealias IntegerLiteralType = Int
            public typealias Magnitude = Int

            /// The value of this time interval.
            public var magnitude: Int

            /// A stride of `value` ticks.
            public init(_ value: Int) { magnitude = value }
            public init(integerLiteral value: Int) { magnitude = value }
            public init(floatLiteral value: Double) { magnitude = Int(value) }
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }

            public static func seconds(_ s: Int) -> Stride { Stride(0) }
            public static func seconds(_ s: Double) -> Stride { Stride(0) }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(0) }
            public static func microseconds(_ us: Int) -> Stride { Stride(0) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(0) }
        }

        /// Zero: there is only one instant.
        public func distance(to other: SchedulerTimeType) -> Stride { Stride(0) }
        /// The same instant: time does not move on the immediate scheduler.
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    public static let shared = ImmediateScheduler()

    public var now: SchedulerTimeType { SchedulerTimeType() }
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        action()
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return AnyCancellable {}
    }
}
