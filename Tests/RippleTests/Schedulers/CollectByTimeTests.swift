import Ripple
import RippleTesting
import Testing

@Suite struct CollectByTimeTests {
    @Test func byTimePublishesWhatGatheredEachStride() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        subject.collect(.byTime(scheduler, .milliseconds(100))).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .milliseconds(150))
        subject.send(3)
        scheduler.advance(by: .milliseconds(200))  // the empty window at 300ms publishes nothing
        #expect(recorder.timedValues.map(\.0) == [100, 200])
        #expect(recorder.timedValues.map(\.1) == [[1, 2], [3]])
    }

    @Test func byTimeOrCountPublishesAFullGroupAtOnceAndRestartsTheClock() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        subject.collect(.byTimeOrCount(scheduler, .milliseconds(100), 2)).subscribe(recorder)
        scheduler.advance(by: .milliseconds(50))
        subject.send(1)
        subject.send(2)
        scheduler.advance()
        subject.send(3)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.timedValues.map(\.0) == [50, 150])
        #expect(recorder.timedValues.map(\.1) == [[1, 2], [3]])
    }

    @Test func finishPublishesTheLastGroupFirst() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value([1]), .finished])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func cancelStopsTheClock() {
        let scheduler = TestScheduler()
        let recorder = TimedRecorder<[Int], Never>(scheduler)
        PassthroughSubject<Int, Never>().collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        recorder.cancel()
        #expect(scheduler.pendingActionCount == 0)
    }
}
