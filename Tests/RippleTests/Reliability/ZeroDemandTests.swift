import Ripple
import RippleTesting
import Testing

/// Where Apple's Combine does not trap on a request for `.none`, Ripple does not either: the
/// operators that pass requests straight upstream pass `.none` on too, the ones that count demand
/// ignore it. (Combine's own tests, recorded against it: `request(.none) // Shouldn't crash` for
/// `Sequence` and `Record`; `.requested(.none)` reaching the upstream of `delay`, `subscribe(on:)`,
/// `measureInterval`, `prefix(untilOutputFrom:)` and concatenations; nothing reaching the upstream of `throttle` and
/// `buffer`.) The traps Combine does keep are exit tests in ``MisuseTests``.
@Suite struct ZeroDemandTests {
    /// Subscribes `recorder` without demand to `operator(upstream)`, asks for `.none`, then for
    /// `.max(2)`, and returns what the upstream was asked for.
    private func requests<P: Publisher>(
        _ build: (ManualPublisher<Int, Never>) -> P
    ) -> (upstream: ManualPublisher<Int, Never>, recorder: Recorder<P.Output, P.Failure>) {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<P.Output, P.Failure>(demand: nil)
        build(upstream).subscribe(recorder)
        recorder.request(.none)
        return (upstream, recorder)
    }

    @Test func delayPassesNoneUpstream() {
        let scheduler = TestScheduler()
        let (upstream, recorder) = requests { $0.delay(for: .seconds(1), scheduler: scheduler) }
        recorder.request(.max(1))
        #expect(upstream.subscription.requests == [.none, .max(1)])
    }

    @Test func timeoutPassesNoneUpstream() {
        let scheduler = TestScheduler()
        let (upstream, _) = requests { $0.timeout(.seconds(1), scheduler: scheduler) }
        #expect(upstream.subscription.requests.last == Subscribers.Demand.none)
    }

    @Test func receiveOnPassesNoneUpstream() {
        let scheduler = TestScheduler()
        let (upstream, _) = requests { $0.receive(on: scheduler) }
        #expect(upstream.subscription.requests == [.none])
    }

    @Test func subscribeOnSchedulesNoneUpstream() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: nil)
        upstream.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        recorder.request(.none)
        #expect(upstream.subscription.requests.isEmpty)
        scheduler.advance()
        #expect(upstream.subscription.requests == [.none])
    }

    @Test func measureIntervalPassesNoneUpstream() {
        let scheduler = TestScheduler()
        let (upstream, _) = requests { $0.measureInterval(using: scheduler) }
        #expect(upstream.subscription.requests == [.none])
    }

    @Test func untilOutputOperatorsPassNoneUpstream() {
        let trigger = PassthroughSubject<Void, Never>()
        let (prefixUpstream, _) = requests { $0.prefix(untilOutputFrom: trigger) }
        #expect(prefixUpstream.subscription.requests == [.none])
        let (dropUpstream, _) = requests { $0.drop(untilOutputFrom: trigger) }
        #expect(dropUpstream.subscription.requests == [.none])
    }

    @Test func throttleIgnoresNone() {
        let scheduler = TestScheduler()
        let (upstream, recorder) = requests { $0.throttle(for: .seconds(1), scheduler: scheduler, latest: true) }
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .value(2)])
        #expect(upstream.subscription.requests == [.unlimited])
    }

    /// No test recorded against Combine shows `debounce` or `collect(.byTime…)` trapping on `.none`
    /// (OpenCombine's `debounce`, which follows Combine's, takes it): it counts as no demand.
    @Test func debounceIgnoresNone() {
        let scheduler = TestScheduler()
        let (upstream, recorder) = requests { $0.debounce(for: .seconds(1), scheduler: scheduler) }
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .value(2)])
        #expect(upstream.subscription.requests == [.unlimited])
    }

    @Test func collectByTimeIgnoresNone() {
        let scheduler = TestScheduler()
        let (upstream, recorder) = requests { $0.collect(.byTime(scheduler, .seconds(1))) }
        #expect(upstream.subscription.requests.isEmpty)
        recorder.request(.max(1))
        #expect(upstream.subscription.requests == [.max(1)])
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .value([1])])
    }

    @Test func collectByTimeOrCountIgnoresNone() {
        let scheduler = TestScheduler()
        let (upstream, recorder) = requests { $0.collect(.byTimeOrCount(scheduler, .seconds(1), 2)) }
        #expect(upstream.subscription.requests.isEmpty)
        recorder.request(.max(1))
        #expect(upstream.subscription.requests == [.max(2)])
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [[1, 2]])
    }

    @Test func bufferIgnoresNone() {
        let (upstream, recorder) = requests { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest) }
        upstream.send(1)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.subscription.requests == [.unlimited])
    }

    /// Combine's concatenation passes `.none` on to the publisher it is subscribed to
    /// (OpenCombine's `ConcatenateTests.testBackpressure`, recorded against Combine:
    /// `.requested(.none)` reaches the prefix's subscription). Found by the conformance oracle's
    /// `--extended` edge demands.
    @Test func concatenationPassesNoneToThePrefix() {
        let (upstream, recorder) = requests { $0.append(9) }
        #expect(upstream.subscription.requests == [.none])
        recorder.request(.max(1))
        upstream.send(1)
        #expect(recorder.events == [.subscription, .value(1)])
        let prepended = Recorder<Int, Never>(demand: nil)
        Just(2).prepend(1).subscribe(prepended)
        prepended.request(.none)
        prepended.request(.max(2))
        #expect(prepended.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func sequenceAndRecordIgnoreNone() {
        let sequence = Recorder<Int, Never>(demand: nil)
        [1, 2].publisher.subscribe(sequence)
        sequence.request(.none)
        #expect(sequence.events == [.subscription])
        sequence.request(.max(1))
        #expect(sequence.events == [.subscription, .value(1)])

        let record = Recorder<Int, Never>(demand: nil)
        Record<Int, Never>(output: [1], completion: .finished).subscribe(record)
        record.request(.none)
        #expect(record.events == [.subscription])
        record.request(.max(1))
        #expect(record.events == [.subscription, .value(1), .finished])
    }

    @Test func flatMapWithNoPublishersAllowedRequestsNoneAndIdles() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>()
        upstream.flatMap(maxPublishers: .none) { Just($0) }.subscribe(recorder)
        #expect(upstream.subscription.requests == [.none])
        #expect(recorder.events == [.subscription])
    }

    @Test func negativeRetryCountRetriesWithoutLimit() {
        var attempts = 0
        let failing = Deferred { () -> AnyPublisher<Int, TestError> in
            attempts += 1
            if attempts < 50 { return Fail(error: TestError()).eraseToAnyPublisher() }
            return Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        let recorder = Recorder<Int, TestError>()
        failing.retry(-1).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(50), .finished])
    }

    @Test func zeroSizedBufferAndNegativeDropFirstCanBeMade() {
        // Combine traps on neither when the publisher is made: `dropFirst(-1)` traps when it is
        // subscribed (an exit test in MisuseTests); a zero-sized buffer works and holds nothing.
        _ = Publishers.Drop(upstream: PassthroughSubject<Int, Never>(), count: -1)
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: nil)
        subject.buffer(size: 0, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        subject.send(1)
        recorder.request(.max(1))
        subject.send(2)
        subject.send(3)
        #expect(recorder.events == [.subscription, .value(2)])
    }
}
