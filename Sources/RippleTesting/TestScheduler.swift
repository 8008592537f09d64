import Foundation
@_exported import Ripple
@_exported import RippleSchedulers

/// A scheduler with a virtual clock: nothing runs until the test moves time forward.
///
/// Use it in place of a real scheduler to test time operators (`debounce`, `throttle`, `delay`,
/// `timeout`, `measureInterval`, `collect(.byTime…)`) and `receive(on:)` without sleeping, and to
/// assert the exact virtual time at which each value arrives. It is generic over the time and
/// option types of the scheduler it stands in for: `DispatchQueue.test` is a test scheduler a
/// model typed `AnySchedulerOf<DispatchQueue>` accepts (after `eraseToAnyScheduler()`), and
/// `TestScheduler()` runs on a clock of its own (``VirtualTime``) for code generic over its
/// scheduler.
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
/// advances the clock, never under the scheduler's lock. Options are accepted and ignored.
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
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

        mutating func enqueue(date: SchedulerTimeType, interval: SchedulerTimeType.Stride?, action: @escaping () -> Void)
            -> Int
        {
            let sequence = nextSequence
            nextSequence += 1
            pending.append(Pending(date: date, sequence: sequence, id: sequence, interval: interval, action: action))
            return sequence
        }
    }

    /// Nothing under its lock calls out but comparisons of the clock's instants; actions run and
    /// are released after unlocking.
    private let state: LockedValue<State>

    /// The instant the clock read when the scheduler was created.
    public let start: SchedulerTimeType

    /// Creates a scheduler whose clock reads `now` until the test moves it.
    public init(now: SchedulerTimeType) {
        start = now
        state = LockedValue(State(now: now))
    }

    /// The virtual clock's current instant.
    public var now: SchedulerTimeType { state.withLock { $0.now } }

    /// Zero: the virtual clock has no tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// How many actions are waiting for the clock.
    public var pendingActionCount: Int { state.withLock { $0.pending.count } }

    /// Queues the action for the current instant: it runs at the next `advance` or `run`.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        state.withLock { _ = $0.enqueue(date: $0.now, interval: nil, action: action) }
    }

    /// Queues the action for `date` (tolerance is ignored).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        state.withLock { _ = $0.enqueue(date: date, interval: nil, action: action) }
    }

    /// Queues the action for `date`, then every `interval` after it, until the returned cancellable
    /// is cancelled. The interval must be positive.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        require(interval > .zero, "TestScheduler: a repeating interval must be positive (got \(interval))")
        let id = state.withLock { $0.enqueue(date: date, interval: interval, action: action) }
        return AnyCancellable { [weak self] in
            guard let self else { return }
            let removed = state.withLock { state -> [Pending] in
                let leaving = state.pending.filter { $0.id == id }
                state.pending.removeAll { $0.id == id }
                return leaving
            }
            _ = removed  // the action is released here, after unlocking
        }
    }

    /// Runs every action due at or before `now + stride`, in time order, moving the clock to each
    /// action's instant as it runs, and leaves the clock at `now + stride`.
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        require(stride >= .zero, "TestScheduler: cannot move the clock backwards (by \(stride))")
        advance(to: now.advanced(by: stride))
    }

    /// Runs every action due at or before `instant` and leaves the clock there.
    public func advance(to instant: SchedulerTimeType) {
        while let next = takeNext(dueBy: instant) {
            next()
        }
        state.withLock { state in
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
        state.withLock { state -> (() -> Void)? in
            guard
                let index = state.pending.indices.min(by: {
                    let a = state.pending[$0], b = state.pending[$1]
                    return a.date < b.date || (a.date == b.date && a.sequence < b.sequence)
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

/// The test scheduler that stands in for `S`: `TestSchedulerOf<DispatchQueue>` is what
/// `DispatchQueue.test` returns.
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension TestScheduler where SchedulerTimeType == VirtualTime, SchedulerOptions == Never {
    /// A test scheduler on a clock of its own, starting at zero: `scheduler.now == .milliseconds(400)`
    /// after `advance(by: .milliseconds(400))`.
    public convenience init() {
        self.init(now: VirtualTime(nanoseconds: 0))
    }
}

#if canImport(Dispatch)
import Dispatch

extension DispatchQueue {
    /// A virtual-time scheduler with a dispatch queue's time and option types, its clock starting
    /// at an arbitrary instant (`start`): inject `DispatchQueue.test.eraseToAnyScheduler()` where an
    /// `AnySchedulerOf<DispatchQueue>` is expected.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let model = FeedModel(scheduler: scheduler.eraseToAnyScheduler())
    /// scheduler.advance(by: .seconds(1))
    /// ```
    public static var test: TestSchedulerOf<DispatchQueue> {
        TestSchedulerOf<DispatchQueue>(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}
#endif
