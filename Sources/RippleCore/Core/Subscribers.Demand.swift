extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    ///
    /// Demand only grows through requests and only shrinks through deliveries, and it never goes
    /// negative: subtraction clamps at zero, and addition or multiplication that would overflow
    /// saturates to ``unlimited``.
    ///
    /// ```swift
    /// var demand = Subscribers.Demand.max(2)
    /// demand += 3
    /// demand -= .unlimited
    /// print(demand, Subscribers.Demand.max(.max) + 1)
    /// // Prints "max(0) unlimited"
    /// ```
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// `0...Int.max` for `.max(n)`; `Int.max + 1` for `.unlimited`.
        @usableFromInline
        internal let rawValue: UInt

        // The constants are computed, not stored: a stored `static let` is reached through a lazy
        // initializer's accessor call on every use, and demand is checked on every delivery.
        @inlinable
        internal static var unlimitedRaw: UInt { UInt(Int.max) + 1 }

        @inlinable
        internal init(rawValue: UInt) {
            self.rawValue = Swift.min(rawValue, Demand.unlimitedRaw)
        }

        /// A demand whose raw value is known to be in range.
        @inlinable
        internal init(uncheckedRawValue rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// A request for as many values as the publisher can produce.
        @inlinable
        public static var unlimited: Demand { Demand(uncheckedRawValue: unlimitedRaw) }

        /// A request for no elements from the publisher. Equivalent to `.max(0)`.
        @inlinable
        public static var none: Demand { Demand(uncheckedRawValue: 0) }

        /// Creates a demand for the given maximum number of elements.
        ///
        /// - Parameter value: The maximum number of elements. A negative value traps.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            require(value >= 0, "Subscribers.Demand.max: demand must not be negative (got \(value))")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` for ``unlimited``.
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRaw ? nil : Int(rawValue)
        }

        public var description: String {
            rawValue == Demand.unlimitedRaw ? "unlimited" : "max(\(rawValue))"
        }

        // MARK: Arithmetic

        /// Adds two demands. Anything plus ``unlimited`` is ``unlimited``; overflow saturates to it.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow ? .unlimited : Demand(rawValue: sum)
        }

        /// Adds to a demand, saturating at `.unlimited`.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// Adds an integer to a demand. A negative `rhs` subtracts, clamping at zero.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs < 0 { return lhs - Demand(rawValue: rhs.magnitude) }
            return lhs + Demand(rawValue: UInt(rhs))
        }

        /// Adds to a demand, saturating at `.unlimited`.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        /// Subtracts one demand from another. ``unlimited`` minus anything is ``unlimited``;
        /// `.max(n) - .unlimited` is `.max(0)`; the result never goes below zero.
        ///
        /// Differs from Combine: `.max(1) - .max(2)` is `.max(0)`, as Apple's documentation of the
        /// operator states ("any operation that would result in a negative value is clamped to
        /// .max(0)"); Combine's traps there.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        /// Subtracts from a demand, clamping at zero (`.unlimited` stays unlimited).
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        /// Subtracts an integer from a demand. A negative `rhs` adds; the result never goes below zero.
        /// As in Combine, a difference beyond `Int.max` is `.max(0)`, not ``unlimited``:
        /// `.max(Int.max) - (-1) == .none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs < 0 {
                let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
                return overflow ? .none : Demand(rawValue: UInt(difference))
            }
            return lhs - Demand(rawValue: UInt(rhs))
        }

        /// Subtracts from a demand, clamping at zero (`.unlimited` stays unlimited).
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        /// Multiplies a demand by an integer. ``unlimited`` stays ``unlimited``; overflow saturates
        /// to it; a negative multiplier gives `.max(0)` (demand cannot be negative).
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs <= 0 { return .none }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow || product > Demand.unlimitedRaw ? .unlimited : Demand(rawValue: product)
        }

        /// Multiplies a demand, saturating at `.unlimited`.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        // MARK: Comparison with demands

        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        // MARK: Comparison with integers (``unlimited`` is greater than every integer)

        /// Whether a demand is exactly a number of elements (`.unlimited` equals no number).
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue == UInt(rhs) }
        /// Whether a demand differs from a number of elements.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }
        /// Compares a demand with a number of elements (`.unlimited` is more than any number).
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue < UInt(rhs) }
        /// Compares a demand with a number of elements (`.unlimited` is more than any number).
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue <= UInt(rhs) }
        /// Compares a demand with a number of elements (`.unlimited` is more than any number).
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool { rhs < 0 || lhs.rawValue > UInt(rhs) }
        /// Compares a demand with a number of elements (`.unlimited` is more than any number).
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool { rhs < 0 || lhs.rawValue >= UInt(rhs) }

        /// Whether a demand is exactly a number of elements (`.unlimited` equals no number).
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
        /// Whether a demand differs from a number of elements.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool { rhs != lhs }
        /// Compares a demand with a number of elements (`.unlimited` is more than any number).
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
        /// Compares a demand with a number of elements (`.unlimited` is more than any number).
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
        /// Compares a demand with a number of elements (`.unlimited` is more than any number).
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
        /// Compares a demand with a number of elements (`.unlimited` is more than any number).
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

        // MARK: Codable — a single unsigned integer; unlimited is `Int.max + 1`.

        /// Creates a demand from a single unsigned integer. Negative values fail to decode;
        /// values above `Int.max` decode as ``unlimited``.
        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(UInt.self))
        }

        /// Encodes the demand as a single unsigned integer (``unlimited`` is `Int.max + 1`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
