import Ripple
import Testing

/// A subscription that records requests and cancels and runs a hook on each, so a test can call
/// back into an operator from inside them (as some of Combine's recorded crash tests do).
private final class HookedSubscription: Subscription, @unchecked Sendable {
    let log = Locked<[RecordingSubscription.Event]>([])
    var onRequest: ((Subscribers.Demand) -> Void)?
    var onCancel: (() -> Void)?

    func request(_ demand: Subscribers.Demand) {
        log.withLock { $0.append(.request(demand)) }
        onRequest?(demand)
    }

    func cancel() {
        log.withLock { $0.append(.cancel) }
        onCancel?()
    }
}

/// A publisher that hands each subscriber `subscription`; `send` reaches the latest subscriber.
private final class HookedPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    let subscription = HookedSubscription()
    private let box = Locked<AnySubscriber<Output, Failure>?>(nil)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.withLock { $0 = AnySubscriber(subscriber) }
        subscriber.receive(subscription: subscription)
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand { box.current?.receive(value) ?? .none }

    func send(completion: Subscribers.Completion<Failure>) { box.current?.receive(completion: completion) }
}

/// The ten crashes of Combine's recorded tests that Ripple keeps as defined answers (Reliability.md's
/// Misuse section and the Porting article list them with their reasons): each recorded scenario,
/// run here, ends without a trap and with the answer the documentation gives.
@Suite struct KeptDifferencesTests {
    // DropUntilOutputTests.testCrashesWhenReceivesInputAfterCancel and
    // testDropUntilOutputReceiveValueBeforeSubscription: the trigger (an Empty) ended the stream.
    @Test func dropUntilOutputIgnoresAValueAfterTheStreamEnded() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: Empty<Int, TestError>()), demand: nil)
        #expect(upstream.send(0) == .none)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.subscription.cancelled)
    }

    // CatchTests.testCatchRecursion / testTryCatchRecursion: the upstream fails again from inside
    // the handler call.
    @Test func catchIgnoresASecondFailureFromInsideTheHandler() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.catch { _ in
            upstream.send(completion: .failure(TestError(id: 2)))
            return Just(13)
        })
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .value(13), .finished])

        let tryUpstream = ManualPublisher<Int, TestError>()
        let tryRecorder = Recorder(for: tryUpstream.tryCatch { _ in
            tryUpstream.send(completion: .failure(TestError(id: 2)))
            return Just(13)
        })
        tryUpstream.send(completion: .failure(TestError(id: 1)))
        #expect(tryRecorder.events == [.subscription, .value(13), .finished])
    }

    // CatchTests.testCatchUpstreamFailsTwice / testTryCatchUpstreamFailsTwice.
    @Test func catchIgnoresASecondFailureAfterTheFirstWasHandled() {
        let upstream = HookedPublisher<Int, TestError>()
        let handler = HookedPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(demand: nil)
        upstream.catch { _ in handler }.subscribe(recorder)
        upstream.send(completion: .failure(TestError(id: 1)))
        upstream.send(completion: .failure(TestError(id: 2)))
        handler.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])

        let tryUpstream = HookedPublisher<Int, TestError>()
        let tryHandler = HookedPublisher<Int, TestError>()
        let tryRecorder = Recorder<Int, any Error>(demand: nil)
        tryUpstream.tryCatch { _ in tryHandler }.subscribe(tryRecorder)
        tryUpstream.send(completion: .failure(TestError(id: 1)))
        tryUpstream.send(completion: .failure(TestError(id: 2)))
        tryHandler.send(completion: .finished)
        #expect(tryRecorder.events == [.subscription, .finished])
    }

    // FlatMapTests.testCrashesWhenUpstreamFailsDuringChildCancellation.
    @Test func flatMapFailsOnceWhenTheUpstreamFailsAgainInsideAChildsCancel() {
        let outer = HookedPublisher<HookedPublisher<Int, TestError>, TestError>()
        let child = HookedPublisher<Int, TestError>()
        let cancels = Locked(0)
        child.subscription.onCancel = {
            guard cancels.withLock({ count in
                count += 1
                return count <= 5
            }) else { return }
            outer.send(completion: .failure(TestError(id: 2)))
        }
        let recorder = Recorder(for: outer.flatMap { $0 })
        #expect(outer.send(child) == .none)
        outer.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    // BufferTests.testDeadlockWhenErroringOnFullBuffer (there with demand, which Combine's
    // zero-size buffer does not deliver at once; here without, so that the value overflows).
    @Test func bufferServesAnErrorClosureThatSendsIntoTheFullBuffer() {
        let upstream = HookedPublisher<Int, TestError>()
        let remaining = Locked(10)
        let buffered = upstream.buffer(size: 0, prefetch: .keepFull, whenFull: .customError {
            if remaining.withLock({ count in
                count -= 1
                return count >= 0
            }) {
                upstream.send(1000)
            }
            return TestError(id: 9)
        })
        let recorder = Recorder(for: buffered, demand: nil)
        upstream.send(0)
        // The failure waits for the downstream's request, as a failure after held elements does.
        recorder.request(.max(1))
        #expect(recorder.events.filter { if case .failure = $0 { true } else { false } }.count == 1)
        #expect(recorder.events.last == .failure("TestError(9)"))
    }

    // SubscribeOnTests.testCrashWhenRequestingRecursively.
    @Test func subscribeOnPassesOnARequestMadeFromInsideARequest() {
        let upstream = HookedPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.subscribe(on: ImmediateScheduler.shared), demand: nil)
        let remaining = Locked(5)
        upstream.subscription.onRequest = { _ in
            guard remaining.withLock({ count in
                count -= 1
                return count >= 0
            }) else { return }
            recorder.request(.unlimited)
        }
        recorder.request(.max(1))
        let requests = upstream.subscription.log.current
        #expect(requests.count == 6)
        #expect(requests.contains(.request(.max(1))))
        #expect(requests.filter { $0 == .request(.unlimited) }.count == 5)
    }

    // TimeoutTests.testCrashesWithImmediateScheduler.
    @Test func timeoutOnTheImmediateSchedulerTimesOutAtOnce() {
        let upstream = HookedPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.timeout(.nanoseconds(10), scheduler: ImmediateScheduler.shared))
        #expect(recorder.isCompleted)
        #expect(recorder.events.last == .finished)
        #expect(upstream.subscription.log.current.contains(.cancel))
    }
}
