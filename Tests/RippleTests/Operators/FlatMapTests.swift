import Ripple
import Testing

@Suite(.exitTestWatchdog) struct FlatMapTests {
    @Test func mergesInnerPublishers() {
        let recorder = Recorder(for: [1, 2].publisher.flatMap { [$0, $0 * 10].publisher })
        #expect(recorder.events == [.subscription, .value(1), .value(10), .value(2), .value(20), .finished])
    }

    @Test func maxPublishersLimitsConcurrentInnersAndRefillsAsTheyFinish() {
        let upstream = ManualPublisher<Int, Never>()
        let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = Recorder(for: upstream.flatMap(maxPublishers: .max(2)) { inners[$0] })
        #expect(upstream.subscription.requests == [.max(2)])
        upstream.send(0)
        upstream.send(1)
        inners[0].send(10)
        inners[1].send(11)
        inners[0].send(completion: .finished)
        // One inner finished: one more publisher is asked for.
        #expect(upstream.subscription.requests == [.max(2), .max(1)])
        upstream.send(2)
        inners[2].send(12)
        #expect(recorder.values == [10, 11, 12])
    }

    @Test func finishesWhenUpstreamAndEveryInnerHaveFinished() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: upstream.flatMap { _ in inner })
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(!recorder.isCompleted)
        inner.send(5)
        inner.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(5), .finished])
    }

    @Test func innerFailureCancelsUpstreamAndOtherInners() {
        let upstream = ManualPublisher<Int, TestError>()
        let inners = [ManualPublisher<Int, TestError>(), ManualPublisher<Int, TestError>()]
        let recorder = Recorder(for: upstream.flatMap { inners[$0] })
        upstream.send(0)
        upstream.send(1)
        inners[1].send(completion: .failure(TestError(id: 1)))
        #expect(upstream.subscription.cancelled)
        #expect(inners[0].subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    @Test func boundedDemandReachesInnersOneAtATime() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.flatMap { _ in inner }, demand: .max(2))
        upstream.send(0)
        #expect(inner.subscription.requests == [.max(1)])
        #expect(inner.send(1) == .max(1))
        // Combine: a delivered element asks for the next one even with the demand used up.
        #expect(inner.send(2) == .max(1))
        #expect(inner.send(3) == .none)
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3])
        #expect(inner.subscription.requests == [.max(1), .max(1)])
    }

    // Combine's demand: a new inner publisher is asked for one element at once, even while the
    // downstream has no demand; its element waits, and when it finishes its place goes to the next.
    @Test func newInnerIsAskedForOneElementWithoutDownstreamDemand() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        let inner = LoggedPublisher<Int, Never>("inner", log: log)
        let subscriber = LoggedSubscriber<Int, Never>(log: log, demand: nil)
        upstream.flatMap(maxPublishers: .max(1)) { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        #expect(inner.send(7) == .none)
        inner.send(completion: .finished)
        #expect(log.entries == [
            "S subscription FlatMap", "up subscribed", "up request max(1)",
            "inner subscribed", "inner request max(1)",
            "up request max(1)",
        ])
        subscriber.subscription?.request(.max(1))
        #expect(log.entries.last == "S value 7")
    }

    // The case the conformance oracle found: over a CurrentValueSubject, values sent while an inner
    // publisher waits for demand. Each inner publisher finishes after its element, so the subject is
    // asked for the next one at once: every value sent gets its run.
    @Test func currentValueSubjectWithOneInnerAtATime() {
        let subject = CurrentValueSubject<Int, Never>(5)
        let recorder = Recorder(for: subject.flatMap(maxPublishers: .max(1)) { [$0 * 10].publisher }, demand: .max(1))
        subject.send(2)
        subject.send(5)
        subject.send(1)
        #expect(recorder.values == [50])
        recorder.request(.unlimited)
        #expect(recorder.values == [50, 20, 50, 10])
    }

    // Combine's demand: each element delivered asks its inner publisher for the next one, demand or
    // not; that one waits, and the inner publisher finishing frees its place for the next.
    @Test func deliveredElementAsksItsInnerForTheNext() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        let inner = LoggedPublisher<Int, Never>("inner", log: log)
        let subscriber = LoggedSubscriber<Int, Never>(log: log, demand: .max(1))
        upstream.flatMap(maxPublishers: .max(1)) { _ in inner }.subscribe(subscriber)
        upstream.send(0)
        #expect(inner.send(5) == .max(1))
        #expect(inner.send(2) == .none)
        inner.send(completion: .finished)
        #expect(log.entries.suffix(3) == ["inner request max(1)", "S value 5", "up request max(1)"])
        subscriber.subscription?.request(.max(1))
        #expect(log.entries.last == "S value 2")
    }

    // Combine's order: an inner publisher asked for its next element while queued values are
    // delivered sends it from inside that request; it waits behind the refill request that the
    // inner publisher's completion causes.
    @Test func elementSentFromInsideTheRenewedRequestWaits() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        let subscriber = LoggedSubscriber<Int, Never>(log: log, demand: nil)
        upstream.flatMap(maxPublishers: .max(1)) { _ in [2, 0].publisher }.subscribe(subscriber)
        upstream.send(0)
        subscriber.subscription?.request(.max(3))
        #expect(log.entries == [
            "S subscription FlatMap", "up subscribed", "up request max(1)",
            "S value 2", "up request max(1)", "S value 0",
        ])
    }

    @Test func failureTypeOverloads() {
        // Never upstream, failing inner.
        let a = Recorder(for: Just(1).flatMap { _ in Fail<Int, TestError>(error: TestError(id: 3)) })
        #expect(a.events == [.subscription, .failure("TestError(3)")])
        // Failing upstream, Never inner.
        let b = Recorder(for: [1].publisher.setFailureType(to: TestError.self).flatMap { Just($0 + 1) })
        #expect(b.values == [2])
        // Neither fails.
        #expect(Recorder(for: Just(1).flatMap { Just($0 * 3) }).values == [3])
    }

    @Test func zeroDemandTraps() async {
        await #expect(processExitsWith: .failure) {
            let recorder = Recorder(for: Just(1).flatMap { Just($0) }, demand: nil)
            recorder.request(.none)
        }
    }

    @Test func cancelCancelsEverything() {
        let upstream = ManualPublisher<Int, Never>()
        let inner = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.flatMap { _ in inner })
        upstream.send(0)
        recorder.cancel()
        #expect(upstream.subscription.cancelled && inner.subscription.cancelled)
    }

    @Test func reentrantUpstreamSendFromTheDownstream() {
        let upstream = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(onValue: { value in
            if value == 1 { upstream.send(2) }
            return .none
        })
        upstream.flatMap { Just($0) }.subscribe(recorder)
        upstream.send(1)
        upstream.send(3)
        #expect(recorder.values == [1, 2, 3])
    }

    /// The upstream fails from inside the request flatMap makes of it while asking a finished
    /// inner's replacement (the refill happens inside the drain's request to the inner): the
    /// failure reaches the subscriber at once, inside the upstream's call, as in Combine — not after
    /// that call returns. Found by the Conformance oracle (seed 171999).
    @Test func aFailureFromInsideTheRefillRequestIsDeliveredAtOnce() {
        let log = OrderLog()
        let outer = LoggedPublisher<Int, TestError>("outer", log: log)
        let requests = Locked(0)
        outer.onRequest = { _ in
            let count = requests.withLock { count -> Int in
                count += 1
                return count
            }
            if count == 1 {
                outer.send(3)
            } else {
                outer.send(completion: .failure(TestError()))
                log.append("outer failure returned")
            }
        }
        let subscriber = LoggedSubscriber<Int, TestError>(log: log, demand: nil)
        outer.flatMap(maxPublishers: .max(1)) { _ in [1, 5].publisher.setFailureType(to: TestError.self) }
            .subscribe(subscriber)
        subscriber.subscription?.request(.max(1))
        let tail = Array(log.entries.drop { $0 != "S value 1" })
        #expect(tail == ["S value 1", "outer request max(1)", "S completion failure TestError(0)", "outer failure returned"])
    }
}

