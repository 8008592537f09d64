import Foundation
import RippleCore  // LockedValue
import Ripple
import RippleTesting
import Testing

/// Bookkeeping the tests' schedulers touch from their actions.
private typealias Locked<Value> = LockedValue<Value>

extension LockedValue {
    /// The value now (a copy, read under the lock).
    var current: Value { withLock { $0 } }
}

/// Whether `condition` holds within a few seconds (a real queue's work arrives later).
private func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<5_000 where !condition() {
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

/// A scheduler that records what it is asked to do and runs it at once.
private final class LoggingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = String

    let log = Locked<[String]>([])
    var now: VirtualTime { .milliseconds(7) }
    var minimumTolerance: VirtualTime.Stride { .milliseconds(1) }

    func schedule(options: String?, _ action: @escaping () -> Void) {
        log.withLock { $0.append("now \(options ?? "-")") }
        action()
    }

    func schedule(after date: VirtualTime, tolerance: VirtualTime.Stride, options: String?, _ action: @escaping () -> Void) {
        log.withLock { $0.append("after \(date) ±\(tolerance) \(options ?? "-")") }
        action()
    }

    func schedule(
        after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride, options: String?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        log.withLock { $0.append("every \(interval) from \(date) \(options ?? "-")") }
        action()
        return AnyCancellable { self.log.withLock { $0.append("cancelled") } }
    }
}

@Suite struct AnySchedulerTests {
    @Test func forwardsEveryRequirementToTheWrappedScheduler() {
        let wrapped = LoggingScheduler()
        let scheduler: AnySchedulerOf<LoggingScheduler> = wrapped.eraseToAnyScheduler()
        let ran = Locked(0)
        #expect(scheduler.now == .milliseconds(7))
        #expect(scheduler.minimumTolerance == .milliseconds(1))
        scheduler.schedule(options: "o") { ran.withLock { $0 += 1 } }
        scheduler.schedule(after: .milliseconds(9), tolerance: .zero, options: nil) { ran.withLock { $0 += 1 } }
        let timer = scheduler.schedule(after: .milliseconds(9), interval: .seconds(1), tolerance: .zero, options: "p") {
            ran.withLock { $0 += 1 }
        }
        timer.cancel()
        #expect(ran.current == 3)
        #expect(wrapped.log.current == ["now o", "after 9ms ±0s -", "every 1s from 9ms p", "cancelled"])
    }

    @Test func aSchedulerMadeOfClosures() {
        let asked = Locked<[String]>([])
        let scheduler = AnyScheduler<VirtualTime, Never>(
            minimumTolerance: { .zero },
            now: { .seconds(3) },
            scheduleImmediately: { _, action in asked.withLock { $0.append("now") }; action() },
            delayed: { date, _, _, action in asked.withLock { $0.append("at \(date)") }; action() },
            interval: { _, _, _, _, action in action(); return AnyCancellable {} })
        let recorder = Just(1).delay(for: .seconds(1), scheduler: scheduler).record()
        #expect(recorder.values == [1])
        #expect(asked.current == ["at 4s", "at 4s"])  // the value, then the finish, each delayed
    }

    @Test func anErasedTestSchedulerKeepsVirtualTime() {
        let scheduler = DispatchQueue.test
        let erased: AnySchedulerOf<DispatchQueue> = scheduler.eraseToAnyScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.debounce(for: .milliseconds(300), scheduler: erased).record()
        subject.send(1)
        scheduler.advance(by: .milliseconds(299))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.values == [1])
        #expect(scheduler.start.distance(to: erased.now) == .milliseconds(300))
    }

    @Test func theImmediateDispatchSchedulerRunsEverythingAtOnce() {
        let scheduler: AnySchedulerOf<DispatchQueue> = .immediate
        let ran = Locked<[Int]>([])
        scheduler.schedule { ran.withLock { $0.append(1) } }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { ran.withLock { $0.append(2) } }
        let timer = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ran.withLock { $0.append(3) } }
        timer.cancel()
        #expect(ran.current == [1, 2, 3])
        let recorder = Just("x").delay(for: .seconds(5), scheduler: DispatchQueue.immediate).record()
        #expect(recorder.events == [.value("x"), .completion(.finished)])
        #expect(DispatchQueue.immediate.now == DispatchQueue.immediate.now.advanced(by: .zero))
    }

    @Test func aRealQueueBehindTheEraser() async {
        let queue = DispatchQueue(label: "ripple.any-scheduler")
        let scheduler: AnySchedulerOf<DispatchQueue> = queue.eraseToAnyScheduler()
        let recorder = [1, 2, 3].publisher.receive(on: scheduler).record()
        #expect(await eventually { recorder.values == [1, 2, 3] })
        let global = Just(4).receive(on: AnySchedulerOf<DispatchQueue>.global()).record()
        #expect(await eventually { global.values == [4] })
    }
}

@Suite struct DispatchTestSchedulerTests {
    @Test func virtualTimeWithADispatchQueuesTimeType() {
        let scheduler = DispatchQueue.test
        let ran = Locked<[Int]>([])
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) {
            ran.withLock { $0.append(Int(scheduler.start.distance(to: scheduler.now).magnitude / 1_000_000)) }
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(500))) {
            ran.withLock { $0.append(Int(scheduler.start.distance(to: scheduler.now).magnitude / 1_000_000)) }
        }
        scheduler.advance(by: .seconds(1))
        #expect(ran.current == [500])
        scheduler.advance(by: .seconds(1))
        #expect(ran.current == [500, 2_000])
    }

    @Test func repeatingAndCancelledOnDispatchTime() {
        let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(.init(uptimeNanoseconds: 1_000)))
        let ticks = Locked(0)
        let timer = scheduler.schedule(after: scheduler.now, interval: .milliseconds(10)) { ticks.withLock { $0 += 1 } }
        scheduler.advance(by: .milliseconds(25))
        #expect(ticks.current == 3)  // at 0, 10 and 20 ms
        timer.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(ticks.current == 3)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func eachTestSchedulerHasItsOwnClock() {
        let first = DispatchQueue.test
        let second = DispatchQueue.test
        first.advance(by: .seconds(1))
        #expect(second.now == second.start)
        #expect(first.start.distance(to: first.now) == .seconds(1))
    }
}

@Suite struct SchedulerTimerTests {
    @Test func ticksOnVirtualTimeFromOneIntervalAfterConnecting() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let recorder = Publishers.Timer(every: .seconds(1), scheduler: scheduler).autoconnect().record()
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.values.isEmpty)
        scheduler.advance(by: .milliseconds(2_001))
        #expect(recorder.values == [start.advanced(by: .seconds(1)), start.advanced(by: .seconds(2)), start.advanced(by: .seconds(3))])
    }

    @Test func nothingBeforeConnectAndNothingAfterCancel() {
        let scheduler = TestScheduler()
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let recorder = timer.record()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values.isEmpty)
        let connection = timer.connect()
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values.count == 2)
        connection.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values.count == 2)
    }

    @Test func ticksOnARealQueueWithNoRunLoop() async {
        let queue = DispatchQueue(label: "ripple.scheduler-timer")
        let recorder = queue.timerPublisher(every: .milliseconds(5)).autoconnect().prefix(3).record()
        #expect(await eventually { recorder.values.count == 3 })
    }
}
