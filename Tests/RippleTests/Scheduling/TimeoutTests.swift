import Ripple
import RippleTesting
import Testing

@Suite struct TimeoutTests {
    @Test func finishesWhenNothingArrivesInTime() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        upstream.timeout(.milliseconds(100), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .milliseconds(60))
        upstream.send(1)  // restarts the clock
        scheduler.advance(by: .milliseconds(60))
        #expect(!upstream.subscription.cancelled)
        scheduler.advance(by: .milliseconds(40))
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(recorder.completionTime == 160)
    }

    /// On a scheduler that runs every wait at once (`ImmediateScheduler`, `.immediate`), the wait
    /// scheduled at subscription runs out before the subscription has gone downstream: the
    /// subscriber still gets its subscription first, then the completion (nothing reaches a
    /// subscriber before its subscription). Found by the sample model test of an injected
    /// immediate scheduler.
    /// The upstream's answer to the subscriber's first request (`Just`'s value, sent inside the
    /// request) comes after the time-out: it is not passed on.
    @Test func aWaitThatRunsOutAtOnceEndsTheSubscriptionAfterHandingItOn() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: .unlimited)
        upstream.timeout(.seconds(2), scheduler: ImmediateScheduler.shared).subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.subscription.cancelled)

        let late = Recorder<Int, Never>(demand: .unlimited)
        Just(1).timeout(.seconds(2), scheduler: ImmediateScheduler.shared).subscribe(late)
        #expect(late.events == [.subscription, .finished])
    }

    @Test func customErrorFails() {
        let scheduler = TestScheduler()
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        PassthroughSubject<Int, TestError>()
            .timeout(.seconds(1), scheduler: scheduler, customError: { TestError(id: 408) })
            .subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .failure("TestError(408)")])
    }

    @Test func upstreamCompletionWinsBeforeTheDeadline() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.timeout(.milliseconds(100), scheduler: scheduler).subscribe(recorder)
        subject.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .finished])
        #expect(recorder.completionTime == 0)
    }

    /// Combine schedules the timeout when the subscription arrives and again at the downstream's
    /// first request, not at later ones (OpenCombine's `TimeoutTests.testRequest`, recorded
    /// against Combine). Found by the conformance oracle's `--extended` time shapes.
    @Test func theFirstRequestStartsTheClockAgain() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler, demand: nil)
        upstream.timeout(.milliseconds(100), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .milliseconds(60))
        recorder.request(.max(1))  // starts the clock again: due at 160
        scheduler.advance(by: .milliseconds(60))
        recorder.request(.max(1))  // a later request does not
        #expect(!upstream.subscription.cancelled)
        scheduler.advance(by: .milliseconds(40))
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .finished])
        #expect(recorder.completionTime == 160)
        #expect(upstream.subscription.requests == [.max(1), .max(1)])
    }

    @Test func requestsPassThrough() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        _ = Recorder(for: upstream.timeout(.seconds(1), scheduler: scheduler), demand: .max(3))
        #expect(upstream.subscription.requests == [.max(3)])
    }
}
