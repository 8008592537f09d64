import Foundation
import Ripple
import Testing

/// Checks of the delivery contract shared by the operators that deliver on the delivery turn: a
/// value sent while another thread is inside the downstream's `receive` is delivered on its own
/// thread after that call returns; concurrent senders never overlap and lose nothing; a send from
/// inside a delivery on the same thread is delivered nested.
enum TurnContractChecks {
    /// A number for the calling thread, comparable across the test's closures.
    static func thread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// A publisher whose one subscriber is called directly by ``send(_:)`` on the calling thread,
    /// with no serialization of its own: concurrent sends reach the operator under test at once.
    final class RawSource: Publisher, @unchecked Sendable {
        typealias Output = Int
        typealias Failure = Never

        let subscriber = Locked<AnySubscriber<Int, Never>?>(nil)

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            self.subscriber.withLock { $0 = AnySubscriber(subscriber) }
            subscriber.receive(subscription: Ignored())
        }

        @discardableResult
        func send(_ value: Int) -> Subscribers.Demand { subscriber.current?.receive(value) ?? .none }

        func finish() { subscriber.current?.receive(completion: .finished) }

        final class Ignored: Subscription {
            func request(_ demand: Subscribers.Demand) {}
            func cancel() {}
        }
    }

    /// One delivery: the value, and the thread it ran on.
    struct Delivery: Equatable, CustomStringConvertible {
        var value: Int
        var thread: UInt
        var description: String { "\(value)@\(String(thread, radix: 16))" }
    }

    /// `connect(sink)` subscribes `sink` to the operator under test; `send(value)` sends a value
    /// into it from the calling thread. Thread A sends 1 and, inside its delivery, lets thread B
    /// send 2. Expects 2 to run on B, after A's call returned.
    static func aValueSentWhileBusyRunsOnItsSendersThreadAfterTheBusyCallReturns(
        connect: (@escaping @Sendable (Int) -> Void) -> AnyCancellable,
        send: @escaping @Sendable (Int) -> Void
    ) {
        let deliveries = Locked<[Delivery]>([])
        let events = Locked<[String]>([])
        let aInside = DispatchSemaphore(value: 0)
        let bAboutToSend = DispatchSemaphore(value: 0)
        let bReturned = DispatchSemaphore(value: 0)
        let token = connect { value in
            deliveries.withLock { $0.append(Delivery(value: value, thread: Self.thread())) }
            if value == 1 {
                aInside.signal()
                bAboutToSend.wait()
                // A waiting B never returns before this call does; go on shortly either way.
                _ = bReturned.wait(timeout: .now() + 0.5)
                events.withLock { $0.append("A's call returns") }
            }
        }
        let threads = Locked<[String: UInt]>([:])
        runConcurrently(threads: 2) { index in
            threads.withLock { $0[index == 0 ? "A" : "B"] = Self.thread() }
            if index == 0 {
                send(1)
            } else {
                aInside.wait()
                bAboutToSend.signal()
                send(2)
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

    /// Records entering and leaving each delivery; on 1, `sendInside(2)` is called from inside it.
    /// Expects 2 to be delivered nested.
    static func aSendFromInsideADeliveryIsDeliveredNested(
        connect: (@escaping @Sendable (Int) -> Void) -> AnyCancellable,
        sendInside: @escaping @Sendable (Int) -> Void,
        send: (Int) -> Void
    ) {
        let events = Locked<[String]>([])
        let token = connect { value in
            events.withLock { $0.append("enter \(value)") }
            if value == 1 { sendInside(2) }
            events.withLock { $0.append("exit \(value)") }
        }
        send(1)
        #expect(events.current == ["enter 1", "enter 2", "exit 2", "exit 1"])
        token.cancel()
    }

    /// `subscribe(subscriber)` subscribes `subscriber` to the operator under test; `sendFirst` and
    /// `sendQueued` send a value into it from the calling thread. The subscriber asks for one value.
    /// Thread A sends 1 and, inside its delivery, lets thread B send 2 (no demand: it waits) and
    /// request one more. Expects B's demand to count from B's turn: 2 is delivered on B, after A's
    /// call returned, not by A for B's demand.
    static func aRequestMadeWhileBusyDeliversTheQueuedValueOnTheRequestingThread(
        subscribe: (AnySubscriber<Int, Never>) -> Void,
        sendFirst: @escaping @Sendable (Int) -> Void,
        sendQueued: @escaping @Sendable (Int) -> Void
    ) {
        let deliveries = Locked<[Delivery]>([])
        let events = Locked<[String]>([])
        let subscription = Locked<(any Subscription)?>(nil)
        let aInside = DispatchSemaphore(value: 0)
        let bAboutToRequest = DispatchSemaphore(value: 0)
        subscribe(
            AnySubscriber<Int, Never>(
                receiveSubscription: { sub in
                    subscription.withLock { $0 = sub }
                    sub.request(.max(1))
                },
                receiveValue: { value in
                    deliveries.withLock { $0.append(Delivery(value: value, thread: Self.thread())) }
                    if value == 1 {
                        aInside.signal()
                        bAboutToRequest.wait()
                        // B's request is under way (it waits for this turn).
                        Thread.sleep(forTimeInterval: 0.1)
                        events.withLock { $0.append("A's call returns") }
                    }
                    return .none
                },
                receiveCompletion: { _ in }))
        let threads = Locked<[String: UInt]>([:])
        runConcurrently(threads: 2) { index in
            threads.withLock { $0[index == 0 ? "A" : "B"] = Self.thread() }
            if index == 0 {
                sendFirst(1)
            } else {
                aInside.wait()
                sendQueued(2)  // no demand left: waits in the operator
                bAboutToRequest.signal()
                subscription.current?.request(.max(1))
                events.withLock { $0.append("B's request returns") }
            }
        }
        let a = threads.current["A"]!
        let b = threads.current["B"]!
        #expect(deliveries.current == [Delivery(value: 1, thread: a), Delivery(value: 2, thread: b)])
        #expect(events.current == ["A's call returns", "B's request returns"])
        subscription.current?.cancel()
    }
}
