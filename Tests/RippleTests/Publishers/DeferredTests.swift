import Ripple
import Testing

@Suite struct DeferredTests {
    // Rule 21
    @Test func callsTheFactoryOnEachSubscribeAndNeverEarlier() {
        let calls = Locked(0)
        let deferred = Deferred { () -> Just<Int> in
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            return Just(call)
        }
        #expect(calls.current == 0)
        #expect(Recorder(for: deferred).values == [1])
        #expect(Recorder(for: deferred).values == [2])
        #expect(calls.current == 2)
    }
}

@Suite struct AnyPublisherTests {
    // Rule 21
    @Test func passesTheOriginalSubscriberThrough() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>()
        publisher.eraseToAnyPublisher().subscribe(recorder)
        // The subscriber sees the publisher's own subscription object, not a wrapper.
        #expect(recorder.subscription?.combineIdentifier == publisher.subscription.combineIdentifier)
        publisher.send(3)
        #expect(recorder.values == [3])
    }

    @Test func erasingTwiceDoesNotNest() {
        let erased = Just(1).eraseToAnyPublisher()
        let again = AnyPublisher(erased)
        #expect(Recorder(for: again.eraseToAnyPublisher()).values == [1])
        #expect(erased.description == "AnyPublisher")
    }
}

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
