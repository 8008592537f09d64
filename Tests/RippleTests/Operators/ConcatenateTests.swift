import Ripple
import Testing

@Suite struct ConcatenateTests {
    @Test func appendAndPrependValuesSequencesAndPublishers() {
        #expect(Recorder(for: [1].publisher.append(2, 3)).values == [1, 2, 3])
        #expect(Recorder(for: [1].publisher.append([2, 3])).values == [1, 2, 3])
        #expect(Recorder(for: [1].publisher.append(Just(2))).values == [1, 2])
        #expect(Recorder(for: [3].publisher.prepend(1, 2)).values == [1, 2, 3])
        #expect(Recorder(for: [3].publisher.prepend([1, 2])).values == [1, 2, 3])
        #expect(Recorder(for: Just(2).prepend(Just(1))).events == [.subscription, .value(1), .value(2), .finished])
    }

    // Rule 28: the suffix is subscribed only after the prefix finishes, with the unmet demand.
    @Test func subscribesTheSuffixAfterThePrefixFinishesCarryingDemand() {
        let prefix = ManualPublisher<Int, Never>()
        let suffix = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: prefix.append(suffix), demand: .max(3))
        #expect(prefix.subscription.requests == [.max(3)])
        #expect(suffix.subscription.requests.isEmpty)
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.subscription.requests == [.max(2)])
        suffix.send(2)
        suffix.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func demandRequestedWhileThePrefixRunsReachesIt() {
        let prefix = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: prefix.append(Empty()), demand: nil)
        recorder.request(.max(1))
        recorder.request(.max(2))
        #expect(prefix.subscription.requests == [.max(1), .max(2)])
    }

    @Test func prefixFailureEndsEverything() {
        let suffix = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 1)).append(suffix))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
        #expect(suffix.subscription.events.isEmpty)
    }

    @Test func cancelStopsTheCurrentPublisherAndNeverSubscribesTheNext() {
        let prefix = ManualPublisher<Int, Never>()
        let suffix = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: prefix.append(suffix))
        recorder.cancel()
        #expect(prefix.subscription.cancelled)
        prefix.send(completion: .finished)
        #expect(suffix.subscription.events.isEmpty)
        #expect(recorder.events == [.subscription])
    }

    // Combine releases the suffix when the concatenation is cancelled, even if the prefix keeps its
    // subscriber (a publisher that holds on to it after cancel, as `ManualPublisher` does).
    @Test func cancelReleasesTheSuffixWhileThePrefixKeepsItsSubscriber() {
        let prefix = ManualPublisher<Int, Never>()
        weak var weakSuffix: ManualPublisher<Int, Never>?
        let recorder = Recorder<Int, Never>()
        do {
            let suffix = ManualPublisher<Int, Never>()
            weakSuffix = suffix
            prefix.append(suffix).subscribe(recorder)
        }
        #expect(weakSuffix != nil)
        recorder.cancel()
        #expect(weakSuffix == nil)
        prefix.send(completion: .finished)
        #expect(recorder.events == [.subscription])
    }

    @Test func releasedAfterCompletion() {
        weak var weakSubscription: AnyObject?
        do {
            let recorder = Recorder(for: Just(1).append(2))
            weakSubscription = recorder.subscription as AnyObject
            #expect(recorder.values == [1, 2])
        }
        #expect(weakSubscription == nil)
    }

    // As Combine: the prefix is subscribed first and the downstream is handed the Concatenate
    // subscription from inside the prefix's receive(subscription:); the suffix is subscribed
    // inside the prefix's completion and asked for the demand still unmet.
    @Test func subscribesThePrefixBeforeHandingTheDownstreamItsSubscription() {
        let log = Locked<[String]>([])
        let prefix = LoggingPublisher<Int, Never>("prefix", log: log)
        let suffix = LoggingPublisher<Int, Never>("suffix", log: log)
        let recorder = Recorder<Int, Never>(demand: .max(3), onSubscription: { log.append("downstream got \($0)") })
        prefix.append(suffix).subscribe(recorder)
        #expect(log.current == ["prefix subscribed", "downstream got Concatenate", "prefix request max(3)"])
        prefix.send(1)
        prefix.send(completion: .finished)
        log.append("prefix completion returned")
        #expect(log.current.dropFirst(3) == ["suffix subscribed", "suffix request max(2)", "prefix completion returned"])
        #expect(recorder.subscriptionCount == 1)
    }

    @Test func prependHandsTheDownstreamItsSubscriptionFromThePrependedSequence() {
        let log = Locked<[String]>([])
        let upstream = LoggingPublisher<Int, Never>("upstream", log: log)
        let recorder = Recorder<Int, Never>(
            demand: .max(2), onValue: { log.append("value \($0)"); return .none },
            onSubscription: { log.append("downstream got \($0)") })
        upstream.prepend(0).subscribe(recorder)
        #expect(log.current == ["downstream got Concatenate", "value 0", "upstream subscribed", "upstream request max(1)"])
    }
}
