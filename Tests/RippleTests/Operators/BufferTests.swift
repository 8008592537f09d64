import Ripple
import Testing

@Suite struct BufferTests {
    @Test func byRequestAsksForEverythingAndHoldsWhatTheDownstreamHasNotAskedFor() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest), demand: .max(1))
        for value in 1...4 { subject.send(value) }
        #expect(recorder.values == [1])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3])
        recorder.request(.max(5))
        #expect(recorder.values == [1, 2, 3, 4])
    }

    @Test func keepFullPrefetchesSizeAndRefillsPerElementThatLeaves() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest), demand: nil)
        #expect(upstream.subscription.requests == [.max(3)])
        upstream.send(1)
        upstream.send(2)
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        #expect(upstream.subscription.requests == [.max(3), .max(1)])
    }

    @Test func dropNewestAndDropOldest() {
        let a = PassthroughSubject<Int, Never>()
        let newest = Recorder(for: a.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest), demand: nil)
        let b = PassthroughSubject<Int, Never>()
        let oldest = Recorder(for: b.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest), demand: nil)
        for value in 1...4 {
            a.send(value)
            b.send(value)
        }
        newest.request(.unlimited)
        oldest.request(.unlimited)
        #expect(newest.values == [1, 2])
        #expect(oldest.values == [3, 4])
    }

    @Test func customErrorFailsAtOnceAndCancelsUpstream() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(
            for: upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { TestError(id: 99) }), demand: nil)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(99)")])
    }

    @Test func completionWaitsForTheBufferedElements() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest), demand: nil)
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .failure("TestError(1)")])
    }

    @Test func cancelReachesUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest))
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
    }

    @Test func reentrantRequestFromInsideDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: .max(1), onValue: { _ in .max(1) })
        subject.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        for value in 1...3 { subject.send(value) }
        #expect(recorder.values == [1, 2, 3])
    }
}
