import Foundation
import Ripple
import Testing

/// buffer delivers on the delivery turn: on the sender's thread, one at a time, nested when
/// re-entrant.
extension Heavy {
    @Suite struct BufferTurnTests {
        typealias Checks = TurnContractChecks

        @Test(arguments: [Publishers.PrefetchStrategy.byRequest, .keepFull])
        func aValueSentWhileTheDownstreamIsBusyRunsOnItsSendersThreadAfterTheBusyCallReturns(
            prefetch: Publishers.PrefetchStrategy
        ) {
            let source = Checks.RawSource()
            Checks.aValueSentWhileBusyRunsOnItsSendersThreadAfterTheBusyCallReturns(
                connect: { body in
                    source.buffer(size: 10, prefetch: prefetch, whenFull: .dropNewest).sink(receiveValue: body)
                },
                send: { source.send($0) })
        }

        @Test func aRequestMadeWhileTheDownstreamIsBusyDeliversTheBufferedValueOnTheRequestingThread() {
            let source = Checks.RawSource()
            let deliveries = Locked<[Checks.Delivery]>([])
            let events = Locked<[String]>([])
            let subscription = Locked<(any Subscription)?>(nil)
            let aInside = DispatchSemaphore(value: 0)
            let bAboutToRequest = DispatchSemaphore(value: 0)
            let subscriber = AnySubscriber<Int, Never>(
                receiveSubscription: { sub in
                    subscription.withLock { $0 = sub }
                    sub.request(.max(1))
                },
                receiveValue: { value in
                    deliveries.withLock { $0.append(Checks.Delivery(value: value, thread: Checks.thread())) }
                    if value == 1 {
                        aInside.signal()
                        bAboutToRequest.wait()
                        Thread.sleep(forTimeInterval: 0.1)
                        events.withLock { $0.append("A's call returns") }
                    }
                    return .none
                },
                receiveCompletion: { _ in })
            source.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
            let threads = Locked<[String: UInt]>([:])
            runConcurrently(threads: 2) { index in
                threads.withLock { $0[index == 0 ? "A" : "B"] = Checks.thread() }
                if index == 0 {
                    source.send(1)
                } else {
                    aInside.wait()
                    source.send(2)  // no demand left: buffered
                    bAboutToRequest.signal()
                    subscription.current?.request(.max(1))
                    events.withLock { $0.append("B's request returns") }
                }
            }
            let a = threads.current["A"]!
            let b = threads.current["B"]!
            #expect(
                deliveries.current == [Checks.Delivery(value: 1, thread: a), Checks.Delivery(value: 2, thread: b)])
            #expect(events.current == ["A's call returns", "B's request returns"])
            subscription.current?.cancel()
        }

        @Test func fourThreadsSendingNeverOverlapAndLoseOrDuplicateNothing() {
            let perThread = sanitizerScaled(5_000)
            let source = Checks.RawSource()
            let checker = FanInConcurrencyTests.SerialChecker<Int>()
            source.buffer(size: 4 * perThread, prefetch: .byRequest, whenFull: .dropNewest).subscribe(checker)
            runConcurrently(threads: 4) { thread in
                for value in 0..<perThread { source.send(thread * perThread + value) }
            }
            source.finish()
            let values = checker.values.current
            #expect(values.count == 4 * perThread)
            #expect(Set(values).count == values.count)
            #expect(checker.overlaps.current == 0)
            #expect(checker.completions.current == 1)
            for thread in 0..<4 {
                let own = values.filter { $0 / perThread == thread }
                #expect(own == own.sorted())
            }
        }

        @Test func aSendFromInsideADeliveryOnTheSameThreadIsDeliveredNested() {
            let subject = PassthroughSubject<Int, Never>()
            Checks.aSendFromInsideADeliveryIsDeliveredNested(
                connect: { body in
                    subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).sink(receiveValue: body)
                },
                sendInside: { subject.send($0) },
                send: { subject.send($0) })
        }
    }
}
