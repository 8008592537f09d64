import Ripple
import RippleTesting
import Testing

@Suite struct ReceiveOnTests {
    // Rule 30: subscribes synchronously, schedules every event.
    @Test func subscriptionIsSynchronousEventsAreScheduled() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.receive(on: scheduler).subscribe(recorder)
        #expect(recorder.events == [.subscription])
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func requestsGoStraightUpstreamAndReturnedDemandIsRequested() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: .max(1), onValue: { _ in .max(2) })
        upstream.receive(on: scheduler).subscribe(recorder)
        #expect(upstream.subscription.requests == [.max(1)])
        upstream.send(1)
        scheduler.advance()
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
    }

    @Test func cancelStopsEventsAlreadyScheduled() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.receive(on: scheduler))
        upstream.send(1)
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
        scheduler.advance()
        #expect(recorder.events == [.subscription])
    }
}

@Suite struct SubscribeOnTests {
    // Rule 30: subscribe, request and cancel are scheduled; delivery is synchronous.
    @Test func subscribeRequestAndCancelAreScheduled() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.subscribe(on: scheduler), demand: .max(1))
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        // The subscriber's first request was scheduled too (and ran within the same advance).
        #expect(recorder.events == [.subscription])
        #expect(upstream.subscription.requests == [.max(1)])
        recorder.request(.max(2))
        #expect(upstream.subscription.requests == [.max(1)])
        scheduler.advance()
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        upstream.send(5)
        #expect(recorder.values == [5])
        recorder.cancel()
        #expect(!upstream.subscription.cancelled)
        scheduler.advance()
        #expect(upstream.subscription.cancelled)
    }
}
