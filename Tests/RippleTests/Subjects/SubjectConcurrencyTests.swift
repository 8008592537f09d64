import Foundation
import Ripple
import Testing

extension Heavy {
    /// Several threads sending to one subject while subscribers are alive throughout: every subscriber
    /// gets every value exactly once, each producer's values in order, and never two calls at once.
    @Suite struct SubjectConcurrencyTests {
        /// Records values and checks that `receive` is never entered by two threads at once.
        final class SerialChecker: @unchecked Sendable {
            let inside = Locked(false)
            let overlaps = Locked(0)
            let values = Locked<[Int]>([])

            func receive(_ value: Int) {
                let wasInside = inside.withLock { flag -> Bool in
                    let was = flag
                    flag = true
                    return was
                }
                if wasInside { overlaps.withLock { $0 += 1 } }
                values.withLock { $0.append(value) }
                inside.withLock { $0 = false }
            }
        }


        @Test(arguments: [1, 10])
        func passthroughDeliversEverythingOnceInProducerOrder(subscribers: Int) {
            let producers = 4
            let perProducer = 5_000
            let subject = PassthroughSubject<Int, Never>()
            let checkers = (0..<subscribers).map { _ in SerialChecker() }
            let tokens = checkers.map { checker in subject.sink { checker.receive($0) } }

            runConcurrently(threads: producers) { producer in
                for sequence in 0..<perProducer {
                    subject.send(producer * 1_000_000 + sequence)
                }
            }

            for checker in checkers {
                let values = checker.values.current
                #expect(values.count == producers * perProducer)  // nothing lost, nothing duplicated
                #expect(Set(values).count == values.count)
                for producer in 0..<producers {
                    let mine = values.filter { $0 / 1_000_000 == producer }
                    #expect(mine == mine.sorted())  // per-producer order kept
                }
                #expect(checker.overlaps.current == 0)  // calls never overlap
            }
            tokens.forEach { $0.cancel() }
        }

        @Test func currentValueSubjectUnderConcurrentWritersEndsOnTheLastValue() {
            let subject = CurrentValueSubject<Int, Never>(0)
            let checker = SerialChecker()
            let token = subject.sink { checker.receive($0) }
            runConcurrently(threads: 4) { producer in
                for sequence in 1...2_000 { subject.send(producer * 1_000_000 + sequence) }
            }
            let values = checker.values.current
            #expect(values.count == 1 + 4 * 2_000)
            #expect(values.last == subject.value)
            #expect(checker.overlaps.current == 0)
            token.cancel()
        }

        @Test func subscribeAndCancelWhileSending() {
            let subject = PassthroughSubject<Int, Never>()
            let steady = SerialChecker()
            let token = subject.sink { steady.receive($0) }
            let sent = 20_000
            runConcurrently(threads: 3) { role in
                switch role {
                case 0:
                    for value in 0..<sent { subject.send(value) }
                default:
                    for _ in 0..<2_000 {
                        let churn = subject.sink { _ in }
                        churn.cancel()
                    }
                }
            }
            #expect(steady.values.current == Array(0..<sent))
            token.cancel()
        }

        /// After `cancel()` returns, the only call that may still happen is one the thread holding the
        /// subscriber's turn had already decided to make (stopping it would need a cancel that waits
        /// for user code, or a hand-shake outside the lock on every delivery); nothing new is
        /// decided. With one producer that is at most one call.
        @Test func atMostTheOneDecidedDeliveryStartsAfterCancelReturns() {
            for _ in 0..<50 {
                let subject = PassthroughSubject<Int, Never>()
                let calls = Locked(0)
                let callsWhenCancelled = Locked<Int?>(nil)
                let token = subject.sink { _ in calls.withLock { $0 += 1 } }
                runConcurrently(threads: 2) { role in
                    if role == 0 {
                        for value in 0..<2_000 { subject.send(value) }
                    } else {
                        usleep(50)
                        token.cancel()
                        callsWhenCancelled.withLock { $0 = calls.current }
                    }
                }
                let after = calls.current - (callsWhenCancelled.current ?? 0)
                #expect(after <= 1)
            }
        }

        @Test func completionRacingSendsIsDeliveredExactlyOnceAndLast() {
            for _ in 0..<100 {
                let subject = PassthroughSubject<Int, Never>()
                let recorder = Recorder(for: subject)
                runConcurrently(threads: 3) { role in
                    if role == 2 {
                        subject.send(completion: .finished)
                    } else {
                        for value in 0..<200 { subject.send(value) }
                    }
                }
                let events = recorder.events
                #expect(events.filter { $0 == .finished }.count == 1)
                #expect(events.last == .finished)
            }
        }
    }
}
