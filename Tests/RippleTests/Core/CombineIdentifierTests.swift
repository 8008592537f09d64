import Ripple
import Testing

@Suite struct CombineIdentifierTests {
    final class Object {}

    // Rule 22
    @Test func generatedIdentifiersAreUnique() {
        let ids = (0..<10_000).map { _ in CombineIdentifier() }
        #expect(Set(ids).count == ids.count)
    }

    @Test func objectIdentifiersAreStablePerObject() {
        let a = Object()
        let b = Object()
        #expect(CombineIdentifier(a) == CombineIdentifier(a))
        #expect(CombineIdentifier(a) != CombineIdentifier(b))
        #expect(CombineIdentifier(a) != CombineIdentifier())
    }

    @Test func classesGetTheirIdentityForFree() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.combineIdentifier == CombineIdentifier(sink))
    }

    @Test func emptySubscriptionIsOneSharedValue() {
        #expect(Subscriptions.empty.combineIdentifier == Subscriptions.empty.combineIdentifier)
        let first = Subscriptions.empty as AnyObject
        let second = Subscriptions.empty as AnyObject
        let same = first === second
        #expect(same)
        // Requests and cancels on it are harmless.
        Subscriptions.empty.request(.max(1))
        Subscriptions.empty.cancel()
    }
}
