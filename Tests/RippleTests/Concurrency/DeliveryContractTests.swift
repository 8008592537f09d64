import Foundation
import Ripple
import Testing

/// The engine's contract, as Combine users rely on it: every value is delivered on the thread that
/// sent it; concurrent senders wait their turn, in arrival order, and never run each other's values;
/// a send from inside a delivery on the same thread is delivered nested; nothing is released while
/// a lock is held; a wait that could never end traps instead of hanging.
extension Heavy {
    @Suite(.exitTestWatchdog) struct DeliveryContractTests {
        /// A number for the calling thread, comparable across the test's closures.
        static func thread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

        /// One delivery: the value, and the thread it ran on.
        struct Delivery: Equatable, CustomStringConvertible {
            var value: Int
            var thread: UInt
            var description: String { "\(value)@\(String(thread, radix: 16))" }
        }

        @Test func aValueSentWhileTheSubscriberIsBusyRunsOnItsSendersThreadAfterTheBusyCallReturns() {
            let subject = PassthroughSubject<Int, Never>()
            let deliveries = Locked<[Delivery]>([])
            let events = Locked<[String]>([])
            let aInside = DispatchSemaphore(value: 0)
            let bAboutToSend = DispatchSemaphore(value: 0)
            let bReturned = DispatchSemaphore(value: 0)
            let token = subject.sink { value in
                deliveries.withLock { $0.append(Delivery(value: value, thread: Self.thread())) }
                if value == 1 {
                    aInside.signal()
                    bAboutToSend.wait()
                    // Today's engine returns B's send at once (handing B's value to this thread);
                    // a waiting B never returns before this call does. Either way, go on shortly.
                    _ = bReturned.wait(timeout: .now() + 0.5)
                    events.withLock { $0.append("A's call returns") }
                }
            }
            let threads = Locked<[String: UInt]>([:])
            runConcurrently(threads: 2) { index in
                threads.withLock { $0[index == 0 ? "A" : "B"] = Self.thread() }
                if index == 0 {
                    subject.send(1)
                } else {
                    aInside.wait()
                    bAboutToSend.signal()
                    subject.send(2)
                    events.withLock { $0.append("B's send returns") }
                    bReturned.signal()
                }
            }
            let a = threads.current["A"]!
            let b = threads.current["B"]!
            #expect(deliveries.current == [Delivery(value: 1, thread: a), Delivery(value: 2, thread: b)])
            #expect(events.current == ["A's call returns", "B's send returns"])
            token.cancel()
        }

        @Test func aSenderNeverRunsAnotherThreadsValues() {
            let subject = PassthroughSubject<Int, Never>()
            let wrongThread = Locked(0)
            let overlaps = Locked(0)
            let inside = Locked(false)
            let count = Locked(0)
            let producerThreads = Locked<[Int: UInt]>([:])
            let perProducer = sanitizerScaled(20_000)
            let token = subject.sink { value in
                let wasInside = inside.withLock { flag in
                    defer { flag = true }
                    return flag
                }
                if wasInside { overlaps.withLock { $0 += 1 } }
                let producer = value / 1_000_000
                if producerThreads.withLock({ $0[producer] }) != Self.thread() { wrongThread.withLock { $0 += 1 } }
                count.withLock { $0 += 1 }
                inside.withLock { $0 = false }
            }
            runConcurrently(threads: 4) { producer in
                producerThreads.withLock { $0[producer] = Self.thread() }
                for sequence in 0..<perProducer {
                    subject.send(producer * 1_000_000 + sequence)
                }
            }
            #expect(count.current == 4 * perProducer)
            #expect(wrongThread.current == 0)
            #expect(overlaps.current == 0)
            token.cancel()
        }

        @Test func aCompletionSentWhileTheSubscriberIsBusyRunsOnItsSendersThread() {
            let subject = PassthroughSubject<Int, Never>()
            let events = Locked<[String]>([])
            let aInside = DispatchSemaphore(value: 0)
            let bAboutToSend = DispatchSemaphore(value: 0)
            let bReturned = DispatchSemaphore(value: 0)
            let threads = Locked<[String: UInt]>([:])
            let token = subject.sink(
                receiveCompletion: { _ in
                    events.withLock { $0.append(threads.current["B"] == Self.thread() ? "finished on B" : "finished elsewhere") }
                },
                receiveValue: { _ in
                    aInside.signal()
                    bAboutToSend.wait()
                    _ = bReturned.wait(timeout: .now() + 0.5)
                    events.withLock { $0.append("value on A returns") }
                })
            runConcurrently(threads: 2) { index in
                threads.withLock { $0[index == 0 ? "A" : "B"] = Self.thread() }
                if index == 0 {
                    subject.send(1)
                } else {
                    aInside.wait()
                    bAboutToSend.signal()
                    subject.send(completion: .finished)
                    bReturned.signal()
                }
            }
            #expect(events.current == ["value on A returns", "finished on B"])
            token.cancel()
        }

        @Test func aSendFromInsideADeliveryOnTheSameThreadIsDeliveredNested() {
            let subject = PassthroughSubject<Int, Never>()
            let events = Locked<[String]>([])
            let token = subject.sink { value in
                events.withLock { $0.append("enter \(value)") }
                if value == 1 { subject.send(2) }
                events.withLock { $0.append("exit \(value)") }
            }
            subject.send(1)
            #expect(events.current == ["enter 1", "enter 2", "exit 2", "exit 1"])
            token.cancel()
        }

        // MARK: Release after unlock

        /// Reads `subject.value` from its deinit: released under the subject's lock, it would hang.
        final class ReadsSubjectOnDeinit: @unchecked Sendable {
            let subject: Locked<CurrentValueSubject<ReadsSubjectOnDeinit?, Never>?>
            let read: Locked<Int>
            init(_ subject: Locked<CurrentValueSubject<ReadsSubjectOnDeinit?, Never>?>, _ read: Locked<Int>) {
                self.subject = subject
                self.read = read
            }
            deinit {
                if let subject = subject.current {
                    _ = subject.value
                    read.withLock { $0 += 1 }
                }
            }
        }

        @Test func anOldCurrentValueWhoseDeinitReadsTheSubjectIsReleasedAfterUnlocking() {
            let read = Locked(0)
            let completed = completesWithin {
                let holder = Locked<CurrentValueSubject<ReadsSubjectOnDeinit?, Never>?>(nil)
                let subject = CurrentValueSubject<ReadsSubjectOnDeinit?, Never>(nil)
                holder.withLock { $0 = subject }
                subject.send(ReadsSubjectOnDeinit(holder, read))
                subject.send(nil)  // releases the first value
                subject.value = ReadsSubjectOnDeinit(holder, read)
                subject.value = nil  // and the second, through the setter
                holder.withLock { $0 = nil }
            }
            #expect(completed)
            #expect(read.current == 2)
        }

        @Test func aSubscriberWhoseDeinitSendsToTheSubjectIsReleasedAfterUnlocking() {
            final class SendsOnDeinit: Subscriber, @unchecked Sendable {
                typealias Input = Int
                typealias Failure = Never
                let subject: PassthroughSubject<Int, Never>
                init(_ subject: PassthroughSubject<Int, Never>) { self.subject = subject }
                func receive(subscription: any Subscription) { subscription.request(.unlimited) }
                func receive(_ input: Int) -> Subscribers.Demand { .none }
                func receive(completion: Subscribers.Completion<Never>) {}
                deinit { subject.send(99) }
            }
            let seen = Locked<[Int]>([])
            let completed = completesWithin {
                let subject = PassthroughSubject<Int, Never>()
                let other = subject.sink { value in seen.withLock { $0.append(value) } }
                subject.subscribe(SendsOnDeinit(subject))
                subject.send(completion: .finished)  // releases SendsOnDeinit
                other.cancel()
            }
            #expect(completed)
            #expect(seen.current == [])  // 99 arrives after completion: ignored
        }

        @Test func cancellingAMulticastConnectionWhoseSubjectWasDroppedReturns() {
            let completed = completesWithin {
                let connection = Empty<Int, Never>(completeImmediately: false)
                    .multicast(subject: PassthroughSubject())
                    .connect()
                connection.cancel()
            }
            #expect(completed)
        }

        @Test func cancellingAMulticastConnectionWhileSubscribersRemainReturns() {
            let values = Locked<[Int]>([])
            let completed = completesWithin {
                let subject = PassthroughSubject<Int, Never>()
                let multicast = subject.multicast { PassthroughSubject() }
                let token = multicast.sink { value in values.withLock { $0.append(value) } }
                let connection = multicast.connect()
                subject.send(1)
                connection.cancel()
                subject.send(2)
                token.cancel()
            }
            #expect(completed)
            #expect(values.current == [1])
        }

        // MARK: Deadlock

        /// Two threads, each inside a delivery, each sending into the subscriber the other is
        /// delivering to: Combine hangs; Ripple traps and names the cycle.
        @Test func twoThreadsDeliveringIntoEachOthersSubscribersTrapInsteadOfHanging() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let first = PassthroughSubject<Int, Never>()
                let second = PassthroughSubject<Int, Never>()
                let firstInside = DispatchSemaphore(value: 0)
                let secondInside = DispatchSemaphore(value: 0)
                let t1 = first.sink { value in
                    guard value == 1 else { return }
                    firstInside.signal()
                    secondInside.wait()
                    second.send(10)
                }
                let t2 = second.sink { value in
                    guard value == 2 else { return }
                    secondInside.signal()
                    firstInside.wait()
                    first.send(20)
                }
                runConcurrently(threads: 2) { index in
                    if index == 0 { first.send(1) } else { second.send(2) }
                }
                withExtendedLifetime((t1, t2)) {}
            }
            let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(output.contains("Ripple: deadlock: thread"), "stderr was \(output.suffix(400))")
            #expect(output.contains("waits to deliver to a PassthroughSubject subscriber"))
        }

        /// The same cycle through two `@Published` properties: each thread, inside its write's
        /// `$property` delivery, writes the property the other thread is writing. Concurrent writes
        /// of one property take turns (so `$property` delivers in store order); the turn is not a
        /// lock held across the delivery, and a cycle of waiting writers traps instead of hanging.
        @Test func twoThreadsWritingEachOthersPublishedPropertiesTrapInsteadOfHanging() async {
            final class Pair: ObservableObject, @unchecked Sendable {
                @Published var first = 0
                @Published var second = 0
            }
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let pair = Pair()
                let firstInside = DispatchSemaphore(value: 0)
                let secondInside = DispatchSemaphore(value: 0)
                let t1 = pair.$first.sink { value in
                    guard value == 1 else { return }
                    firstInside.signal()
                    secondInside.wait()
                    pair.second = 10
                }
                let t2 = pair.$second.sink { value in
                    guard value == 2 else { return }
                    secondInside.signal()
                    firstInside.wait()
                    pair.first = 20
                }
                runConcurrently(threads: 2) { index in
                    if index == 0 { pair.first = 1 } else { pair.second = 2 }
                }
                withExtendedLifetime((t1, t2)) {}
            }
            let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(output.contains("Ripple: deadlock: thread"), "stderr was \(output.suffix(400))")
            #expect(output.contains("$property (@Published Int)"))
        }
    }
}
