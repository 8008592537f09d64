import Ripple
import Testing

/// Rule 7: after cancel or completion, subject, subscription and subscriber are all released.
@Suite struct SubjectLifetimeTests {
    @Test func cancelReleasesSubjectSubscriptionAndSubscriber() {
        var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
        var recorder: Recorder<Int, Never>? = Recorder()
        subject!.subscribe(recorder!)
        let weakSubject = WeakRef(subject)
        let weakRecorder = WeakRef(recorder)
        let weakSubscription = WeakRef(recorder!.subscription as AnyObject)
        recorder!.cancel()
        subject = nil
        recorder = nil
        #expect(weakSubject.object == nil)
        #expect(weakRecorder.object == nil)
        #expect(weakSubscription.object == nil)
    }

    @Test func completionReleasesEverything() {
        var subject: CurrentValueSubject<Int, Never>? = CurrentValueSubject(0)
        var recorder: Recorder<Int, Never>? = Recorder()
        subject!.subscribe(recorder!)
        let weakSubject = WeakRef(subject)
        let weakRecorder = WeakRef(recorder)
        var subscription: AnyObject? = recorder!.subscription as AnyObject
        let weakSubscription = WeakRef(subscription)
        subject!.send(completion: .finished)
        subject = nil
        recorder = nil
        subscription = nil
        #expect(weakSubject.object == nil)
        #expect(weakSubscription.object == nil)
        #expect(weakRecorder.object == nil)
        _ = subscription
    }

    @Test func sinkTokenDroppedReleasesEverything() {
        final class Owner {}
        var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
        var owner: Owner? = Owner()
        let weakOwner = WeakRef(owner)
        let weakSubject = WeakRef(subject)
        var token: AnyCancellable? = subject!.sink { [owner] _ in _ = owner }
        owner = nil
        #expect(weakOwner.object != nil)  // the sink's closure keeps it
        token = nil
        #expect(weakOwner.object == nil)  // rule 16: closures released on cancel
        subject = nil
        #expect(weakSubject.object == nil)
        _ = token
    }

    @Test func aSubjectWithLiveSubscribersStaysUsableWhileTheyLive() {
        let recorder = Recorder<Int, Never>()
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.subscribe(recorder)
            subject.send(1)
        }
        #expect(recorder.values == [1])
    }

    @Test func manySubscribeCancelCyclesLeaveNoSlots() {
        let subject = PassthroughSubject<Int, Never>()
        let keeper = Recorder(for: subject)
        for _ in 0..<10_000 {
            let token = subject.sink { _ in }
            token.cancel()
        }
        var tokens: [AnyCancellable] = (0..<100).map { _ in subject.sink { _ in } }
        tokens.removeAll()
        subject.send(1)
        #expect(keeper.values == [1])
    }
}
