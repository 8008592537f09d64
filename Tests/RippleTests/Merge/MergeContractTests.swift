import Foundation
import Ripple
import Testing

/// merge and flatMap on the engine's contract: each value runs on the thread that sent it, a
/// second sender waits its turn, and what leaves the merge's locked state is released after
/// unlocking.
extension Heavy {
    @Suite struct MergeContractTests {
        static func thread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

        @Test func mergedValuesRunOnTheirSendersThreads() {
            let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
            let senders = Locked<[Int: UInt]>([:])
            let wrongThread = Locked(0)
            let overlaps = Locked(0)
            let inside = Locked(false)
            let count = Locked(0)
            let perThread = sanitizerScaled(10_000)
            let token = Publishers.MergeMany(subjects).sink { value in
                if inside.withLock({ flag in defer { flag = true }; return flag }) { overlaps.withLock { $0 += 1 } }
                if senders.withLock({ $0[value / 1_000_000] }) != Self.thread() { wrongThread.withLock { $0 += 1 } }
                count.withLock { $0 += 1 }
                inside.withLock { $0 = false }
            }
            runConcurrently(threads: 4) { thread in
                senders.withLock { $0[thread] = Self.thread() }
                for value in 0..<perThread { subjects[thread].send(thread * 1_000_000 + value) }
            }
            #expect(count.current == 4 * perThread)
            #expect(wrongThread.current == 0)
            #expect(overlaps.current == 0)
            token.cancel()
        }

        @Test func aValueMergedWhileTheDownstreamIsBusyRunsOnItsSendersThread() {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let deliveries = Locked<[String]>([])
            let threads = Locked<[String: UInt]>([:])
            let aInside = DispatchSemaphore(value: 0)
            let bAboutToSend = DispatchSemaphore(value: 0)
            let bReturned = DispatchSemaphore(value: 0)
            let token = a.merge(with: b).sink { value in
                let me = Self.thread()
                let name = threads.current.first { $0.value == me }?.key ?? "?"
                deliveries.withLock { $0.append("\(value) on \(name)") }
                if value == 1 {
                    aInside.signal()
                    bAboutToSend.wait()
                    _ = bReturned.wait(timeout: .now() + 0.5)
                }
            }
            runConcurrently(threads: 2) { index in
                threads.withLock { $0[index == 0 ? "A" : "B"] = Self.thread() }
                if index == 0 {
                    a.send(1)
                } else {
                    aInside.wait()
                    bAboutToSend.signal()
                    b.send(2)
                    bReturned.signal()
                }
            }
            #expect(deliveries.current == ["1 on A", "2 on B"])
            token.cancel()
        }

        /// A request from another thread adds its demand in its own turn (as in switchToLatest and
        /// buffer): the thread inside the downstream does not use it to deliver a queued value
        /// (over-delivering for the demand it brought); the requesting thread delivers it.
        @Test func aRequestMadeWhileTheDownstreamIsBusyDeliversTheQueuedValueOnTheRequestingThread() {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            TurnContractChecks.aRequestMadeWhileBusyDeliversTheQueuedValueOnTheRequestingThread(
                subscribe: { a.merge(with: b).subscribe($0) },
                sendFirst: { a.send($0) },
                sendQueued: { b.send($0) })
        }

        /// combineLatest keeps no tuple beyond the demand (Combine's rule, recorded against it:
        /// OpenCombine `CombineLatestTests.testUpstreamExceedsDemand`), so a value another thread
        /// sends while the downstream is busy and the demand is used up is dropped even when that
        /// thread then requests; the request counts from its own turn and lets the next value out.
        @Test func combineLatestDropsAValueSentWhileBusyBeyondTheDemand() {
            // Sources that ignore demand: combineLatest's own bookkeeping is what is tested.
            let a = TurnContractChecks.RawSource()
            let b = TurnContractChecks.RawSource()
            let deliveries = Locked<[Int]>([])
            let subscription = Locked<(any Subscription)?>(nil)
            let aInside = DispatchSemaphore(value: 0)
            let bAboutToRequest = DispatchSemaphore(value: 0)
            a.combineLatest(b).map(\.0).subscribe(
                AnySubscriber<Int, Never>(
                    receiveSubscription: { sub in
                        subscription.withLock { $0 = sub }
                        sub.request(.max(1))
                    },
                    receiveValue: { value in
                        deliveries.withLock { $0.append(value) }
                        if value == 1 {
                            aInside.signal()
                            bAboutToRequest.wait()
                            Thread.sleep(forTimeInterval: 0.1)
                        }
                        return .none
                    },
                    receiveCompletion: { _ in }))
            b.send(0)
            runConcurrently(threads: 2) { index in
                if index == 0 {
                    a.send(1)
                } else {
                    aInside.wait()
                    a.send(2)  // no demand left: dropped
                    bAboutToRequest.signal()
                    subscription.current?.request(.max(1))
                }
            }
            #expect(deliveries.current == [1])
            a.send(3)
            #expect(deliveries.current == [1, 3])
            subscription.current?.cancel()
        }

        @Test func zipCountsARequestMadeWhileBusyFromTheRequestersTurn() {
            let a = TurnContractChecks.RawSource()
            let b = TurnContractChecks.RawSource()
            TurnContractChecks.aRequestMadeWhileBusyDeliversTheQueuedValueOnTheRequestingThread(
                subscribe: {
                    a.zip(b).map(\.0).subscribe($0)
                    b.send(0)
                    b.send(0)
                },
                sendFirst: { a.send($0) },
                sendQueued: { a.send($0) })
        }

        @Test func aTupleCompletedWhileTheDownstreamIsBusyRunsOnTheThreadThatCompletedIt() {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let deliveries = Locked<[String]>([])
            let threads = Locked<[String: UInt]>([:])
            let aInside = DispatchSemaphore(value: 0)
            let bAboutToSend = DispatchSemaphore(value: 0)
            let bReturned = DispatchSemaphore(value: 0)
            let token = a.combineLatest(b).sink { pair in
                let me = Self.thread()
                let name = threads.current.first { $0.value == me }?.key ?? "main"
                deliveries.withLock { $0.append("\(pair.0),\(pair.1) on \(name)") }
                if pair.0 == 1 && pair.1 == 0 {
                    aInside.signal()
                    bAboutToSend.wait()
                    _ = bReturned.wait(timeout: .now() + 0.5)
                }
            }
            a.send(0)
            b.send(0)
            runConcurrently(threads: 2) { index in
                threads.withLock { $0[index == 0 ? "A" : "B"] = Self.thread() }
                if index == 0 {
                    a.send(1)
                } else {
                    aInside.wait()
                    bAboutToSend.signal()
                    b.send(2)
                    bReturned.signal()
                }
            }
            #expect(deliveries.current == ["0,0 on main", "1,0 on A", "1,2 on B"])
            token.cancel()
        }

        @Test func zippedPairsRunOnTheThreadThatCompletedThem() {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let wrongThread = Locked(0)
            let count = Locked(0)
            let completer = Locked<[Int: UInt]>([:])
            let perThread = sanitizerScaled(5_000)
            let token = a.zip(b).sink { pair in
                if completer.withLock({ $0[1] }) != Self.thread() { wrongThread.withLock { $0 += 1 } }
                count.withLock { $0 += 1 }
                _ = pair
            }
            // This thread sends every value of `a` first; each pair is completed by the other
            // thread's `b` value, so it runs there.
            for value in 0..<perThread { a.send(value) }
            runConcurrently(threads: 1) { _ in
                completer.withLock { $0[1] = Self.thread() }
                for value in 0..<perThread { b.send(value) }
            }
            #expect(count.current == perThread)
            #expect(wrongThread.current == 0)
            token.cancel()
        }

        /// A child subscription whose deinit calls back into the merge that released it.
        final class CallsBackOnDeinit: Subscription, @unchecked Sendable {
            let onDeinit: @Sendable () -> Void
            init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
            func request(_ demand: Subscribers.Demand) {}
            func cancel() {}
            deinit { onDeinit() }
        }

        struct CallsBackPublisher: Publisher {
            typealias Output = Int
            typealias Failure = Never
            let onDeinit: @Sendable () -> Void
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriber.receive(subscription: CallsBackOnDeinit(onDeinit))
            }
        }

        @Test func aChildSubscriptionWhoseDeinitCallsBackIntoTheMergeIsReleasedAfterUnlocking() {
            let calledBack = Locked(0)
            let completed = completesWithin {
                let mergeSubscription = Locked<(any Subscription)?>(nil)
                let subject = PassthroughSubject<Int, Never>()
                let merged = CallsBackPublisher {
                    mergeSubscription.current?.request(.max(1))
                    calledBack.withLock { $0 += 1 }
                }.merge(with: subject)
                merged.subscribe(
                    AnySubscriber<Int, Never>(
                        receiveSubscription: { subscription in
                            mergeSubscription.withLock { $0 = subscription }
                            subscription.request(.unlimited)
                        },
                        receiveValue: { _ in .none },
                        receiveCompletion: { _ in }))
                let subscription = mergeSubscription.current
                mergeSubscription.withLock { $0 = nil }
                mergeSubscription.withLock { $0 = subscription }
                subscription?.cancel()  // releases the child subscriptions
                mergeSubscription.withLock { $0 = nil }
            }
            #expect(completed)
            #expect(calledBack.current == 1)
        }
    }
}
