import Foundation
import Ripple
import Testing

/// A subject delivers without retaining the subscriber's conduit or closure (see `SubjectConduit`):
/// the registry, or the send's snapshot of it, keeps them alive, and a conduit that leaves the
/// registry while a thread is inside its subscriber pins itself until that thread is done. These
/// tests drop every other reference in the middle of a delivery — the cases where a missing pin
/// would be a use after free — and check that the delivery completes, that nothing more arrives, and
/// that everything is released afterwards.
@Suite struct SubjectDeliveryLifetimeTests {
    final class Tracked: @unchecked Sendable {
        var touched = 0
    }

    /// A subscriber that, on its first value, cancels and forgets its own subscription.
    final class SelfDropping: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never
        var subscription: (any Subscription)?
        var values: [Int] = []
        var completions = 0
        let onValue: (SelfDropping) -> Void

        init(onValue: @escaping (SelfDropping) -> Void) { self.onValue = onValue }

        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.unlimited)
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            values.append(input)
            onValue(self)
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) { completions += 1 }
    }

    @Test func theOnlySinkDropsItsOwnTokenWhileReceiving() {
        let subject = PassthroughSubject<Int, Never>()
        var tracked: Tracked? = Tracked()
        let weakTracked = WeakRef(tracked)
        let holder = Locked<AnyCancellable?>(nil)
        holder.withLock {
            $0 = subject.sink { [tracked] value in
                // The last reference to the token goes: its deinit cancels the conduit mid-delivery.
                holder.withLock { $0 = nil }
                // The closure and what it captured are still alive for the rest of this call.
                tracked!.touched += value
            }
        }
        tracked = nil
        subject.send(1)
        subject.send(2)
        #expect(weakTracked.object == nil)  // released when the delivery returned
        #expect(holder.current == nil)
    }

    @Test func theOnlySubscriberCancelsAndForgetsItsSubscriptionWhileReceiving() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var subscriber: SelfDropping? = SelfDropping { me in
            if me.values.count == 2 {
                me.subscription?.cancel()
                me.subscription = nil
            }
        }
        subject.subscribe(subscriber!)
        let weakSubscriber = WeakRef(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber!.values == [0, 1])
        #expect(subscriber!.completions == 0)
        subscriber = nil
        #expect(weakSubscriber.object == nil)
    }

    @Test func theOnlySubscriberCompletesTheSubjectWhileReceiving() {
        let subject = PassthroughSubject<Int, Never>()
        var subscriber: SelfDropping? = SelfDropping { me in
            me.subscription = nil
            subject.send(completion: .finished)
            // Delivered nested, like a nested value.
            #expect(me.completions == 1)
        }
        subject.subscribe(subscriber!)
        let weakSubscriber = WeakRef(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber!.values == [1])
        #expect(subscriber!.completions == 1)
        subscriber = nil
        #expect(weakSubscriber.object == nil)
    }

    @Test func anotherSinkDropsThisSinksTokenWhileItReceives() {
        let subject = PassthroughSubject<Int, Never>()
        var tracked: Tracked? = Tracked()
        let weakTracked = WeakRef(tracked)
        let second = Locked<AnyCancellable?>(nil)
        let seenBySecond = Locked<[Int]>([])
        let first = subject.sink { [tracked] value in
            tracked!.touched += value
        }
        second.withLock {
            $0 = subject.sink { [tracked] value in
                seenBySecond.withLock { $0.append(value) }
                second.withLock { $0 = nil }
                tracked!.touched += value
            }
        }
        tracked = nil
        subject.send(1)
        subject.send(2)
        #expect(seenBySecond.current == [1])
        #expect(weakTracked.object != nil)  // `first` still holds it
        first.cancel()
        #expect(weakTracked.object == nil)
    }
}

extension Heavy {
    /// The same, across threads: one thread is inside the only subscriber when another completes
    /// the subject or cancels and drops the token.
    @Suite struct SubjectDeliveryLifetimeAcrossThreadsTests {
        final class Tracked: @unchecked Sendable {
            var touched = 0
        }

        enum Ending: CaseIterable {
            /// The subject completes; the token is kept.
            case completion
            /// The subject completes (from a third thread, which waits for its turn) and the token
            /// is dropped before the completion could be delivered: the cancel wins, so the
            /// completion is never delivered (nothing reaches a subscriber after its cancel returns).
            case completionThenCancel
            /// The token is dropped (its deinit cancels).
            case cancel
        }

        @Test(arguments: Ending.allCases)
        func theOnlySubscriberIsLetGoWhileAnotherThreadIsInsideIt(ending: Ending) {
            for _ in 0..<sanitizerScaled(200) {
                let subject = PassthroughSubject<Int, Never>()
                var tracked: Tracked? = Tracked()
                let weakTracked = WeakRef(tracked)
                let inside = DispatchSemaphore(value: 0)
                let proceed = DispatchSemaphore(value: 0)
                let events = Locked<[String]>([])
                let token = Locked<AnyCancellable?>(nil)
                token.withLock {
                    $0 = subject.sink(
                        receiveCompletion: { [tracked] _ in
                            _ = tracked
                            events.withLock { $0.append("finished") }
                        },
                        receiveValue: { [tracked] value in
                            events.withLock { $0.append("value \(value)") }
                            if value == 1 {
                                inside.signal()
                                proceed.wait()
                            }
                            tracked!.touched += value
                        })
                }
                tracked = nil
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    subject.send(1)
                    done.signal()
                }
                inside.wait()
                // A completion sent while another thread is inside the subscriber waits for its
                // turn, so it is sent from a third thread; a cancel does not wait.
                let completerDone = DispatchSemaphore(value: 0)
                switch ending {
                case .completion:
                    Thread.detachNewThread {
                        subject.send(completion: .finished)
                        subject.send(2)  // after the ending: must not arrive
                        completerDone.signal()
                    }
                    proceed.signal()
                case .completionThenCancel:
                    Thread.detachNewThread {
                        subject.send(completion: .finished)
                        completerDone.signal()
                    }
                    token.withLock { $0 = nil }
                    subject.send(2)  // after the ending: must not arrive
                    proceed.signal()
                case .cancel:
                    token.withLock { $0 = nil }  // deinit cancels
                    subject.send(2)  // after the ending: must not arrive
                    proceed.signal()
                    completerDone.signal()
                }
                done.wait()
                completerDone.wait()
                switch ending {
                case .completion: #expect(events.current == ["value 1", "finished"])
                case .completionThenCancel, .cancel: #expect(events.current == ["value 1"])
                }
                // Rule 16: the closures are released on completion or cancel, token or no token.
                #expect(weakTracked.object == nil)
                _ = token
            }
        }
    }
}
