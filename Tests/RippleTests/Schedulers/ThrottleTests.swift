import Ripple
import RippleTesting
import Testing

@Suite struct ThrottleTests {
    @Test func latestDeliversTheFirstAtOnceThenTheLatestPerWindow() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true).subscribe(recorder)
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
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.throttle(for: .milliseconds(100), scheduler: scheduler, latest: false).subscribe(recorder)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.timedValues.map(\.1) == [1, 2])
        #expect(recorder.timedValues.map(\.0) == [0, 100])
    }

    @Test func completionDeliversTheHeldElementFirst() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true).subscribe(recorder)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
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
