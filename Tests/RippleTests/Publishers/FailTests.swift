import Foundation
import Ripple
import Testing

@Suite struct FailTests {
    @Test func failsImmediatelyWithoutDemand() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 4)), demand: nil)
        #expect(recorder.events == [.subscription, .failure("TestError(4)")])
    }

    @Test func typedInitializerAndEquality() {
        let fail = Fail(outputType: String.self, failure: TestError(id: 1))
        #expect(fail == Fail<String, TestError>(error: TestError(id: 1)))
        #expect(fail.error == TestError(id: 1))
    }
}
