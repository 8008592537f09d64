import Ripple
import RippleTesting
import Testing

@Suite struct DelayTests {
    @Test func shiftsEveryEventByTheInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.delay(for: .milliseconds(50), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .milliseconds(20))
        subject.send(2)
        subject.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.timedValues.map(\.0) == [50, 70])
        #expect(recorder.timedValues.map(\.1) == [1, 2])
        #expect(recorder.completionTime == 70)
    }

    @Test func demandPassesThroughAndReturnedDemandIsRequested() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: .max(1), onValue: { _ in .max(1) })
        upstream.delay(for: .milliseconds(1), scheduler: scheduler).subscribe(recorder)
        #expect(upstream.subscription.requests == [.max(1)])
        upstream.send(1)
        scheduler.advance(by: .milliseconds(1))
        #expect(upstream.subscription.requests == [.max(1), .max(1)])
    }

    @Test func cancelDropsDelayedEvents() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<Int, Never>(scheduler)
        subject.delay(for: .milliseconds(50), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription])
    }
}
