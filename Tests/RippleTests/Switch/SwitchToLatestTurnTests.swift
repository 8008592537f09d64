import Foundation
import Ripple
import Testing

/// switchToLatest delivers on the delivery turn: on the sender's thread, one at a time, nested
/// when re-entrant.
extension Heavy {
    @Suite struct SwitchToLatestTurnTests {
        typealias Checks = TurnContractChecks

        @Test func aValueSentWhileTheDownstreamIsBusyRunsOnItsSendersThreadAfterTheBusyCallReturns() {
            let outer = PassthroughSubject<Checks.RawSource, Never>()
            let inner = Checks.RawSource()
            Checks.aValueSentWhileBusyRunsOnItsSendersThreadAfterTheBusyCallReturns(
                connect: { body in
                    let token = outer.switchToLatest().sink(receiveValue: body)
                    outer.send(inner)
                    return token
                },
                send: { inner.send($0) })
        }

        @Test func anOldAndANewInnerPublisherRacingDeliverEachOnItsOwnThread() {
            // A is inside the delivery of the old inner publisher's value when B switches to a new
            // inner publisher and sends through it.
            let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
            let old = PassthroughSubject<Int, Never>()
            let new = PassthroughSubject<Int, Never>()
            Checks.aValueSentWhileBusyRunsOnItsSendersThreadAfterTheBusyCallReturns(
                connect: { body in
                    let token = outer.switchToLatest().sink(receiveValue: body)
                    outer.send(old)
                    return token
                },
                send: { value in
                    if value == 1 {
                        old.send(1)
                    } else {
                        outer.send(new)
                        new.send(value)
                    }
                })
        }

        @Test func fourThreadsSendingNeverOverlapAndLoseOrDuplicateNothing() {
            let perThread = sanitizerScaled(5_000)
            let outer = PassthroughSubject<Checks.RawSource, Never>()
            let inner = Checks.RawSource()
            let checker = FanInConcurrencyTests.SerialChecker<Int>()
            outer.switchToLatest().subscribe(checker)
            outer.send(inner)
            runConcurrently(threads: 4) { thread in
                for value in 0..<perThread { inner.send(thread * perThread + value) }
            }
            outer.send(completion: .finished)
            inner.finish()
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
            let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
            let inner = PassthroughSubject<Int, Never>()
            Checks.aSendFromInsideADeliveryIsDeliveredNested(
                connect: { body in
                    let token = outer.switchToLatest().sink(receiveValue: body)
                    outer.send(inner)
                    return token
                },
                sendInside: { inner.send($0) },
                send: { inner.send($0) })
        }
    }
}
