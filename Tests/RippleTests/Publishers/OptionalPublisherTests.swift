import Foundation
import Ripple
import Testing

@Suite struct OptionalPublisherTests {
    @Test func someEmitsValueThenFinished() {
        let recorder = Recorder(for: Optional(3).publisher, demand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(3), .finished])
    }

    @Test func noneFinishesImmediately() {
        #expect(Recorder(for: Int?.none.publisher, demand: nil).events == [.subscription, .finished])
    }
}
