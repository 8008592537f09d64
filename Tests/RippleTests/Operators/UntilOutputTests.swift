import Ripple
import Testing

@Suite struct DropUntilOutputTests {
    @Test func dropsUntilTheOtherEmits() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<String, Never>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: trigger))
        #expect(trigger.subscription.requests == [.max(1)])
        // Rule 24: a dropped element gives its demand back.
        #expect(upstream.send(1) == .max(1))
        trigger.send("go")
        #expect(trigger.subscription.cancelled)
        upstream.send(2)
        #expect(recorder.values == [2])
    }

    @Test func otherFailureFails() {
        let upstream = ManualPublisher<Int, TestError>()
        let trigger = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: trigger))
        trigger.send(completion: .failure(TestError(id: 5)))
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(5)")])
    }

    @Test func otherFinishingWithoutOutputDropsEverything() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: Empty<Int, Never>()))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func cancelCancelsBoth() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: trigger))
        recorder.cancel()
        #expect(upstream.subscription.cancelled && trigger.subscription.cancelled)
    }
}

@Suite struct PrefixUntilOutputTests {
    @Test func republishesUntilTheOtherEmitsThenFinishes() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.prefix(untilOutputFrom: trigger), demand: .max(4))
        #expect(upstream.subscription.requests == [.max(4)])
        upstream.send(1)
        trigger.send(0)
        #expect(upstream.subscription.cancelled)
        upstream.send(2)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func otherCompletionChangesNothing() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.prefix(untilOutputFrom: trigger))
        trigger.send(completion: .failure(TestError()))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    // Re-entrancy: the downstream fires the trigger from inside receive; the finish comes after.
    @Test func triggerFiredFromInsideDelivery() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let recorder = Recorder<Int, Never>(onValue: { value in
            if value == 1 { trigger.send() }
            return .none
        })
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }
}
