import Foundation
import Ripple
import Testing

@Suite struct EmptyTests {
    @Test func completesImmediatelyWithoutDemand() {
        let recorder = Recorder(for: Empty<Int, Never>(), demand: nil)
        #expect(recorder.events == [.subscription, .finished])
        #expect(recorder.subscription?.combineIdentifier == Subscriptions.empty.combineIdentifier)
    }

    @Test func neverCompletesWhenAskedNotTo() {
        let recorder = Recorder(for: Empty<Int, Never>(completeImmediately: false))
        #expect(recorder.events == [.subscription])
    }

    @Test func typedInitializerAndEquality() {
        let empty = Empty(completeImmediately: false, outputType: Int.self, failureType: TestError.self)
        #expect(empty == Empty<Int, TestError>(completeImmediately: false))
        #expect(empty != Empty<Int, TestError>())
    }
}
