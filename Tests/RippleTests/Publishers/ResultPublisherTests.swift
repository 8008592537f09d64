import Foundation
import Ripple
import Testing

@Suite struct ResultPublisherTests {
    @Test func successEmitsOnDemand() {
        let recorder = Recorder(for: Result<Int, TestError>.success(1).publisher, demand: nil)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func failureIsImmediate() {
        let recorder = Recorder(for: Result<Int, TestError>.Publisher(TestError(id: 2)), demand: nil)
        #expect(recorder.events == [.subscription, .failure("TestError(2)")])
    }
}
