import Ripple
import Testing

@Suite struct HandleEventsTests {
    @Test func reportsEveryEventInOrder() {
        let log = Locked<[String]>([])
        let publisher = [1, 2].publisher.handleEvents(
            receiveSubscription: { _ in log.withLock { $0.append("subscription") } },
            receiveOutput: { value in log.withLock { $0.append("output \(value)") } },
            receiveCompletion: { _ in log.withLock { $0.append("completion") } },
            receiveCancel: { log.withLock { $0.append("cancel") } },
            receiveRequest: { demand in log.withLock { $0.append("request \(demand)") } })
        let recorder = Recorder(for: publisher, demand: .max(1))
        recorder.request(.max(5))
        #expect(log.current == ["subscription", "request max(1)", "output 1", "request max(5)", "output 2", "completion"])
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func reportsCancelOnce() {
        let cancels = Locked(0)
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.handleEvents(receiveCancel: { cancels.withLock { $0 += 1 } }))
        recorder.cancel()
        recorder.cancel()
        #expect(cancels.current == 1)
        #expect(upstream.subscription.cancelled)
        upstream.send(1)
        #expect(recorder.values.isEmpty)
    }
}

/// A publisher that keeps its subscriber and sends it nothing until the test says so.
private final class HeldPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let held = Locked<(subscriber: AnySubscriber<Output, Failure>, subscription: (any Subscription)?)?>(nil)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        held.withLock { $0 = (AnySubscriber(subscriber), subscriber as? any Subscription) }
    }

    /// The operator's inner, which is its subscriber upstream and its subscription downstream.
    var inner: (any Subscription)? { held.withLock { $0?.subscription } }

    func sendSubscription(_ subscription: any Subscription) {
        held.withLock { $0?.subscriber }?.receive(subscription: subscription)
    }
}

extension HandleEventsTests {
    /// A cancel that reaches `handleEvents` before its upstream subscription (through the
    /// subscriber it attached upstream, which is also its subscription) is final: no closure
    /// runs, neither then nor when the subscription arrives; that subscription is cancelled at
    /// once, and nothing reaches the downstream. (Combine's, in a test recorded against it, runs
    /// `receiveCancel` at the cancel and `receiveSubscription` when the subscription arrives, and
    /// leaves that subscription alone.)
    @Test func aCancelBeforeTheUpstreamSubscriptionRunsNoClosure() throws {
        let log = Locked<[String]>([])
        let upstream = HeldPublisher<Int, Never>()
        let recorder = Recorder(
            for: upstream.handleEvents(
                receiveSubscription: { _ in log.append("subscription") },
                receiveOutput: { log.append("output \($0)") },
                receiveCompletion: { _ in log.append("completion") },
                receiveCancel: { log.append("cancel") },
                receiveRequest: { log.append("request \($0)") }))
        let inner = try #require(upstream.inner)
        inner.cancel()
        #expect(log.current == [])
        let subscription = RecordingSubscription()
        upstream.sendSubscription(subscription)
        #expect(log.current == [])
        #expect(subscription.events == [.cancel])
        #expect(recorder.events == [])
    }
}
