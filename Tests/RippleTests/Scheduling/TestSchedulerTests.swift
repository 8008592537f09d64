import Foundation
import Ripple
import RippleTesting
import Testing

@Suite(.exitTestWatchdog) struct TestSchedulerTests {
    @Test func nothingRunsUntilTheClockMoves() {
        let scheduler = TestScheduler()
        let ran = Locked<[String]>([])
        scheduler.schedule { ran.withLock { $0.append("now") } }
        scheduler.schedule(after: .milliseconds(10)) { ran.withLock { $0.append("10ms") } }
        #expect(ran.current.isEmpty)
        #expect(scheduler.pendingActionCount == 2)
        scheduler.advance()
        #expect(ran.current == ["now"])
        scheduler.advance(by: .milliseconds(9))
        #expect(ran.current == ["now"])
        scheduler.advance(by: .milliseconds(1))
        #expect(ran.current == ["now", "10ms"])
        #expect(scheduler.now == .milliseconds(10))
    }

    @Test func actionsRunInTimeOrderThenSchedulingOrderWithTheClockAtTheirInstant() {
        let scheduler = TestScheduler()
        let ran = Locked<[String]>([])
        scheduler.schedule(after: .milliseconds(20)) { ran.withLock { $0.append("b@\(scheduler.now)") } }
        scheduler.schedule(after: .milliseconds(10)) { ran.withLock { $0.append("a@\(scheduler.now)") } }
        scheduler.schedule(after: .milliseconds(20)) { ran.withLock { $0.append("c@\(scheduler.now)") } }
        scheduler.advance(by: .seconds(1))
        #expect(ran.current == ["a@10ms", "b@20ms", "c@20ms"])
        #expect(scheduler.now == .seconds(1))
    }

    @Test func anActionSchedulingAnotherWithinTheAdvanceRunsIt() {
        let scheduler = TestScheduler()
        let ran = Locked(0)
        scheduler.schedule(after: .milliseconds(5)) {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(5))) { ran.withLock { $0 += 1 } }
        }
        scheduler.advance(by: .milliseconds(10))
        #expect(ran.current == 1)
    }

    @Test func repeatingActionsAndCancellation() {
        let scheduler = TestScheduler()
        let ticks = Locked<[VirtualTime]>([])
        let timer = scheduler.schedule(after: .milliseconds(10), interval: .milliseconds(10)) {
            ticks.withLock { $0.append(scheduler.now) }
        }
        scheduler.advance(by: .milliseconds(35))
        #expect(ticks.current == [.milliseconds(10), .milliseconds(20), .milliseconds(30)])
        timer.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(ticks.current.count == 3)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func runStopsWhenNothingIsLeft() {
        let scheduler = TestScheduler()
        let ran = Locked(0)
        scheduler.schedule(after: .seconds(100)) { ran.withLock { $0 += 1 } }
        scheduler.run()
        #expect(ran.current == 1)
        #expect(scheduler.now == .seconds(100))
    }

    @Test func strideConversions() {
        typealias Stride = VirtualTime.Stride
        #expect(Stride.seconds(1) == .milliseconds(1_000))
        #expect(Stride.seconds(0.5) == .microseconds(500_000))
        #expect(Stride.nanoseconds(7).magnitude == 7)
        #expect(Stride(integerLiteral: 2) == .seconds(2))
        #expect(Stride.milliseconds(1500).description == "1500ms")
    }

    @Test func backwardsAdvanceTraps() async {
        await #expect(processExitsWith: .failure) {
            TestScheduler().advance(by: .milliseconds(-1))
        }
    }
}

@Suite struct ImmediateSchedulerTests {
    @Test func runsEverythingAtOnce() {
        let scheduler = ImmediateScheduler.shared
        var ran: [Int] = []
        scheduler.schedule { ran.append(1) }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { ran.append(2) }
        _ = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ran.append(3) }
        #expect(ran == [1, 2, 3])
    }

    // Combine's immediate scheduler has no clock: its time does not move (OpenCombine's
    // ImmediateSchedulerTests.testSchedulerTimeType and CombineX's ImmediateSchedulerSpec "should
    // have a lazy scheduler time", both recorded against Combine).
    @Test func timeArithmeticIsInert() {
        let now = ImmediateScheduler.shared.now
        #expect(now == ImmediateScheduler.shared.now)
        #expect(now.advanced(by: 100) == now)
        #expect(now.distance(to: now.advanced(by: -1)) == 0)
        let later = now.advanced(by: .seconds(10))
        #expect(later.distance(to: now) == .seconds(0))
        #expect((now..<later).isEmpty)
    }

    // Its strides are ordinary numbers, except that every unit of time is zero.
    @Test func strideArithmeticIsOrdinaryAndTimeUnitsAreZero() {
        typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
        #expect(Stride(14) == 14.6)
        #expect(Stride(-4) == -4.1)
        #expect(Stride(-10) < Stride(2))
        #expect(Stride(-4) * Stride(5) == Stride(-20))
        #expect(Stride(-4) + Stride(5) == Stride(1))
        #expect(Stride(10) - Stride(3) == Stride(7))
        var stride = Stride(-4)
        stride += 5
        stride -= -10
        stride *= 2
        #expect(stride == 22)
        #expect(Stride.seconds(1.2) == 0)
        #expect(Stride.seconds(1100) == 0)
        #expect(Stride.milliseconds(123) == 0)
        #expect(Stride.microseconds(51) == 0)
        #expect(Stride.nanoseconds(23) == 0)
        #expect(ImmediateScheduler.shared.minimumTolerance == 0)
    }

    @Test func receiveOnImmediateIsSynchronous() {
        let recorder = Recorder(for: [1, 2].publisher.receive(on: ImmediateScheduler.shared))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }
}

@Suite struct DispatchQueueSchedulerTests {
    @Test func schedulesOnTheQueueAndConvertsStrides() async {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        #expect(Stride.seconds(1).magnitude == 1_000_000_000)
        #expect(Stride.milliseconds(2).magnitude == 2_000_000)
        #expect(Stride.seconds(0.25).magnitude == 250_000_000)
        let queue = DispatchQueue(label: "ripple.test")
        let start = queue.now
        #expect(start.distance(to: start.advanced(by: .milliseconds(5))) == .milliseconds(5))
        let values = Locked<[Int]>([])
        let cancellable = [1, 2, 3].publisher.receive(on: queue).sink { value in values.withLock { $0.append(value) } }
        #expect(await eventually { values.current == [1, 2, 3] })
        cancellable.cancel()
    }

    @Test func repeatingScheduleCanBeCancelled() async {
        let queue = DispatchQueue(label: "ripple.timer")
        let ticks = Locked(0)
        let timer = queue.schedule(after: queue.now, interval: .milliseconds(5)) { ticks.withLock { $0 += 1 } }
        #expect(await eventually { ticks.current >= 2 })
        timer.cancel()
        queue.sync {}  // a tick already handed to the queue has run
        let stopped = ticks.current
        // Proof of the negative: a sentinel due six intervals later runs on the same serial queue;
        // by then an uncancelled timer would have ticked again.
        let sentinel = Locked(false)
        queue.asyncAfter(deadline: .now() + .milliseconds(30)) { sentinel.withLock { $0 = true } }
        #expect(await eventually { sentinel.current })
        #expect(ticks.current == stopped)
    }
}

/// The README's "Testing your models" TestScheduler example, verbatim apart from the assertion.
@Suite struct ReadmeTestSchedulerExampleTests {
    @Test func debounceExample() {
        let scheduler = TestScheduler()
        let queries = PassthroughSubject<String, Never>()
        let seen = Locked<[String]>([])
        let cancellable = queries
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .sink { value in seen.withLock { $0.append("\(value) at \(scheduler.now)") } }

        queries.send("r")
        scheduler.advance(by: .milliseconds(100))
        queries.send("ri")
        scheduler.advance(by: .milliseconds(300))
        #expect(seen.current == ["ri at 400ms"])
        cancellable.cancel()
    }
}
