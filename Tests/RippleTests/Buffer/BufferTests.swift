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

    // Combine (BufferTests.testBufferingInputFailingWhenBufferIsFull, recorded against it): the
    // overflow cancels the upstream at once, but what is held still goes out as demand allows,
    // then the failure; a later request delivers nothing more.
    @Test func customErrorCancelsUpstreamAtOnceAndDeliversWhatItHoldsBeforeTheFailure() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(
            for: upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .customError { TestError(id: 99) }), demand: nil)
        for value in 1...5 { upstream.send(value) }
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
        #expect(recorder.events == [.subscription])
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .failure("TestError(99)")])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .failure("TestError(99)")])
    }

    // Combine (BufferTests.testRequestingFiniteDemandByRequestCustomError): a request that leaves
    // held elements uncovered is followed by the failure, and the rest is dropped.
    @Test func customErrorFailsOnceTheDemandRunsOutWithElementsLeft() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(
            for: upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .customError { TestError(id: 99) }), demand: nil)
        for value in 0..<10 { upstream.send(value) }
        recorder.request(.max(3))
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(2), .failure("TestError(99)")])
    }

    // Combine: `.finished` waits for the buffered elements and for demand.
    @Test func finishedWaitsForTheBufferedElementsAndForDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest), demand: nil)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
        let empty = Recorder(for: Empty<Int, Never>().buffer(size: 1, prefetch: .keepFull, whenFull: .dropNewest), demand: nil)
        #expect(empty.events == [.subscription])
        empty.request(.max(1))
        #expect(empty.events == [.subscription, .finished])
    }

    // Combine: a failure goes out as soon as the downstream has no demand, dropping what is
    // buffered; with demand, the buffered elements go first.
    @Test func failureGoesOutWhenTheDemandIsUsedUp() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest), demand: nil)
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])

        let second = ManualPublisher<Int, TestError>()
        let noDemand = Recorder(for: second.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest), demand: nil)
        for value in 1...3 { second.send(value) }
        second.send(completion: .failure(TestError(id: 2)))
        #expect(noDemand.events == [.subscription, .failure("TestError(2)")])

        let third = PassthroughSubject<Int, TestError>()
        let partly = Recorder(for: third.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest), demand: nil)
        for value in 1...3 { third.send(value) }
        partly.request(.max(1))
        #expect(partly.events == [.subscription, .value(1)])
        third.send(completion: .failure(TestError(id: 3)))
        #expect(partly.events == [.subscription, .value(1), .failure("TestError(3)")])
    }

    @Test func failureWithDemandDeliversTheBufferedElementsFirst() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, TestError>("up", log: log)
        let subscriber = LoggedSubscriber<Int, TestError>(log: log, demand: nil)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        subscriber.subscription?.request(.max(1))
        subscriber.subscription?.request(.max(5))
        upstream.send(completion: .failure(TestError(id: 4)))
        #expect(log.entries.suffix(3) == ["S value 1", "S value 2", "S completion failure TestError(4)"])
    }

    // Combine's order: the prefetch is asked for before the downstream gets its subscription;
    // what the upstream sends from inside that request is buffered, then delivered on demand.
    @Test func prefetchIsRequestedBeforeTheDownstreamGetsItsSubscription() {
        let log = OrderLog()
        let keepFull = LoggedPublisher<Int, Never>("up", log: log)
        keepFull.onRequest = { [unowned keepFull] demand in
            if demand == .max(2) { _ = keepFull.send(7) }
        }
        keepFull.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
            .subscribe(LoggedSubscriber<Int, Never>(log: log, demand: .max(3)))
        #expect(log.entries == [
            "up subscribed", "up request max(2)", "S subscription Buffer", "S value 7", "up request max(1)",
        ])

        let byRequestLog = OrderLog()
        let byRequest = LoggedPublisher<Int, Never>("up", log: byRequestLog)
        byRequest.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
            .subscribe(LoggedSubscriber<Int, Never>(log: byRequestLog, demand: .max(1)))
        #expect(byRequestLog.entries == ["up subscribed", "up request unlimited", "S subscription Buffer"])
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
