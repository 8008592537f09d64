import Foundation
import Ripple
import Testing

/// A scheduler that keeps every block until the test runs it, in any order, on any thread: what a
/// concurrent scheduler may do, made deterministic.
private final class HeldBlocksScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    private let blocks = Locked<[() -> Void]>([])

    var now: SchedulerTimeType { ImmediateScheduler.shared.now }
    var minimumTolerance: SchedulerTimeType.Stride { 0 }
    var count: Int { blocks.current.count }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        blocks.withLock { $0.append(action) }
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(options: nil, action)
        return AnyCancellable {}
    }

    /// The block scheduled `index`-th (from 0).
    func block(_ index: Int) -> () -> Void { blocks.current[index] }
}

/// One block handed to another thread (a `Sendable` box for the test's own thread hop).
private struct Job: @unchecked Sendable {
    let run: () -> Void
}

/// `receive(on:)` on schedulers that run blocks on several threads, or out of order: values may
/// overlap and arrive out of order, but none is lost and none arrives after the completion.
@Suite struct ReceiveOnConcurrentSchedulerTests {
    @Test func aCompletionBlockRunFirstWaitsForTheValueScheduledBeforeIt() {
        let scheduler = HeldBlocksScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let events = Locked<[String]>([])
        let cancellable = subject.receive(on: scheduler).sink(
            receiveCompletion: { _ in events.withLock { $0.append("finished") } },
            receiveValue: { value in events.withLock { $0.append("value \(value)") } })
        subject.send(1)
        subject.send(completion: .finished)
        #expect(scheduler.count == 2)
        scheduler.block(1)()  // the completion's block, run before the value's
        #expect(events.current == [])
        scheduler.block(0)()  // the held first block: its value is delivered, then the completion
        #expect(events.current == ["value 1", "finished"])
        cancellable.cancel()
    }

    @Test func valuesRunInReverseOrderAreAllDeliveredBeforeTheCompletion() {
        let scheduler = HeldBlocksScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let events = Locked<[String]>([])
        let cancellable = subject.receive(on: scheduler).sink(
            receiveCompletion: { _ in events.withLock { $0.append("finished") } },
            receiveValue: { value in events.withLock { $0.append("value \(value)") } })
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        for index in (0..<4).reversed() { scheduler.block(index)() }
        #expect(events.current == ["value 3", "value 2", "value 1", "finished"])
        cancellable.cancel()
    }

    @Test func aCompletionWaitsForAValueStillInsideTheSubscriberOnAnotherThread() {
        let scheduler = HeldBlocksScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let events = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let cancellable = subject.receive(on: scheduler).sink(
            receiveCompletion: { _ in events.withLock { $0.append("finished") } },
            receiveValue: { value in
                events.withLock { $0.append("value \(value) starts") }
                entered.signal()
                release.wait()
                events.withLock { $0.append("value \(value) returns") }
            })
        subject.send(1)
        subject.send(completion: .finished)
        let value = Job(run: scheduler.block(0))
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            value.run()
            done.signal()
        }
        entered.wait()
        scheduler.block(1)()  // the completion's block, on this thread, while the value is inside
        #expect(events.current == ["value 1 starts"])
        release.signal()
        done.wait()
        #expect(events.current == ["value 1 starts", "value 1 returns", "finished"])
        cancellable.cancel()
    }

    @Test func aCancelDropsACompletionHeldBehindAValue() {
        let scheduler = HeldBlocksScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let events = Locked<[String]>([])
        let cancellable = subject.receive(on: scheduler).sink(
            receiveCompletion: { _ in events.withLock { $0.append("finished") } },
            receiveValue: { value in events.withLock { $0.append("value \(value)") } })
        subject.send(1)
        subject.send(completion: .finished)
        scheduler.block(1)()
        cancellable.cancel()
        scheduler.block(0)()
        #expect(events.current == [])
    }

    /// Unchanged by the wait: on `ImmediateScheduler`, a completion the subscriber sends from inside
    /// its `receive(_:)` is delivered at once, nested, as in Combine.
    @Test func aReentrantCompletionOnTheImmediateSchedulerIsDeliveredNested() {
        let subject = PassthroughSubject<Int, Never>()
        let events = Locked<[String]>([])
        let cancellable = subject.receive(on: ImmediateScheduler.shared).sink(
            receiveCompletion: { _ in events.withLock { $0.append("finished") } },
            receiveValue: { value in
                events.withLock { $0.append("value \(value) starts") }
                subject.send(completion: .finished)
                events.withLock { $0.append("value \(value) returns") }
            })
        subject.send(1)
        subject.send(2)
        #expect(events.current == ["value 1 starts", "finished", "value 1 returns"])
        cancellable.cancel()
    }

    /// Nested sends on `ImmediateScheduler`: the completion sent from the innermost delivery is
    /// delivered there, inside both.
    @Test func aReentrantCompletionInsideNestedValuesIsDeliveredInnermost() {
        let subject = PassthroughSubject<Int, Never>()
        let events = Locked<[String]>([])
        let cancellable = subject.receive(on: ImmediateScheduler.shared).sink(
            receiveCompletion: { _ in events.withLock { $0.append("finished") } },
            receiveValue: { value in
                events.withLock { $0.append("value \(value) starts") }
                if value == 1 { subject.send(2) } else { subject.send(completion: .finished) }
                events.withLock { $0.append("value \(value) returns") }
            })
        subject.send(1)
        #expect(events.current == ["value 1 starts", "value 2 starts", "finished", "value 2 returns", "value 1 returns"])
        cancellable.cancel()
    }
}

/// A scheduler that runs every block at once on a new thread of its own: several blocks run at the
/// same time, as on a concurrent queue.
private final class NewThreadScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    var now: SchedulerTimeType { ImmediateScheduler.shared.now }
    var minimumTolerance: SchedulerTimeType.Stride { 0 }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        let job = Job(run: action)
        Thread.detachNewThread { job.run() }
    }

    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(options: nil, action)
        return AnyCancellable {}
    }
}

/// Calls to the downstream never overlap, even when the scheduler runs their blocks on several
/// threads at once; the order is the scheduler's, and the completion comes after every value.
@Suite struct ReceiveOnSerializedDeliveryTests {
    @Test func blocksOnNewThreadsNeverCallTheSubscriberAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let inside = Locked(0)
        let overlaps = Locked(0)
        let values = Locked<[Int]>([])
        let late = Locked(0)
        let finished = Locked(false)
        let completed = DispatchSemaphore(value: 0)
        let cancellable = subject.receive(on: NewThreadScheduler()).sink(
            receiveCompletion: { _ in
                if inside.withLock({ $0 += 1; return $0 }) > 1 { overlaps.withLock { $0 += 1 } }
                finished.withLock { $0 = true }
                inside.withLock { $0 -= 1 }
                completed.signal()
            },
            receiveValue: { value in
                if inside.withLock({ $0 += 1; return $0 }) > 1 { overlaps.withLock { $0 += 1 } }
                if finished.current { late.withLock { $0 += 1 } }
                Thread.sleep(forTimeInterval: 0.01)  // a short wait: other blocks run meanwhile
                values.withLock { $0.append(value) }
                inside.withLock { $0 -= 1 }
            })
        for value in 0..<8 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(completed.wait(timeout: .now() + 30) == .success)
        #expect(overlaps.current == 0)
        #expect(late.current == 0)
        #expect(values.current.sorted() == Array(0..<8))
        cancellable.cancel()
    }

    @Test func aValueBlockOnAnotherThreadWaitsUntilTheValueInsideTheSubscriberReturns() {
        let scheduler = HeldBlocksScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let events = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let cancellable = subject.receive(on: scheduler).sink { value in
            events.withLock { $0.append("value \(value) starts") }
            if value == 1 {
                entered.signal()
                _ = release.wait(timeout: .now() + 30)
            }
            events.withLock { $0.append("value \(value) returns") }
        }
        subject.send(1)
        subject.send(2)
        let first = Job(run: scheduler.block(0))
        let second = Job(run: scheduler.block(1))
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            first.run()
            done.signal()
        }
        entered.wait()
        Thread.detachNewThread {
            second.run()
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)  // time for the second block to call in, if it could
        #expect(events.current == ["value 1 starts"])
        release.signal()
        done.wait()
        done.wait()
        #expect(events.current == ["value 1 starts", "value 1 returns", "value 2 starts", "value 2 returns"])
        cancellable.cancel()
    }
}

extension Heavy {
    @Suite struct ReceiveOnConcurrentQueueTests {
        /// A concurrent queue: every value arrives, and none after the completion (overlap and
        /// reordering are allowed, as in Combine).
        @Test func aConcurrentQueueLosesNothingAndDeliversNothingAfterTheCompletion() {
            let queue = DispatchQueue(label: "ReceiveOnConcurrentQueueTests", attributes: .concurrent)
            let rounds = 300
            let perRound = 200
            var lostRounds = 0
            var lateRounds = 0
            for _ in 0..<rounds {
                let subject = PassthroughSubject<Int, Never>()
                let received = Locked(0)
                let late = Locked(0)
                let finished = Locked(false)
                let completed = DispatchSemaphore(value: 0)
                let cancellable = subject.receive(on: queue).sink(
                    receiveCompletion: { _ in
                        finished.withLock { $0 = true }
                        completed.signal()
                    },
                    receiveValue: { _ in
                        if finished.current { late.withLock { $0 += 1 } }
                        received.withLock { $0 += 1 }
                    })
                for value in 0..<perRound { subject.send(value) }
                subject.send(completion: .finished)
                #expect(completed.wait(timeout: .now() + 30) == .success)
                queue.sync(flags: .barrier) {}  // every block scheduled so far has returned
                if received.current != perRound { lostRounds += 1 }
                if late.current != 0 { lateRounds += 1 }
                cancellable.cancel()
            }
            #expect(lostRounds == 0)
            #expect(lateRounds == 0)
        }
    }
}
