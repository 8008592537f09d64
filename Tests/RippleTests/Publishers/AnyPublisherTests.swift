import Ripple
import Testing

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
