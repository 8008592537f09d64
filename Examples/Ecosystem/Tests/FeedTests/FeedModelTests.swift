import Combine
import CombineSchedulers
import Feed
import Foundation
import Testing

@Suite struct FeedModelTests {
    @Test func aSearchWaitsForTheTypingToPause() {
        let scheduler = DispatchQueue.test
        let model = FeedModel(catalog: ["swift", "ripple", "combine"], scheduler: scheduler.eraseToAnyScheduler())
        model.query = "r"
        model.query = "ri"
        scheduler.advance(by: .milliseconds(299))
        #expect(model.results == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(model.results == ["ripple"])
    }

    @Test func theTimerTicksOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let model = FeedModel(catalog: [], scheduler: scheduler.eraseToAnyScheduler())
        scheduler.advance(by: .milliseconds(999))
        #expect(model.ticks == 0)
        scheduler.advance(by: .seconds(2))
        #expect(model.ticks == 2)  // At 1 s and 2 s.
    }

    @Test func anImmediateSchedulerRunsTheSearchAtOnce() {
        let model = FeedModel(catalog: ["swift", "ripple"], scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
        model.query = "sw"
        #expect(model.results == ["swift"])
    }

    @Test func combineTimerPublishStillComesFromCombine() {
        // `Timer.publish` is Combine's Foundation side: the module that answers for `Combine` here.
        let timer: Timer.TimerPublisher = Timer.publish(every: 60, on: .main, in: .default)
        #expect(timer.interval == 60)
    }
}
