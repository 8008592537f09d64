/// An instant on a ``TestScheduler``'s own virtual clock, in nanoseconds since the scheduler
/// started: the time type of `TestScheduler()`.
///
/// Reads naturally in assertions: `#expect(scheduler.now == .milliseconds(400))`. To test code
/// that expects a particular scheduler (a `DispatchQueue`, an `AnySchedulerOf<DispatchQueue>`),
/// use a test scheduler with that scheduler's time type instead: `DispatchQueue.test`.
public struct VirtualTime: Strideable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the scheduler's start.
    public var nanoseconds: Int

    /// The instant `nanoseconds` after the scheduler's start.
    public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

    /// The instant `stride` after the scheduler's start.
    public static func after(_ stride: Stride) -> VirtualTime { VirtualTime(nanoseconds: stride.magnitude) }
    /// The instant `ms` milliseconds after the scheduler's start.
    public static func milliseconds(_ ms: Int) -> VirtualTime { .after(.milliseconds(ms)) }
    /// The instant `s` seconds after the scheduler's start.
    public static func seconds(_ s: Int) -> VirtualTime { .after(.seconds(s)) }

    /// The stride from this instant to `other`.
    public func distance(to other: VirtualTime) -> Stride { Stride(nanoseconds: other.nanoseconds - nanoseconds) }
    /// The instant `n` after this one (saturating rather than overflowing).
    public func advanced(by n: Stride) -> VirtualTime {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(n.magnitude)
        return VirtualTime(nanoseconds: overflow ? (n.magnitude > 0 ? .max : .min) : sum)
    }
    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The time since the start, in the largest whole unit: `"400ms"`.
    public var description: String { Stride(nanoseconds: nanoseconds).description }

    /// A distance on the virtual clock, in nanoseconds.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
        Hashable, Codable, Sendable, CustomStringConvertible
    {
        /// A floating-point literal counts seconds.
        public typealias FloatLiteralType = Double
        /// An integer literal counts seconds.
        public typealias IntegerLiteralType = Int
        /// The magnitude is a count of nanoseconds.
        public typealias Magnitude = Int

        /// The length in nanoseconds.
        public var magnitude: Int

        /// A stride of `nanoseconds`.
        public init(nanoseconds: Int) { magnitude = nanoseconds }
        /// An integer literal counts seconds, as with `DispatchQueue`'s stride.
        public init(integerLiteral value: Int) { magnitude = value.multipliedReportingOverflow(by: 1_000_000_000).partialValue }
        /// A floating-point literal counts seconds.
        public init(floatLiteral value: Double) { magnitude = Int(value * 1_000_000_000) }
        /// A stride of `source` seconds, if it fits.
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let value = Int(exactly: source) else { return nil }
            self.init(integerLiteral: value)
        }

        /// Whether `lhs` is shorter than `rhs`.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
        /// The sum of two strides.
        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude + rhs.magnitude) }
        /// The difference of two strides.
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude - rhs.magnitude) }
        /// The product of two strides' nanosecond counts.
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude * rhs.magnitude) }
        /// Adds `rhs` to `lhs`.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
        /// Subtracts `rhs` from `lhs`.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
        /// Multiplies `lhs` by `rhs`'s nanosecond count.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }

        /// A stride of `s` seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: s * 1_000_000_000) }
        /// A stride of `s` seconds, to the nanosecond.
        public static func seconds(_ s: Double) -> Stride { Stride(floatLiteral: s) }
        /// A stride of `ms` milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: ms * 1_000_000) }
        /// A stride of `us` microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: us * 1_000) }
        /// A stride of `ns` nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

        /// The length in the largest whole unit: `"300ms"`.
        public var description: String {
            if magnitude % 1_000_000_000 == 0 { return "\(magnitude / 1_000_000_000)s" }
            if magnitude % 1_000_000 == 0 { return "\(magnitude / 1_000_000)ms" }
            if magnitude % 1_000 == 0 { return "\(magnitude / 1_000)µs" }
            return "\(magnitude)ns"
        }
    }
}
