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
            Checks.aRequestMadeWhileBusyDeliversTheQueuedValueOnTheRequestingThread(
                subscribe: { source.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).subscribe($0) },
                sendFirst: { source.send($0) },
                sendQueued: { source.send($0) })
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
