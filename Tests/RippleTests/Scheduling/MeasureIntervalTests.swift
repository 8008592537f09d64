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

    /// Combine asks the upstream for the demand returned for an interval, from inside the
    /// delivery, and returns `.none` to it (OpenCombine's `MeasureIntervalTests.testRequest`,
    /// recorded against Combine: with `.max(1)` returned, each `send` returns `.none` and the
    /// upstream's subscription sees `.requested(.max(1))` once per value). Found by the
    /// conformance oracle's `--extended` time shapes.
    @Test func returnedDemandIsRequestedOfTheUpstream() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<VirtualTime.Stride, TestError>(demand: .max(1), onValue: { _ in .max(1) })
        upstream.measureInterval(using: scheduler).subscribe(recorder)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.subscription.requests == [.max(1), .max(1), .max(1)])
        #expect(recorder.values.count == 2)
        recorder.subscription?.cancel()
        #expect(upstream.send(3) == .none)
        #expect(upstream.subscription.requests == [.max(1), .max(1), .max(1)])
    }
}
