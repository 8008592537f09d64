
extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date this type represents.
        public var date: Date

        public init(_ date: Date) { self.date = date }

        public func distance(to other: SchedulerTimeType) -> Stride { Stride(other.date.timeIntervalSince(date)) }
        public func advanced(by n: Stride) -> SchedulerTimeType { SchedulerTimeType(date.addingTimeInterval(n.magnitude)) }

        /// The interval by which run loop times advance, in seconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Codable, Hashable, Sendable
        {
            public typealias FloatLiteralType = TimeInterval
            public typealias IntegerLiteralType = TimeInterval
            public typealias Magnitude = TimeInterval

            /// The value of this time interval in seconds.
            public var magnitude: TimeInterval
            /// The value of this time interval in seconds.
            public var timeInterval: TimeInterval { magnitude }

            public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
            public init(integerLiteral value: TimeInterval) { magnitude = value }
            public init(floatLiteral value: TimeInterval) { magnitude = value }
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = TimeInterval(exactly: source) else { return nil }
                magnitude = value
            }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }

            public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
            public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
        }
    }

    /// Options that affect the operation of the run loop scheduler (none yet, as in Combine).
    public struct SchedulerOptions: Sendable {}

    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedBlock(action)
        perform { action.run() }
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = UncheckedBlock(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in action.run() }
        timer.tolerance = tolerance.magnitude
        add(timer, forMode: .default)
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let action = UncheckedBlock(action)
        let timer = Timer(fire: date.date, interval: interval.magnitude, repeats: true) { _ in action.run() }
        timer.tolerance = tolerance.magnitude
        add(timer, forMode: .default)
        let box = UncheckedBlock { timer.invalidate() }
        return AnyCancellable { box.run() }
    }
}

extension OperationQueue: Scheduler {
    /// The scheduler time type used by the operation queue.
    public typealias SchedulerTimeType = RunLoop.SchedulerTimeType

    /// Options that affect the operation of the operation queue scheduler (none yet, as in Combine).
    public struct SchedulerOptions: Sendable {}

    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedBlock(action)
        addOperation { action.run() }
    }

    /// Runs the action on this queue at or after `date` (a dispatch timer measures the wait).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = UncheckedBlock(action)
        let queue = UncheckedQueue(self)
        let delay = max(0, date.date.timeIntervalSinceNow)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            queue.queue.addOperation { action.run() }
        }
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let action = UncheckedBlock(action)
        let queue = UncheckedQueue(self)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { queue.queue.addOperation { action.run() } }
        timer.schedule(
            deadline: .now() + max(0, date.date.timeIntervalSinceNow), repeating: max(interval.magnitude, 0.000_001))
        timer.resume()
        let source = UncheckedBlock { timer.cancel() }
        return AnyCancellable { source.run() }
    }
}

/// A scheduler action crossing into a `@Sendable` closure; schedulers run what the caller handed
/// over, as Combine's do.
private struct UncheckedBlock: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

private struct UncheckedQueue: @unchecked Sendable {
    let queue: OperationQueue
    init(_ queue: OperationQueue) { self.queue = queue }
}
