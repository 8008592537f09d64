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
}
