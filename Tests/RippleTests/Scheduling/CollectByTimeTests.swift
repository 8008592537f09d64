import Ripple
import RippleTesting
import Testing

@Suite struct CollectByTimeTests {
    @Test func byTimePublishesWhatGatheredEachStride() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        subject.collect(.byTime(scheduler, .milliseconds(100))).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .milliseconds(150))
        subject.send(3)
        scheduler.advance(by: .milliseconds(200))  // the empty window at 300ms publishes nothing
        #expect(recorder.timedValues.map(\.0) == [100, 200])
        #expect(recorder.timedValues.map(\.1) == [[1, 2], [3]])
    }

    @Test func byTimeOrCountPublishesAFullGroupOnTheNextTurnOfTheSchedulerAndRestartsTheClock() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        subject.collect(.byTimeOrCount(scheduler, .milliseconds(100), 2)).subscribe(recorder)
        scheduler.advance(by: .milliseconds(50))
        subject.send(1)
        subject.send(2)
        scheduler.advance()
        subject.send(3)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.timedValues.map(\.0) == [50, 150])
        #expect(recorder.timedValues.map(\.1) == [[1, 2], [3]])
    }

    @Test func finishPublishesTheLastGroupFirst() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value([1]), .finished])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func cancelStopsTheClock() {
        let scheduler = TestScheduler()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        PassthroughSubject<Int, Never>().collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        recorder.cancel()
        #expect(scheduler.pendingActionCount == 0)
    }

    // Upstream demand and synchronous publishing, as Combine's (behaviour observed on Apple's
    // Combine by the CombineX project's specs, rewritten here).

    @Test func byTimeAsksForOneElementPerRequestAndOneMorePerElement() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<[Int], Never>(demand: .max(2))
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        #expect(upstream.subscription.events == [.request(.max(1))])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        recorder.request(.max(3))
        #expect(upstream.subscription.events == [.request(.max(1)), .request(.max(1))])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[1, 2]])
    }

    @Test func byTimeOrCountAsksForCountTimesTheDownstreamsDemand() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<[Int], Never>(demand: .max(2))
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(recorder)
        #expect(upstream.subscription.events == [.request(.max(6))])
        recorder.request(.unlimited)
        #expect(upstream.subscription.events == [.request(.max(6)), .request(.unlimited)])
    }

    // Combine since iOS 13.3 / macOS 10.15.2: a group full at the count is published from an action
    // scheduled on the scheduler, never from inside the upstream's delivery (so `DispatchQueue.main`
    // gets it on the main queue), and the demand the subscriber returns is requested from the
    // upstream, `count` per group, instead of being returned from `receive(_:)`.
    @Test func aGroupFullAtTheCountIsPublishedFromTheSchedulerAndItsDemandIsRequestedMultiplied() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<[Int], Never>(demand: .max(1), onValue: { $0.contains(0) ? .max(1) : .none })
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(recorder)
        #expect(upstream.subscription.requests == [.max(2)])
        #expect(upstream.send(0) == .none)
        #expect(upstream.send(1) == .none)
        #expect(recorder.values.isEmpty)
        scheduler.advance()
        #expect(recorder.values == [[0, 1]])
        #expect(upstream.subscription.requests == [.max(2), .max(2)])
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(recorder.values == [[0, 1]])
        scheduler.advance()
        #expect(recorder.values == [[0, 1], [2, 3]])
        #expect(upstream.subscription.requests == [.max(2), .max(2)])
    }

    @Test func demandReturnedFromAGroupTheClockPublishedIsNotAskedOfTheUpstream() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<[Int], Never>(demand: .max(2), onValue: { $0.contains(2) ? .max(5) : .none })
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(recorder)
        upstream.send(0)
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[0, 1], [2]])
        #expect(upstream.subscription.events == [.request(.max(4))])
        // The five count for the downstream: the groups that follow go out.
        upstream.send(3)
        upstream.send(4)
        upstream.send(5)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[0, 1], [2], [3, 4], [5]])
    }

    @Test func byTimeOrCountWithUnlimitedDemandSplitsAtTheCountAndTheClock() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.collect(.byTimeOrCount(scheduler, .seconds(2), 2)))
        subject.send(1)
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .seconds(2))
        for value in 4...8 { subject.send(value) }
        scheduler.advance(by: .seconds(2))
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.values == [[1, 2], [3], [4, 5], [6, 7], [8]])
        #expect(recorder.isCompleted)
    }

    @Test func aFailureDropsTheGroupGatheredSoFar() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder(for: subject.collect(.byTime(scheduler, .seconds(2))))
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(2))
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        subject.send(completion: .failure(TestError()))
        scheduler.advance()
        #expect(recorder.values == [[1, 2]])
        #expect(recorder.isCompleted)
    }
}

