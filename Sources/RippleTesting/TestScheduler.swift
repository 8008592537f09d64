import Foundation
@_exported import Ripple

/// A scheduler with a virtual clock: nothing runs until the test moves time forward.
///
/// Use it in place of a real scheduler to test time operators (`debounce`, `throttle`, `delay`,
/// `timeout`, `measureInterval`, `collect(.byTime…)`) and `receive(on:)` without sleeping, and to
/// assert the exact virtual time at which each value arrives.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let subject = PassthroughSubject<String, Never>()
/// var received: [String] = []
/// let cancellable = subject.debounce(for: .milliseconds(300), scheduler: scheduler)
///     .sink { received.append($0) }
/// subject.send("r")
/// scheduler.advance(by: .milliseconds(100))
/// subject.send("ri")
/// scheduler.advance(by: .milliseconds(300))
/// // received == ["ri"], and scheduler.now == .milliseconds(400)
/// ```
///
/// Actions scheduled for the same instant run in the order they were scheduled. An action that
/// schedules another for an instant not after the target of the current `advance` runs within the
/// same `advance`. Safe to use from several threads; actions always run on the thread that
/// advances the clock, never under the scheduler's lock.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    /// An instant on the virtual clock, in nanoseconds since the scheduler started.
    public struct SchedulerTimeType: Strideable, Hashable, Comparable, Sendable, CustomStringConvertible {
        /// Nanoseconds since the scheduler's start.
        public var nanoseconds: Int

        /// The instant `nanoseconds` after the scheduler's start.
        public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

        /// The instant `stride` after the scheduler's start (`.milliseconds(300)` reads naturally in
        /// assertions).
        public static func after(_ stride: Stride) -> SchedulerTimeType { SchedulerTimeType(nanoseconds: stride.magnitude) }
        /// The instant `ms` milliseconds after the scheduler's start.
        public static func milliseconds(_ ms: Int) -> SchedulerTimeType { .after(.milliseconds(ms)) }
        /// The instant `s` seconds after the scheduler's start.
        public static func seconds(_ s: Int) -> SchedulerTimeType { .after(.seconds(s)) }

        public func distance(to other: SchedulerTimeType) -> Stride { Stride(nanoseconds: other.nanoseconds - nanoseconds) }
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: nanoseconds.addingReportingOverflow(n.magnitude).partialValue)
        }
        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

        public var description: String { Stride(nanoseconds: nanoseconds).description }

        /// A distance on the virtual clock, in nanoseconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Sendable, CustomStringConvertible
        {
            public typealias FloatLiteralType = Double
            public typealias IntegerLiteralType = Int
            public typealias Magnitude = Int

            /// The length in nanoseconds.
            public var magnitude: Int

            /// A stride of `nanoseconds`.
            public init(nanoseconds: Int) { magnitude = nanoseconds }
            /// An integer literal counts seconds, as with `DispatchQueue`'s stride.
            public init(integerLiteral value: Int) { magnitude = value * 1_000_000_000 }
            /// A floating-point literal counts seconds.
            public init(floatLiteral value: Double) { magnitude = Int(value * 1_000_000_000) }
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                self.init(integerLiteral: value)
            }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude + rhs.magnitude) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude - rhs.magnitude) }
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude * rhs.magnitude) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }

            public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: s * 1_000_000_000) }
            public static func seconds(_ s: Double) -> Stride { Stride(floatLiteral: s) }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: ms * 1_000_000) }
            public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: us * 1_000) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

            public var description: String {
                if magnitude % 1_000_000_000 == 0 { return "\(magnitude / 1_000_000_000)s" }
                if magnitude % 1_000_000 == 0 { return "\(magnitude / 1_000_000)ms" }
                if magnitude % 1_000 == 0 { return "\(magnitude / 1_000)µs" }
                return "\(magnitude)ns"
            }
        }
    }

    public typealias SchedulerOptions = Never

    private struct Pending {
        var date: SchedulerTimeType
        var sequence: Int
        var id: Int
        var interval: SchedulerTimeType.Stride?
        var action: () -> Void
    }

    private struct State {
        var now: SchedulerTimeType
        var pending: [Pending] = []
        var nextSequence = 0
    }

    private let lock = NSLock()
    private var state: State

    /// Creates a scheduler whose clock reads `now` (the start, zero, unless told otherwise).
    public init(now: SchedulerTimeType = SchedulerTimeType(nanoseconds: 0)) {
        state = State(now: now)
    }

    public var now: SchedulerTimeType { lock.withLock { state.now } }

    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// How many actions are waiting for the clock.
    public var pendingActionCount: Int { lock.withLock { state.pending.count } }

    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        lock.withLock { _ = enqueueLocked(date: state.now, interval: nil, action: action) }
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        lock.withLock { _ = enqueueLocked(date: date, interval: nil, action: action) }
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        require(interval.magnitude > 0, "TestScheduler: a repeating interval must be positive (got \(interval))")
        let id = lock.withLock { enqueueLocked(date: date, interval: interval, action: action) }
        return AnyCancellable { [weak self] in
            guard let self else { return }
            lock.withLock { state.pending.removeAll { $0.id == id } }
        }
    }

    private func enqueueLocked(date: SchedulerTimeType, interval: SchedulerTimeType.Stride?, action: @escaping () -> Void)
        -> Int
    {
        let sequence = state.nextSequence
        state.nextSequence += 1
        state.pending.append(Pending(date: date, sequence: sequence, id: sequence, interval: interval, action: action))
        return sequence
    }

    /// Runs every action due at or before `now + stride`, in time order, moving the clock to each
    /// action's instant as it runs, and leaves the clock at `now + stride`.
    public func advance(by stride: SchedulerTimeType.Stride = .nanoseconds(0)) {
        require(stride.magnitude >= 0, "TestScheduler: cannot move the clock backwards (by \(stride))")
        advance(to: now.advanced(by: stride))
    }

    /// Runs every action due at or before `instant` and leaves the clock there.
    public func advance(to instant: SchedulerTimeType) {
        while let next = takeNext(dueBy: instant) {
            next()
        }
        lock.withLock {
            if state.now < instant { state.now = instant }
        }
    }

    /// Runs actions until none are left (repeating ones would never end: it stops after
    /// `maximumSteps` actions).
    public func run(maximumSteps: Int = 100_000) {
        var steps = 0
        while steps < maximumSteps, let next = takeNext(dueBy: nil) {
            next()
            steps += 1
        }
    }

    /// Removes the earliest action due by `limit` (any, if `nil`), moves the clock to it, and
    /// returns it to run after unlocking. A repeating action is put back for its next instant.
    private func takeNext(dueBy limit: SchedulerTimeType?) -> (() -> Void)? {
        lock.withLock { () -> (() -> Void)? in
            guard
                let index = state.pending.indices.min(by: {
                    let a = state.pending[$0], b = state.pending[$1]
                    return (a.date, a.sequence) < (b.date, b.sequence)
                })
            else { return nil }
            let item = state.pending[index]
            if let limit, item.date > limit { return nil }
            state.pending.remove(at: index)
            if state.now < item.date { state.now = item.date }
            if let interval = item.interval {
                let sequence = state.nextSequence
                state.nextSequence += 1
                state.pending.append(
                    Pending(
                        date: item.date.advanced(by: interval), sequence: sequence, id: item.id, interval: interval,
                        action: item.action))
            }
            return item.action
        }
    }
}

extension TestScheduler.SchedulerTimeType: Codable {}
extension TestScheduler.SchedulerTimeType.Stride: Codable {}
