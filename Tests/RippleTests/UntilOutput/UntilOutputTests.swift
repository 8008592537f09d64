import Foundation
import Ripple
import Testing

@Suite struct DropUntilOutputTests {
    @Test func dropsUntilTheOtherEmits() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<String, Never>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: trigger))
        #expect(trigger.subscription.requests == [.max(1)])
        upstream.send(1)
        trigger.send("go")
        #expect(trigger.subscription.cancelled)
        upstream.send(2)
        #expect(recorder.values == [2])
    }

    // Combine's order: the downstream gets its subscription first, then the trigger and the upstream
    // are subscribed; what the downstream asked for meanwhile reaches the upstream on arrival.
    @Test func downstreamGetsItsSubscriptionBeforeAnythingIsSubscribed() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        let trigger = LoggedPublisher<Int, Never>("other", log: log)
        upstream.drop(untilOutputFrom: trigger).subscribe(LoggedSubscriber<Int, Never>(log: log, demand: .max(2)))
        #expect(log.entries == [
            "S subscription DropUntilOutput",
            "other subscribed", "other request max(1)",
            "up subscribed", "up request max(2)",
        ])
    }

    // Combine's demand: requests go upstream unchanged; a dropped element uses up its demand.
    @Test func droppedElementsUseUpTheirDemand() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        let trigger = LoggedPublisher<Int, Never>("other", log: log)
        let subscriber = LoggedSubscriber<Int, Never>(log: log, demand: .max(2), onValue: { .max($0) })
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        subscriber.subscription?.request(.max(3))
        trigger.send(0)
        #expect(upstream.send(4) == .max(4))
        #expect(log.entries.suffix(3) == ["up request max(3)", "other cancel", "S value 4"])
    }

    @Test func otherFailureFails() {
        let upstream = ManualPublisher<Int, TestError>()
        let trigger = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: trigger))
        trigger.send(completion: .failure(TestError(id: 5)))
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(5)")])
    }

    // Combine: a trigger that finishes without an element finishes the stream and cancels the
    // upstream.
    @Test func otherFinishingWithoutOutputFinishes() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: trigger))
        upstream.send(1)
        trigger.send(completion: .finished)
        #expect(upstream.subscription.cancelled)
        upstream.send(2)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func otherFinishingAfterItsElementChangesNothing() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: trigger))
        trigger.send(0)
        trigger.send(completion: .finished)
        upstream.send(1)
        #expect(!upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func cancelCancelsBoth() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.drop(untilOutputFrom: trigger))
        recorder.cancel()
        #expect(upstream.subscription.cancelled && trigger.subscription.cancelled)
    }

    // Cancellation is final: cancelled inside receive(subscription:), the subscriptions that
    // arrive afterwards are cancelled and nothing is requested.
    @Test func cancelInsideReceiveSubscriptionCancelsWhatArrivesLater() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        let trigger = LoggedPublisher<Int, Never>("other", log: log)
        let recorder = Recorder<Int, Never>(demand: .max(1), onSubscription: { $0.cancel() })
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        #expect(log.entries == ["other subscribed", "other cancel", "up subscribed", "up cancel"])
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

    @Test func aTriggerElementAfterTheTriggersCompletionIsIgnored() {
        // Events after a completion are ignored: a broken trigger that finishes without an
        // element and then sends one does not end the stream.
        for completion in [Subscribers.Completion<TestError>.finished, .failure(TestError())] {
            let upstream = ManualPublisher<Int, Never>()
            let trigger = ManualPublisher<Int, TestError>()
            let recorder = Recorder(for: upstream.prefix(untilOutputFrom: trigger))
            trigger.send(completion: completion)
            trigger.send(0)
            #expect(!upstream.subscription.cancelled)
            upstream.send(1)
            upstream.send(completion: .finished)
            #expect(recorder.events == [.subscription, .value(1), .finished])
        }
    }

    // Combine's order: the trigger is subscribed first, then the upstream; the downstream gets its
    // subscription (described "PrefixUntilOutput") when the upstream's arrives, and its requests go
    // upstream unchanged.
    @Test func subscribesTheTriggerThenTheUpstream() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        let trigger = LoggedPublisher<Int, Never>("other", log: log)
        let subscriber = LoggedSubscriber<Int, Never>(log: log, demand: .max(2))
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.subscription?.request(.max(3))
        #expect(log.entries == [
            "other subscribed", "other request max(1)",
            "up subscribed", "S subscription PrefixUntilOutput", "up request max(2)",
            "up request max(3)",
        ])
    }

    // The trigger's element cancels the trigger and the upstream (the upstream before the
    // downstream finishes, as in Combine), then finishes.
    @Test func triggerCancelsBothThenFinishes() {
        let log = OrderLog()
        let upstream = LoggedPublisher<Int, Never>("up", log: log)
        let trigger = LoggedPublisher<Int, Never>("other", log: log)
        upstream.prefix(untilOutputFrom: trigger).subscribe(LoggedSubscriber<Int, Never>(log: log, demand: .unlimited))
        upstream.send(1)
        trigger.send(0)
        #expect(log.entries.suffix(4) == ["S value 1", "other cancel", "up cancel", "S completion finished"])
    }

    // A trigger that fires before the upstream's subscription arrives: the downstream still gets
    // its subscription first, then `.finished`; the upstream is cancelled.
    @Test func triggerFiringBeforeTheUpstreamSubscription() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.prefix(untilOutputFrom: Just(0)))
        #expect(upstream.subscription.cancelled)
        #expect(upstream.subscription.requests.isEmpty)
        #expect(recorder.events == [.subscription, .finished])
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

    // The delivery contract: the trigger fired on another thread while an element is being
    // delivered waits its turn; the completion follows the delivery, on the trigger's thread.
    @Test func triggerOnAnotherThreadWaitsForTheDeliveryInProgress() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let log = Locked<[String]>([])
        let recorder = Recorder<Int, Never>(
            onValue: { value in
                log.withLock { $0.append("value \(value) begins") }
                entered.signal()
                release.wait()
                log.withLock { $0.append("value \(value) ends") }
                return .none
            },
            onCompletion: { _ in
                let role = Thread.current.threadDictionary["role"] as? String
                log.withLock { $0.append("finished on the \(role ?? "other") thread") }
            })
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
        let done = DispatchGroup()
        done.enter()
        let sender = Thread {
            upstream.send(1)
            done.leave()
        }
        sender.start()
        entered.wait()
        done.enter()
        let firer = Thread {
            Thread.current.threadDictionary["role"] = "trigger"
            trigger.send()
            done.leave()
        }
        firer.start()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(log.current == ["value 1 begins"])
        release.signal()
        done.wait()
        #expect(log.current == ["value 1 begins", "value 1 ends", "finished on the trigger thread"])
    }
}
