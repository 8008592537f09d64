import Ripple
import Testing

@Suite struct CatchTests {
    @Test func replacesAFailedUpstream() {
        let recorder = Recorder(for: [1].publisher.setFailureType(to: TestError.self)
            .append(Fail(error: TestError(id: 1)))
            .catch { error in Just(error.id * 10) })
        #expect(recorder.events == [.subscription, .value(1), .value(10), .finished])
    }

    // Rule 28: subscribed only after the failure, with the demand not yet met.
    @Test func replacementGetsTheUnmetDemand() {
        let upstream = ManualPublisher<Int, TestError>()
        let replacement = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.catch { _ in replacement }, demand: .max(2))
        upstream.send(1)
        #expect(replacement.subscription.requests.isEmpty)
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(replacement.subscription.requests == [.max(1)])
        replacement.send(2)
        replacement.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func finishingUpstreamNeverCallsTheHandler() {
        let called = Locked(false)
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.catch { _ -> Just<Int> in
            called.withLock { $0 = true }
            return Just(0)
        })
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(!called.current)
    }

    @Test func cancelReachesTheReplacement() {
        let replacement = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError()).catch { _ in replacement })
        recorder.cancel()
        #expect(replacement.subscription.cancelled)
    }

    @Test func tryCatchReplacesOrFails() {
        let replaced = Recorder(for: Fail<Int, TestError>(error: TestError(id: 2)).tryCatch { Just($0.id) })
        #expect(replaced.events == [.subscription, .value(2), .finished])
        let failed = Recorder(for: Fail<Int, TestError>(error: TestError(id: 2)).tryCatch { error -> Just<Int> in
            throw TestError(id: error.id + 1)
        })
        #expect(failed.events == [.subscription, .failure("TestError(3)")])
    }

    @Test func tryCatchReplacementFailureIsErased() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 1)).tryCatch { _ in
            Fail<Int, TestError>(error: TestError(id: 4))
        })
        #expect(recorder.events == [.subscription, .failure("TestError(4)")])
    }

    // As Combine: the upstream is subscribed first, the downstream is handed the Catch
    // subscription from inside the upstream's receive(subscription:), and its first request goes
    // straight to the upstream.
    @Test func subscribesTheUpstreamBeforeHandingTheDownstreamItsSubscription() {
        let log = Locked<[String]>([])
        let upstream = LoggingPublisher<Int, TestError>("upstream", log: log)
        let replacement = LoggingPublisher<Int, Never>("replacement", log: log)
        let recorder = Recorder<Int, Never>(demand: .max(2), onSubscription: { log.append("downstream got \($0)") })
        upstream.catch { _ in replacement }.subscribe(recorder)
        #expect(log.current == ["upstream subscribed", "downstream got Catch", "upstream request max(2)"])
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(log.current.dropFirst(3) == ["replacement subscribed", "replacement request max(1)"])
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func tryCatchSubscribesTheUpstreamFirstToo() {
        let log = Locked<[String]>([])
        let upstream = LoggingPublisher<Int, TestError>("upstream", log: log)
        let recorder = Recorder<Int, any Error>(demand: .max(1), onSubscription: { log.append("downstream got \($0)") })
        upstream.tryCatch { _ in Just(0) }.subscribe(recorder)
        #expect(log.current == ["upstream subscribed", "downstream got TryCatch", "upstream request max(1)"])
    }

    // As Combine: a failure that arrives while the downstream's first request is being served
    // (inside the upstream's subscribe) subscribes the replacement right there, nested.
    @Test func aFailureDuringTheFirstRequestSubscribesTheReplacementAtOnce() {
        let log = Locked<[String]>([])
        let subject = CurrentValueSubject<Int, TestError>(5)
        let pipeline = subject.tryMap { _ -> Int in throw TestError(id: 1) }.catch { _ in
            Just(0).handleEvents(receiveSubscription: { _ in log.append("replacement subscribed") })
        }
        let recorder = Recorder<Int, Never>(
            demand: nil, onValue: { log.append("value \($0)"); return .none },
            onSubscription: { subscription in
                log.append("downstream got \(subscription)")
                subscription.request(.max(1))
                log.append("request returned")
            })
        pipeline.subscribe(recorder)
        #expect(log.current == ["downstream got Catch", "replacement subscribed", "value 0", "request returned"])
        #expect(recorder.events == [.subscription, .value(0), .finished])
    }
}
