import Foundation
import Ripple
import Testing

@Suite(.exitTestWatchdog) struct CurrentValueSubjectTests {
    // Rules 5 and 13
    @Test func firstRequestDeliversTheCurrentValueSynchronously() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = Recorder(for: subject, demand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func everySendEmitsEqualOrNot() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = Recorder(for: subject)
        subject.send(1)
        subject.value = 1
        subject.value = 2
        #expect(recorder.values == [1, 1, 1, 2])
        #expect(subject.value == 2)
    }

    @Test func lateSubscribersGetTheLatestValue() {
        let subject = CurrentValueSubject<String, Never>("a")
        subject.send("b")
        subject.value = "c"
        let recorder = Recorder(for: subject)
        #expect(recorder.values == ["c"])
    }

    @Test func withZeroDemandKeepsOnlyTheLatestValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = Recorder(for: subject, demand: .max(1))
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(recorder.values == [0])
        recorder.request(.max(1))
        #expect(recorder.values == [0, 3])
        recorder.request(.max(1))
        subject.send(4)
        #expect(recorder.values == [0, 3, 4])
    }

    @Test func afterCompletionSendLeavesValueButAssignmentStores() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = Recorder(for: subject)
        subject.send(completion: .finished)
        subject.send(2)
        #expect(subject.value == 1)
        subject.value = 3
        #expect(subject.value == 3)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func lateSubscriberAfterCompletionGetsOnlyTheCompletion() {
        let subject = CurrentValueSubject<Int, TestError>(1)
        subject.send(completion: .failure(TestError(id: 2)))
        let recorder = Recorder(for: subject)
        #expect(recorder.events == [.subscription, .failure("TestError(2)")])
    }

    // Rule 12
    @Test func requestsUnlimitedFromUpstreamAtOnceAndCancelsOnDeinit() {
        let upstream = RecordingSubscription()
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            subject.send(subscription: upstream)
            #expect(upstream.requests == [.unlimited])
        }
        #expect(upstream.events == [.request(.unlimited), .cancel])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = CurrentValueSubject<Int, Never>(0)
            let recorder = Recorder(for: subject, demand: nil)
            recorder.request(.none)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("CurrentValueSubject: demand must be greater than zero"))
    }

    @Test func valueSentWhileReplayingIsNotDuplicated() {
        // The subscriber's first request replays the current value; sending the same value version
        // concurrently must not deliver it twice. Single-threaded stand-in: request from inside send.
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = Recorder<Int, Never>(demand: .max(1)) { _ in .max(1) }
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.values == [0, 1, 2])
    }
}
