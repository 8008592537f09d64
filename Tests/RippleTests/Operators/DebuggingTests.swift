import Foundation
import Ripple
import Testing

@Suite(.exitTestWatchdog) struct BreakpointTests {
    @Test func passesEverythingThroughWhenTheClosuresSayNo() {
        let recorder = Recorder(for: [1, 2].publisher.breakpoint(
            receiveSubscription: { _ in false }, receiveOutput: { _ in false }, receiveCompletion: { _ in false }))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(Recorder(for: [1].publisher.breakpointOnError()).values == [1])
    }

    @Test func raisesATrapSignalWhenAClosureSaysYes() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = Just(1).breakpoint(receiveOutput: { $0 == 1 }).sink { _ in }
        }
    }

    @Test func breakpointOnErrorRaisesOnFailure() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = Fail<Int, TestError>(error: TestError()).breakpointOnError().sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
    }
}

@Suite(.exitTestWatchdog) struct AssertNoFailureTests {
    @Test func republishesValuesAndFinish() {
        let recorder = Recorder(for: [1, 2].publisher.setFailureType(to: TestError.self).assertNoFailure())
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func failureIsFatalWithPrefixAndError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Fail<Int, TestError>(error: TestError(id: 42)).assertNoFailure("loading").sink { _ in }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("loading"))
        #expect(message.contains("TestError(42)"))
    }
}
