import Ripple
import Testing

@Suite struct RetryTests {
    @Test func resubscribesUpToTheLimitThenFails() {
        let attempts = Locked(0)
        let publisher = Deferred { () -> AnyPublisher<Int, TestError> in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            return Fail(error: TestError(id: attempt)).eraseToAnyPublisher()
        }
        let recorder = Recorder(for: publisher.retry(2))
        #expect(attempts.current == 3)
        #expect(recorder.events == [.subscription, .failure("TestError(3)")])
    }

    @Test func succeedsOnALaterAttempt() {
        let attempts = Locked(0)
        let publisher = Deferred { () -> AnyPublisher<Int, TestError> in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            return attempt < 3
                ? Fail(error: TestError(id: attempt)).eraseToAnyPublisher()
                : Just(attempt).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        #expect(Recorder(for: publisher.retry(5)).events == [.subscription, .value(3), .finished])
    }

    // Rule 28: a new attempt gets the demand the failed one left unmet.
    @Test func carriesUnmetDemandAcrossAttempts() {
        let manuals = Locked<[ManualPublisher<Int, TestError>]>([])
        let recorder = Recorder(for: Deferred { () -> ManualPublisher<Int, TestError> in
            let manual = ManualPublisher<Int, TestError>()
            manuals.withLock { $0.append(manual) }
            return manual
        }.retry(1), demand: .max(3))
        let first = manuals.current[0]
        first.send(1)
        first.send(completion: .failure(TestError(id: 1)))
        let second = manuals.current[1]
        #expect(second.subscription.requests == [.max(2)])
        second.send(2)
        second.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func cancelStopsRetrying() {
        let manuals = Locked<[ManualPublisher<Int, TestError>]>([])
        let recorder = Recorder(for: Deferred { () -> ManualPublisher<Int, TestError> in
            let manual = ManualPublisher<Int, TestError>()
            manuals.withLock { $0.append(manual) }
            return manual
        }.retry(3))
        recorder.cancel()
        #expect(manuals.current[0].subscription.cancelled)
        manuals.current[0].send(completion: .failure(TestError()))
        #expect(manuals.current.count == 1)
    }

    // As Combine: the upstream is subscribed first and the downstream is handed the Retry
    // subscription from inside the upstream's receive(subscription:) — once; a new attempt is
    // asked at once for the demand still unmet.
    @Test func subscribesTheUpstreamBeforeHandingTheDownstreamItsSubscription() {
        let log = Locked<[String]>([])
        let upstream = LoggingPublisher<Int, TestError>("upstream", log: log)
        let recorder = Recorder<Int, TestError>(demand: .max(2), onSubscription: { log.append("downstream got \($0)") })
        upstream.retry(1).subscribe(recorder)
        #expect(log.current == ["upstream subscribed", "downstream got Retry", "upstream request max(2)"])
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(log.current.dropFirst(3) == ["upstream subscribed", "upstream request max(1)"])
        #expect(recorder.subscriptionCount == 1)
    }

    // As Combine: demand the downstream returns from receive(_:) is requested from the upstream
    // subscription, and receive(_:) returns none to the upstream.
    @Test func requestsTheDemandTheDownstreamReturns() {
        let log = Locked<[String]>([])
        let upstream = LoggingPublisher<Int, TestError>("upstream", log: log)
        let recorder = Recorder<Int, TestError>(demand: .max(3), onValue: { .max($0) })
        upstream.retry(2).subscribe(recorder)
        #expect(upstream.send(5) == .none)
        #expect(log.current == ["upstream subscribed", "upstream request max(3)", "upstream request max(5)"])
        // The unmet demand (3 - 1 + 5) carries over to a new attempt.
        upstream.send(completion: .failure(TestError()))
        #expect(log.current.suffix(2) == ["upstream subscribed", "upstream request max(7)"])
        #expect(recorder.values == [5])
    }
}
