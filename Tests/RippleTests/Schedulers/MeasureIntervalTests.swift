import Ripple
import RippleTesting
import Testing

@Suite struct MeasureIntervalTests {
    @Test func measuresSinceSubscriptionThenSinceThePreviousElement() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Void, Never>()
        let recorder = Recorder(for: subject.measureInterval(using: scheduler))
        scheduler.advance(by: .milliseconds(30))
        subject.send()
        scheduler.advance(by: .milliseconds(70))
        subject.send()
        subject.send()
        #expect(recorder.values == [.milliseconds(30), .milliseconds(70), .milliseconds(0)])
    }

    @Test func demandAndCompletionPassThrough() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.measureInterval(using: scheduler), demand: .max(1))
        #expect(upstream.subscription.requests == [.max(1)])
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }
}
