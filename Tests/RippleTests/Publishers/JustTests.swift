import Foundation
import Ripple
import Testing

@Suite(.exitTestWatchdog) struct JustTests {
    // Rule 19
    @Test func emitsValueThenFinishedOnceDemandArrives() {
        let recorder = Recorder(for: Just(7), demand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7), .finished])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func eachSubscriberGetsItsOwnValue() {
        let just = Just("x")
        #expect(Recorder(for: just).events == [.subscription, .value("x"), .finished])
        #expect(Recorder(for: just).events == [.subscription, .value("x"), .finished])
    }

    @Test func cancellingInsideReceiveSubscriptionSuppressesIt() {
        let recorder = Recorder<Int, Never>(onSubscription: { $0.cancel() })
        Just(1).subscribe(recorder)
        #expect(recorder.events == [.subscription])
    }

    // Rule 1
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Recorder(for: Just(1), demand: nil).request(.none)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Just: demand must be greater than zero"))
    }

    @Test func equatable() {
        #expect(Just(1) == Just(1))
        #expect(Just(1) != Just(2))
        #expect(Just(3).output == 3)
    }

    // As recorded against Combine (OpenCombine's JustTests.testTryRemoveDuplicatesOperatorSpecialization
    // and testRemoveDuplicatesOperatorSpecialization): the throwing form calls its predicate once
    // and fails with what it throws; the plain form does not call its predicate.
    @Test func tryRemoveDuplicatesCallsItsPredicateOnce() {
        let calls = Locked(0)
        let passing = Just(44).tryRemoveDuplicates { (_: Int, _: Int) in
            calls.withLock { $0 += 1 }
            return true
        }
        #expect((try? passing.result.get()) == 44)
        let failing = Just(44).tryRemoveDuplicates { (_: Int, _: Int) -> Bool in
            calls.withLock { $0 += 1 }
            throw TestError(id: 7)
        }
        #expect(throws: TestError(id: 7)) { try failing.result.get() }
        #expect(calls.current == 2)
        _ = Just(44).removeDuplicates { (_: Int, _: Int) in
            calls.withLock { $0 += 1 }
            return true
        }
        #expect(calls.current == 2)
    }
}
