import Foundation
import Ripple
import Testing

@Suite(.exitTestWatchdog) struct PassthroughSubjectTests {
    // Rule 5
    @Test func deliversNothingBeforeTheFirstRequest() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject, demand: nil)
        subject.send(1)
        recorder.request(.max(1))
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(2)])
    }

    // Rule 9
    @Test func skipsSubscribersWithoutDemandAndDoesNotBuffer() {
        let subject = PassthroughSubject<Int, Never>()
        let hungry = Recorder(for: subject)
        let limited = Recorder(for: subject, demand: .max(1))
        subject.send(1)
        subject.send(2)
        limited.request(.max(1))
        subject.send(3)
        #expect(hungry.values == [1, 2, 3])
        #expect(limited.values == [1, 3])
    }

    // Rule 10
    @Test func onlyTheFirstCompletionIsDelivered() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder(for: subject)
        subject.send(1)
        subject.send(completion: .failure(TestError(id: 1)))
        subject.send(completion: .finished)
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1), .failure("TestError(1)")])
    }

    @Test func completionIgnoresLaterSendsMadeFromInsideReceiveCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(onCompletion: { _ in
            subject.send(99)
            subject.send(completion: .finished)
        })
        subject.subscribe(recorder)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func completionNeedsNoDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject, demand: nil)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    // Rule 11
    @Test func lateSubscriberGetsEmptySubscriptionThenStoredCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        subject.send(completion: .failure(TestError(id: 3)))
        let recorder = Recorder(for: subject, demand: nil)
        #expect(recorder.events == [.subscription, .failure("TestError(3)")])
        #expect(recorder.subscription?.combineIdentifier == Subscriptions.empty.combineIdentifier)
    }

    // Rule 12
    @Test func upstreamIsRequestedOnlyOnceThereIsDownstreamDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = RecordingSubscription()
        subject.send(subscription: upstream)
        #expect(upstream.requests.isEmpty)
        let recorder = Recorder(for: subject, demand: nil)
        #expect(upstream.requests.isEmpty)
        recorder.request(.max(1))
        #expect(upstream.requests == [.unlimited])
        recorder.request(.max(1))
        let late = RecordingSubscription()
        subject.send(subscription: late)
        #expect(upstream.requests == [.unlimited])
        #expect(late.requests == [.unlimited])
    }

    @Test func cancelsUpstreamsOnDeinit() {
        let upstream = RecordingSubscription()
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.send(subscription: upstream)
        }
        #expect(upstream.events == [.cancel])
    }

    @Test func subscribedToAPublisherItForwardsValuesAndCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject)
        let connection = [1, 2, 3].publisher.subscribe(subject)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        connection.cancel()
    }

    // Rule 14
    @Test func deliversInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let order = Locked<[Int]>([])
        var tokens: [AnyCancellable] = []
        for index in 0..<50 {
            tokens.append(subject.sink { _ in order.withLock { $0.append(index) } })
        }
        // Cancel some in the middle; the rest keep their order.
        for index in stride(from: 1, to: 50, by: 3) { tokens[index].cancel() }
        subject.send(0)
        let expected = (0..<50).filter { ($0 - 1) % 3 != 0 }
        #expect(order.current == expected)
        // A new subscriber goes last.
        order.withLock { $0 = [] }
        tokens.append(subject.sink { _ in order.withLock { $0.append(100) } })
        subject.send(1)
        #expect(order.current == expected + [100])
    }

    // Rule 8
    @Test func oneSubscriberAttachedTwiceReceivesEachValueTwice() {
        let subject = PassthroughSubject<Int, Never>()
        let values = Locked<[Int]>([])
        let subscriptions = Locked<[any Subscription]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                subscriptions.withLock { $0.append(subscription) }
                subscription.request(.unlimited)
            },
            receiveValue: { value in
                values.withLock { $0.append(value) }
                return .none
            })
        subject.subscribe(subscriber)
        subject.subscribe(subscriber)
        subject.send(1)
        subscriptions.current[0].cancel()
        subject.send(2)
        #expect(values.current == [1, 1, 2])
    }

    // Rule 1 (subjects)
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = Recorder(for: subject, demand: nil)
            recorder.request(.none)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("PassthroughSubject: demand must be greater than zero"))
    }

    @Test func voidConvenienceSend() {
        let subject = PassthroughSubject<Void, Never>()
        let count = Locked(0)
        let token = subject.sink { count.withLock { $0 += 1 } }
        subject.send()
        subject.send()
        #expect(count.current == 2)
        token.cancel()
    }
}
