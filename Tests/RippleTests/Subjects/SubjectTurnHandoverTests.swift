import Foundation
import Ripple
import Testing

extension Heavy {
    /// A subscriber's turn handed between threads on a fresh subject each round: the first moment
    /// another thread depends on it (a second sender, a cancel from another thread during a
    /// delivery, a completion racing a sender). An earlier engine gave turns back without the lock
    /// until that moment; these races kept it honest and keep the engine that replaced it so.
    @Suite struct SubjectTurnHandoverTests {
        /// Counts its own deinits: a subscriber released twice, or never, shows here.
        final class Witness: @unchecked Sendable {
            let releases: Locked<Int>
            init(_ releases: Locked<Int>) { self.releases = releases }
            deinit { releases.withLock { $0 += 1 } }
        }

        @Test func twoSendersOnAFreshSubjectDeliverEverythingOnceAndNeverOverlap() {
            for _ in 0..<raceIterations(2_000) {
                let subject = PassthroughSubject<Int, Never>()
                let inside = Locked(false)
                let overlaps = Locked(0)
                let received = Locked<[Int]>([])
                let token = subject.sink { value in
                    if inside.withLock({ flag in defer { flag = true }; return flag }) {
                        overlaps.withLock { $0 += 1 }
                    }
                    received.withLock { $0.append(value) }
                    inside.withLock { $0 = false }
                }
                runConcurrently(threads: 2) { sender in
                    for sequence in 0..<20 { subject.send(sender * 1_000 + sequence) }
                }
                let values = received.current
                #expect(values.count == 40)
                #expect(Set(values).count == 40)
                for sender in 0..<2 {
                    let mine = values.filter { $0 / 1_000 == sender }
                    #expect(mine == mine.sorted())
                }
                #expect(overlaps.current == 0)
                token.cancel()
            }
        }

        @Test func aCancelFromAnotherThreadDuringDeliveriesReleasesTheSubscriberExactlyOnce() {
            for _ in 0..<raceIterations(2_000) {
                let subject = PassthroughSubject<Int, Never>()
                let releases = Locked(0)
                let callsAfterCancel = Locked(0)
                let cancelled = Locked(false)
                let witness = Witness(releases)
                let token = Locked<AnyCancellable?>(
                    subject.sink { _ in
                        withExtendedLifetime(witness) {}
                        if cancelled.current { callsAfterCancel.withLock { $0 += 1 } }
                    })
                runConcurrently(threads: 2) { role in
                    if role == 0 {
                        for value in 0..<50 { subject.send(value) }
                    } else {
                        let cancellable = token.withLock { current -> AnyCancellable? in
                            defer { current = nil }
                            return current
                        }
                        cancellable?.cancel()
                        cancelled.withLock { $0 = true }
                    }
                }
                // At most the one delivery already under way when the cancel returned.
                #expect(callsAfterCancel.current <= 1)
                #expect(releases.current == 0)  // `witness` is still ours
                _ = consume witness
                #expect(releases.current == 1)
            }
        }

        /// The completion waits for the sender's turn; the sender gives it back without the lock just
        /// as the completion makes the subject contended. (This hung before the subscribers being
        /// completed were kept findable for the sender's slow path.)
        @Test func aCompletionRacingASenderOnAFreshSubjectIsDeliveredOnceAndLast() {
            let finished = completesWithin(seconds: 120) {
                for _ in 0..<raceIterations(2_000) {
                    let subject = PassthroughSubject<Int, Never>()
                    let events = Locked<[Int]>([])
                    let token = subject.sink(
                        receiveCompletion: { _ in events.withLock { $0.append(-1) } },
                        receiveValue: { value in events.withLock { $0.append(value) } })
                    runConcurrently(threads: 2) { role in
                        if role == 0 {
                            for value in 0..<30 { subject.send(value) }
                        } else {
                            subject.send(completion: .finished)
                        }
                    }
                    let seen = events.current
                    #expect(seen.filter { $0 == -1 }.count == 1)
                    #expect(seen.last == -1)
                    withExtendedLifetime(token) {}
                }
            }
            #expect(finished, "a thread waiting for a subscriber's turn was never handed it")
        }

        /// Subjects of several output and failure types, by sink and by subscriber, deliver the same
        /// way (the conduit is generic over them and specialized in client code).
        @Test func theConduitLayoutHoldsForEveryOutputAndFailureType() {
            struct Wide: Sendable { var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0 }
            final class Reference: Sendable {}
            enum Failure: Error { case failed }
            func roundTrip<Output>(_ value: Output) -> Int {
                let subject = PassthroughSubject<Output, Never>()
                let current = CurrentValueSubject<Output, Never>(value)
                let count = Locked(0)
                let tokens = [
                    subject.sink { _ in count.withLock { $0 += 1 } },
                    current.sink { _ in count.withLock { $0 += 1 } },
                    subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in count.withLock { $0 += 1 } }),
                ]
                subject.send(value)
                current.send(value)
                withExtendedLifetime(tokens) {}
                return count.current
            }
            // Two sinks on the subject get the value; the current-value subject's sink gets the
            // current value and the new one.
            #expect(roundTrip(Int8(1)) == 4)
            #expect(roundTrip("text") == 4)
            #expect(roundTrip(Wide()) == 4)
            #expect(roundTrip(Reference()) == 4)
            #expect(roundTrip(()) == 4)
            let failing = PassthroughSubject<Wide, Failure>()
            let recorder = Locked<[String]>([])
            let token = failing.sink(
                receiveCompletion: { completion in
                    recorder.withLock { $0.append(completion == .failure(.failed) ? "failed" : "finished") }
                },
                receiveValue: { _ in recorder.withLock { $0.append("value") } })
            failing.send(Wide())
            failing.send(completion: .failure(.failed))
            #expect(recorder.current == ["value", "failed"])
            withExtendedLifetime(token) {}
        }

        @Test func aCancelFromInsideTheDeliveryReleasesTheSubscriberOnceTheDeliveryReturns() {
            let subject = PassthroughSubject<Int, Never>()
            let releases = Locked(0)
            let token = Locked<AnyCancellable?>(nil)
            let values = Locked<[Int]>([])
            do {
                let witness = Witness(releases)
                token.withLock {
                    $0 = subject.sink { value in
                        withExtendedLifetime(witness) {}
                        values.withLock { $0.append(value) }
                        if value == 1 { token.current?.cancel() }
                        #expect(releases.current == 0)  // still inside its own delivery
                    }
                }
            }
            subject.send(0)
            subject.send(1)
            subject.send(2)
            #expect(values.current == [0, 1])
            #expect(releases.current == 1)
            token.withLock { $0 = nil }
        }
    }
}
