import Ripple
import Testing

@Suite struct ShareTests {
    // Rule 27: one unlimited upstream subscription for every subscriber.
    @Test func oneUnlimitedUpstreamSubscription() {
        let subscriptions = Locked(0)
        let upstream = ManualPublisher<Int, Never>()
        let shared = upstream.handleEvents(receiveSubscription: { _ in subscriptions.withLock { $0 += 1 } }).share()
        let a = Recorder(for: shared)
        let b = Recorder(for: shared)
        #expect(subscriptions.current == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        #expect(a.values == [1] && b.values == [1])
    }

    // Rule 27: late subscribers see only later values.
    @Test func lateSubscribersSeeOnlyLaterValues() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        let early = Recorder(for: shared)
        upstream.send(1)
        let late = Recorder(for: shared)
        upstream.send(2)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
    }

    // Rule 27: subscribers after completion get the completion at once.
    @Test func subscribersAfterCompletionGetItAtOnce() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        let early = Recorder(for: shared)
        upstream.send(completion: .finished)
        #expect(early.events == [.subscription, .finished])
        let late = Recorder(for: shared)
        #expect(late.events == [.subscription, .finished])
    }

    @Test func lastSubscriberLeavingCancelsUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let shared = upstream.share()
        let a = Recorder(for: shared)
        let b = Recorder(for: shared)
        a.cancel()
        #expect(!upstream.subscription.cancelled)
        b.cancel()
        #expect(upstream.subscription.cancelled)
    }

    @Test func equalOnlyToItself() {
        let shared = Just(1).share()
        #expect(shared == shared)
        #expect(shared != Just(1).share())
    }

    @Test func reentrantSubscribeFromInsideDelivery() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        let inner = Locked<Recorder<Int, Never>?>(nil)
        let outer = Recorder<Int, Never>(onValue: { _ in
            inner.withLock { $0 = $0 ?? Recorder(for: shared) }
            return .none
        })
        shared.subscribe(outer)
        upstream.send(1)
        upstream.send(2)
        #expect(outer.values == [1, 2])
        #expect(inner.current?.values == [2])
    }
}

@Suite struct MulticastTests {
    @Test func nothingFlowsUntilConnect() {
        let multicast = [1, 2].publisher.multicast { PassthroughSubject<Int, Never>() }
        let a = Recorder(for: multicast)
        let b = Recorder(for: multicast)
        #expect(a.values.isEmpty)
        let connection = multicast.connect()
        #expect(a.values == [1, 2] && b.values == [1, 2])
        #expect(a.isCompleted)
        _ = connection
    }

    @Test func subjectIsCreatedOnce() {
        let created = Locked(0)
        let multicast = PassthroughSubject<Int, Never>().multicast { () -> PassthroughSubject<Int, Never> in
            created.withLock { $0 += 1 }
            return PassthroughSubject()
        }
        _ = Recorder(for: multicast)
        _ = Recorder(for: multicast)
        _ = multicast.connect()
        #expect(created.current == 1)
    }

    @Test func multicastSubjectAndCancellingTheConnection() {
        let upstream = ManualPublisher<Int, Never>()
        let subject = CurrentValueSubject<Int, Never>(0)
        let multicast = upstream.multicast(subject: subject)
        let recorder = Recorder(for: multicast)
        let connection = multicast.connect()
        upstream.send(5)
        #expect(recorder.values == [0, 5])
        connection.cancel()
        #expect(upstream.subscription.cancelled)
    }

    @Test func makeConnectable() {
        let connectable = Just(3).makeConnectable()
        let recorder = Recorder(for: connectable)
        #expect(recorder.values.isEmpty)
        _ = connectable.connect()
        #expect(recorder.events == [.subscription, .value(3), .finished])
    }

    @Test func autoconnectConnectsOnFirstSubscriber() {
        let connectable = Just(4).makeConnectable().autoconnect()
        #expect(Recorder(for: connectable).values == [4])
    }
}
