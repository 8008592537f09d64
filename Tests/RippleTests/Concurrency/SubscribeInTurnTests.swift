import Foundation
import Ripple
import Testing

/// A subscriber's `receive(subscription:)` runs inside its delivery turn: a value or a completion
/// another thread sends meanwhile waits until it returns (or, with no demand yet, is dropped, as
/// Combine's `PassthroughSubject` drops it), and calls made from inside it on the same thread are
/// nested, never a deadlock.
extension Heavy {
    @Suite struct SubscribeInTurnTests {
        /// Records what it receives, and whether `receive(subscription:)` was still running. Its
        /// `receive(subscription:)` runs `setup` with the subscription.
        final class SettingUp: Subscriber, @unchecked Sendable {
            typealias Input = Int
            typealias Failure = Never
            let events = Locked<[String]>([])
            let settingUp = Locked(false)
            let setup: (any Subscription) -> Void
            let subscription = Locked<(any Subscription)?>(nil)

            init(setup: @escaping (any Subscription) -> Void) {
                self.setup = setup
            }

            func receive(subscription: any Subscription) {
                self.subscription.withLock { $0 = subscription }
                settingUp.withLock { $0 = true }
                setup(subscription)
                settingUp.withLock { $0 = false }
                events.withLock { $0.append("setup done") }
            }

            func receive(_ input: Int) -> Subscribers.Demand {
                let during = settingUp.current ? " during setup" : ""
                events.withLock { $0.append("\(input)\(during)") }
                return .none
            }

            func receive(completion: Subscribers.Completion<Never>) {
                let during = settingUp.current ? " during setup" : ""
                events.withLock { $0.append("finished\(during)") }
            }
        }

        /// The subscriber asks for everything, then, still in `receive(subscription:)`, lets another
        /// thread send a value and the completion and waits (up to half a second) for that send to
        /// return. Both wait for the setup to end: they arrive after it, in order.
        @Test func aValueSentByAnotherThreadDuringReceiveSubscriptionArrivesAfterIt() {
            let subject = PassthroughSubject<Int, Never>()
            let pleaseSend = DispatchSemaphore(value: 0)
            let sent = DispatchSemaphore(value: 0)
            let senderReturned = DispatchSemaphore(value: 0)
            let subscriber = SettingUp { subscription in
                subscription.request(.unlimited)
                pleaseSend.signal()
                // Today's contract: the sender waits for this turn, so this times out.
                _ = sent.wait(timeout: .now() + 0.5)
            }
            Thread.detachNewThread {
                pleaseSend.wait()
                subject.send(1)
                sent.signal()
                subject.send(completion: .finished)
                senderReturned.signal()
            }
            subject.subscribe(subscriber)
            #expect(senderReturned.wait(timeout: .now() + 30) == .success)
            #expect(subscriber.events.current == ["setup done", "1", "finished"])
        }

        /// As above for a CurrentValueSubject: the current value is delivered at once, nested in the
        /// first request (as in Combine); the other thread's value waits for the setup.
        @Test func aCurrentValueSubjectDeliversItsValueInTheFirstRequestAndAnotherThreadsValueAfterTheSetup() {
            let subject = CurrentValueSubject<Int, Never>(0)
            let pleaseSend = DispatchSemaphore(value: 0)
            let sent = DispatchSemaphore(value: 0)
            let senderReturned = DispatchSemaphore(value: 0)
            let subscriber = SettingUp { subscription in
                subscription.request(.unlimited)
                pleaseSend.signal()
                _ = sent.wait(timeout: .now() + 0.5)
            }
            Thread.detachNewThread {
                pleaseSend.wait()
                subject.send(1)
                sent.signal()
                senderReturned.signal()
            }
            subject.subscribe(subscriber)
            #expect(senderReturned.wait(timeout: .now() + 30) == .success)
            #expect(subscriber.events.current == ["0 during setup", "setup done", "1"])
            #expect(subject.value == 1)
            subscriber.subscription.current?.cancel()
        }

        /// With no demand yet, a value another thread sends during the setup is dropped, as Combine's
        /// PassthroughSubject drops values sent before demand (the send does not wait); a
        /// CurrentValueSubject's subscriber gets it as the current value on its first request.
        @Test func aValueSentBeforeAnyDemandIsDroppedWithoutWaiting() {
            let passthrough = PassthroughSubject<Int, Never>()
            let current = CurrentValueSubject<Int, Never>(0)
            for replays in [false, true] {
                let sentAndReturned = DispatchSemaphore(value: 0)
                let subscriber = SettingUp { subscription in
                    Thread.detachNewThread {
                        if replays { current.send(7) } else { passthrough.send(7) }
                        sentAndReturned.signal()
                    }
                    // The send does not wait for this turn: it returns while the setup runs.
                    #expect(sentAndReturned.wait(timeout: .now() + 30) == .success)
                    subscription.request(.unlimited)
                }
                if replays { current.subscribe(subscriber) } else { passthrough.subscribe(subscriber) }
                #expect(subscriber.events.current == (replays ? ["7 during setup", "setup done"] : ["setup done"]))
                subscriber.subscription.current?.cancel()
            }
        }

        /// Calls made from inside `receive(subscription:)` on its own thread are nested: a send is
        /// delivered at once, a completion too, and a cancel releases the subscriber once the setup
        /// returns; nothing deadlocks.
        @Test func callsFromInsideReceiveSubscriptionAreNested() {
            let nestedEvents = Locked<[String]>([])
            #expect(completesWithin(seconds: 30) {
                let subject = PassthroughSubject<Int, Never>()
                let subscriber = SettingUp { subscription in
                    subscription.request(.max(1))
                    subject.send(1)
                    subject.send(2)  // no demand left: dropped
                    subscription.request(.max(1))
                    subject.send(3)
                    subject.send(completion: .finished)
                }
                subject.subscribe(subscriber)
                nestedEvents.withLock { $0 = subscriber.events.current }
            })
            #expect(nestedEvents.current == ["1 during setup", "3 during setup", "finished during setup", "setup done"])

            let cancelledEvents = Locked<[String]>([])
            let releasedAfter = Locked(false)
            #expect(completesWithin(seconds: 30) {
                let subject = PassthroughSubject<Int, Never>()
                weak var released: SettingUp?
                do {
                    let subscriber = SettingUp { subscription in
                        subscription.request(.unlimited)
                        subscription.cancel()
                        subject.send(1)  // cancelled: not delivered
                    }
                    released = subscriber
                    subject.subscribe(subscriber)
                    subject.send(2)
                    cancelledEvents.withLock { $0 = subscriber.events.current }
                    subscriber.subscription.withLock { $0 = nil }
                }
                releasedAfter.withLock { $0 = released == nil }
            })
            #expect(cancelledEvents.current == ["setup done"])
            #expect(releasedAfter.current)
        }
    }
}
