import Foundation
import Ripple
import Testing

@Suite struct JustTests {
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
}
