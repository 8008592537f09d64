#if canImport(Dispatch)
import Dispatch

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue.
    public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        public func distance(to other: SchedulerTimeType) -> Stride {
            let start = dispatchTime.uptimeNanoseconds
            let end = other.dispatchTime.uptimeNanoseconds
            return Stride(.nanoseconds(end >= start ? Int(clamping: end - start) : -Int(clamping: start - end)))
        }

        public func advanced(by n: Stride) -> SchedulerTimeType {
            let nanoseconds = Int64(clamping: n.magnitude)
            let base = dispatchTime.uptimeNanoseconds
            let moved =
                nanoseconds >= 0
                ? base.addingReportingOverflow(UInt64(nanoseconds)).partialValue
                : base - Swift.min(base, UInt64(-nanoseconds))
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: Swift.max(moved, 1)))
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// A type that represents the distance between two values, in nanoseconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Codable, Sendable
        {
            public typealias FloatLiteralType = Double
            public typealias IntegerLiteralType = Int
            public typealias Magnitude = Int

            /// The value of this time interval in nanoseconds.
            public var magnitude: Int

            /// A `DispatchTimeInterval` created with the value of this type in nanoseconds.
            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            /// Creates a dispatch queue time interval from a dispatch time interval.
            ///
            /// A value too large for nanoseconds in an `Int` clamps (`.seconds(.max)` is the longest
            /// interval there is, as in Combine), instead of wrapping around to a negative one.
            public init(_ timeInterval: DispatchTimeInterval) {
                func clamped(_ value: Int, times factor: Int) -> Int {
                    let (product, overflow) = value.multipliedReportingOverflow(by: factor)
                    guard overflow else { return product }
                    return value < 0 ? .min : .max
                }
                switch timeInterval {
                case .seconds(let s): magnitude = clamped(s, times: 1_000_000_000)
                case .milliseconds(let ms): magnitude = clamped(ms, times: 1_000_000)
                case .microseconds(let us): magnitude = clamped(us, times: 1_000)
                case .nanoseconds(let ns): magnitude = ns
                case .never: magnitude = .max
                @unknown default: magnitude = .max
                }
            }

            /// Creates a dispatch queue time interval from a floating-point seconds value.
            public init(floatLiteral value: Double) { magnitude = Int(clamping: Int64(value * 1_000_000_000)) }
            /// Creates a dispatch queue time interval from an integer seconds value.
            public init(integerLiteral value: Int) {
                magnitude = value.multipliedReportingOverflow(by: 1_000_000_000).partialValue
            }
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                self.init(integerLiteral: value)
            }
            private init(nanoseconds: Int) { magnitude = nanoseconds }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude + rhs.magnitude) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude - rhs.magnitude) }
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude * rhs.magnitude) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }

            public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }
            public static func seconds(_ s: Double) -> Stride { Stride(floatLiteral: s) }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }
            public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(.nanoseconds(ns)) }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler. (Unchecked Sendable:
    /// `DispatchWorkItemFlags` is an immutable option set Dispatch has not marked Sendable on Linux.)
    public struct SchedulerOptions: @unchecked Sendable {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS
        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags
        /// The dispatch group, if any, that should be used for performing actions.
        public var group: DispatchGroup?

        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedAction(action)
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags) { action.run() }
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = UncheckedAction(action)
        let options = options ?? SchedulerOptions()
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) { action.run() }
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let action = UncheckedAction(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { action.run() }
        timer.schedule(
            deadline: date.dispatchTime, repeating: interval.timeInterval,
            leeway: .nanoseconds(Swift.max(0, tolerance.magnitude)))
        timer.resume()
        let source = UncheckedSendableBox(timer)
        return AnyCancellable { source.value.cancel() }
    }
}

/// Carries a non-Sendable reference whose use is thread-safe by its own contract (a dispatch
/// source is safe to cancel from any thread).
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
#endif
