import Dispatch
import Ripple
import RippleTesting
import Testing

@Suite struct ThrottleTests {
    /// A subject throttled on a virtual clock, and a recorder of what reached its subscriber, when.
    static func throttled(
        for interval: VirtualTime.Stride = .milliseconds(100), latest: Bool
    ) -> (TestScheduler<VirtualTime, Never>, PassthroughSubject<Int, Never>, TimedRecorder<Int, Never>) {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.throttle(for: interval, scheduler: scheduler, latest: latest).subscribe(recorder)
        return (scheduler, subject, recorder)
    }

    /// A downstream that cancels inside receive(subscription:) ended the upstream subscription:
    /// throttle (and debounce) ask it for nothing afterwards (cancellation is final). Found by the
    /// conformance oracle's `--extended` time shapes.
    @Test func asksNothingOfAnUpstreamTheDownstreamCancelledOnArrival() {
        let scheduler = TestScheduler()
        for build in [
            { (upstream: ManualPublisher<Int, Never>) in
                upstream.throttle(for: .milliseconds(10), scheduler: scheduler, latest: true).eraseToAnyPublisher()
            },
            { (upstream: ManualPublisher<Int, Never>) in
                upstream.debounce(for: .milliseconds(10), scheduler: scheduler).eraseToAnyPublisher()
            },
        ] {
            let upstream = ManualPublisher<Int, Never>()
            let recorder = Recorder<Int, Never>(demand: nil, onSubscription: { $0.cancel() })
            build(upstream).subscribe(recorder)
            #expect(upstream.subscription.cancelled)
            #expect(upstream.subscription.requests.isEmpty)
        }
    }

    @Test func latestDeliversTheFirstAtOnceThenTheLatestPerWindow() {
        let (scheduler, subject, recorder) = Self.throttled(latest: true)
        subject.send(1)
        scheduler.advance(by: .milliseconds(10))
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .milliseconds(200))
        subject.send(4)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.timedValues.map(\.1) == [1, 3, 4])
        #expect(recorder.timedValues.map(\.0) == [0, 100, 210])
    }

    @Test func firstKeepsTheFirstOfEachWindow() {
        let (scheduler, subject, recorder) = Self.throttled(latest: false)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.timedValues.map(\.1) == [1, 2])
        #expect(recorder.timedValues.map(\.0) == [0, 100])
    }

    // Combine schedules the first element for the scheduler's next turn; what arrives before that
    // turn runs folds into the same delivery (OpenCombine's ThrottleTests.testBasicBehavior,
    // CombineX's ThrottleSpec "should sent the latest value", both recorded against Combine).
    @Test(arguments: [(latest: true, expected: 3), (latest: false, expected: 1)])
    func valuesSentBeforeTheFirstDeliveryRunsFoldIntoIt(latest: Bool, expected: Int) {
        let (scheduler, subject, recorder) = Self.throttled(latest: latest)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.timedValues.map(\.1) == [expected])  // the newest with `latest`, else the first
        #expect(recorder.timedValues.map(\.0) == [0])
    }

    @Test func latestDeliversOneValuePerIntervalWhenTheSchedulerRunsEverySecond() {
        let (scheduler, subject, recorder) = Self.throttled(for: .seconds(1), latest: true)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        subject.send(3)
        subject.send(4)
        scheduler.advance(by: .seconds(1))
        subject.send(5)
        subject.send(6)
        scheduler.advance(by: .milliseconds(2500))
        subject.send(7)
        #expect(recorder.timedValues.map(\.1) == [2, 4, 6])
        scheduler.advance(by: .milliseconds(500))
        #expect(recorder.timedValues.map(\.1) == [2, 4, 6, 7])
        #expect(recorder.timedValues.map(\.0) == [0, 1000, 2000, 4500])
    }

    @Test func foldsValuesSentBeforeADispatchQueueRuns() {
        let queue = DispatchQueue(label: "ThrottleTests.fold")
        let subject = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        let cancellable = subject.throttle(for: .milliseconds(20), scheduler: queue, latest: true)
            .sink { value in received.withLock { $0.append(value) } }
        queue.suspend()
        subject.send(1)
        subject.send(2)
        subject.send(3)
        queue.resume()
        queue.sync {}
        // Longer than the interval: a value held for the end of a window would have arrived.
        let waited = DispatchSemaphore(value: 0)
        queue.asyncAfter(deadline: .now() + .milliseconds(100)) { waited.signal() }
        waited.wait()
        queue.sync {}
        #expect(received.current == [3])
        cancellable.cancel()
    }

    // Combine drops a value that arrives while the downstream has no demand, at once: nothing is
    // scheduled for it, and demand requested later does not bring it back (OpenCombine's
    // ThrottleTests.testThrottleDemand and testNoDemandReceivesNoValues).
    @Test func aValueArrivingWithoutDemandIsDroppedAndNothingIsScheduled() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler, demand: .max(2))
        subject.throttle(for: .milliseconds(100), scheduler: scheduler, latest: false).subscribe(recorder)
        subject.send(1)
        subject.send(5)
        subject.send(6)
        scheduler.advance()
        subject.send(2)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.timedValues.map(\.1) == [1, 2])
        subject.send(3)
        #expect(scheduler.pendingActionCount == 0)
        recorder.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.timedValues.map(\.1) == [1, 2])
    }

    @Test func withoutAnyDemandNothingIsScheduled() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler, demand: nil)
        subject.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true).subscribe(recorder)
        subject.send(1)
        #expect(scheduler.pendingActionCount == 0)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription])
    }

    // CombineX's ThrottleSpec "should send as many values as demand": 10 requested, one more
    // returned for two of the values.
    @Test func deliversAsManyValuesAsDemanded() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(10)) },
            receiveValue: { value in
                received.withLock { $0.append(value) }
                return [0, 5].contains(value) ? .max(1) : .none
            },
            receiveCompletion: { _ in })
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        for value in 0..<100 {
            subject.send(value)
            scheduler.advance(by: .seconds(1))
        }
        #expect(received.current.count == 12)
    }

    // Combine holds the completion for the pending delivery (OpenCombine's
    // ThrottleTests.testReceiveCompletionImmediatelyAfterValue).
    @Test func completionWaitsForThePendingDelivery() {
        let (scheduler, subject, recorder) = Self.throttled(latest: true)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        scheduler.advance(by: .milliseconds(50))
        #expect(recorder.events == [.subscription, .value(1)])
        scheduler.advance(by: .milliseconds(50))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(recorder.completionTime == 100)
    }

    @Test func completionWithNothingPendingIsScheduledAtOnce() {
        let (scheduler, subject, recorder) = Self.throttled(latest: true)
        subject.send(1)
        scheduler.advance(by: .milliseconds(10))
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(recorder.completionTime == 10)
    }

    @Test func cancelStopsEverything() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        upstream.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription])
    }
}
