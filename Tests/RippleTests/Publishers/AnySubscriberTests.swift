import Ripple
import Testing

@Suite struct AnySubscriberTests {
    // Rule 21
    @Test func wrappingKeepsTheCombineIdentifier() {
        let recorder = Recorder<Int, Never>()
        let erased = AnySubscriber(recorder)
        #expect(erased.combineIdentifier == recorder.combineIdentifier)
        #expect(AnySubscriber(erased).combineIdentifier == recorder.combineIdentifier)
        Just(1).subscribe(erased)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func closureInitializerForwardsAndHasAFreshIdentity() {
        let log = Locked<[String]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                log.withLock { $0.append("subscription") }
                subscription.request(.max(2))
            },
            receiveValue: { value in
                log.withLock { $0.append("value \(value)") }
                return .none
            },
            receiveCompletion: { _ in log.withLock { $0.append("completion") } })
        let other = AnySubscriber<Int, Never>()
        #expect(subscriber.combineIdentifier != other.combineIdentifier)
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(log.current == ["subscription", "value 1", "value 2"])
    }

    @Test func missingValueClosureAsksForNothingMore() {
        let subscriber = AnySubscriber<Int, Never>()
        #expect(subscriber.receive(1) == .none)
    }

    @Test func subjectInitializerForwardsIntoTheSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject)
        let subscriber = AnySubscriber(subject)
        #expect(subscriber.combineIdentifier == CombineIdentifier(subject))
        [1, 2].publisher.subscribe(subscriber)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    // Combine (CombineX AnySubscriberSpec "Wrap a subject", recorded against it): the wrapper
    // requests nothing itself; the subject it hands its own subscription to decides, and a
    // PassthroughSubject asks only once it has a subscriber with demand.
    @Test func subjectInitializerLetsTheSubjectDecideTheDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = AnySubscriber(subject)
        let upstream = RecordingSubscription()
        subscriber.receive(subscription: upstream)
        #expect(upstream.events.isEmpty)
        let recorder = Recorder(for: subject)
        #expect(upstream.events == [.request(.unlimited)])
        #expect(subscriber.receive(1) == .none)
        #expect(recorder.values == [1])
    }

    @Test func subjectInitializerCancelsASecondSubscription() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = AnySubscriber(subject)
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: second)
        #expect(first.events == [.request(.unlimited)])
        #expect(second.events == [.cancel])
        #expect(subscriber.description == "Subject")
    }

    // Differs from Combine (documented): nothing reaches the subject after the completion.
    @Test func subjectInitializerLetsTheSubjectGoAtTheCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject)
        let subscriber = AnySubscriber(subject)
        subscriber.receive(subscription: RecordingSubscription())
        subscriber.receive(completion: .finished)
        let late = RecordingSubscription()
        subscriber.receive(subscription: late)
        #expect(subscriber.receive(2) == .none)
        #expect(late.events == [.cancel])
        #expect(recorder.events == [.subscription, .finished])
    }
}
