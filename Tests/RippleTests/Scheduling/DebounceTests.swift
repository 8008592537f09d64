import Ripple
import RippleTesting
import Testing

@Suite struct DebounceTests {
    @Test func publishesTheLatestAfterAQuietPeriodAtTheExactTime() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = TimedRecorder<String, Never>(scheduler)
        subject.debounce(for: .milliseconds(300), scheduler: scheduler).subscribe(recorder)
        subject.send("r")
        scheduler.advance(by: .milliseconds(100))
        subject.send("ri")
        scheduler.advance(by: .milliseconds(100))
        subject.send("rip")
        scheduler.advance(by: .milliseconds(500))
        subject.send("ripple")
        scheduler.advance(by: .milliseconds(300))
        #expect(recorder.timedValues.map(\.0) == [500, 1000])
        #expect(recorder.timedValues.map(\.1) == ["rip", "ripple"])
    }

    @Test func asksForEverythingAndDropsWhenTheDownstreamHasNoDemand() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler, demand: nil)
        upstream.debounce(for: .milliseconds(10), scheduler: scheduler).subscribe(recorder)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        scheduler.advance(by: .milliseconds(10))
        recorder.request(.max(1))
        upstream.send(2)
        scheduler.advance(by: .milliseconds(10))
        #expect(recorder.timedValues.map(\.1) == [2])
    }

    @Test func completionIsScheduledAtOnceAndAPendingValueDropped() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.debounce(for: .milliseconds(50), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .finished])
        #expect(recorder.completionTime == 0)
    }

    @Test func cancelStopsAPendingValue() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        upstream.debounce(for: .milliseconds(10), scheduler: scheduler).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription])
    }
}
