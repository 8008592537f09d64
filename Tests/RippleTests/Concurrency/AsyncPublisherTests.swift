import Foundation
import Ripple
import Testing

@Suite struct AsyncPublisherTests {
    // Rule 31
    @Test func iteratesAllValues() async {
        var seen: [Int] = []
        for await value in [1, 2, 3].publisher.values {
            seen.append(value)
        }
        #expect(seen == [1, 2, 3])
    }

    @Test func requestsOneElementAtATime() async {
        let upstream = ManualPublisher<Int, Never>()
        var iterator = upstream.values.makeAsyncIterator()
        #expect(upstream.subscription.requests.isEmpty)
        let task = Task { await iterator.next() }
        #expect(await eventually { !upstream.subscription.requests.isEmpty })
        #expect(upstream.subscription.requests == [.max(1)])
        upstream.send(7)
        #expect(await task.value == 7)
    }

    // Combine resumes the next() calls waiting when a value arrives before the subscription with
    // nil, and still asks for their demand once the subscription comes (OpenCombine's
    // PublisherConcurrencyTests.testNonThrowingReceiveInputBeforeSubscription and
    // testThrowingReceiveInputBeforeSubscription, recorded against Combine).
    @Test func inputBeforeTheSubscriptionResumesTheWaitingCallsWithNil() async {
        let upstream = UnsubscribedPublisher<Int, Never>()
        let iterator = upstream.values.makeAsyncIterator()
        let results = Locked<[Int?]>([])
        let tasks = (0..<2).map { _ in
            Task {
                var copy = iterator
                let value = await copy.next()
                results.withLock { $0.append(value) }
            }
        }
        // The value is sent again until both calls are resumed: either may start waiting late.
        let resumed = await eventually {
            #expect(upstream.send(42) == .none)
            return results.current.count == 2
        }
        #expect(resumed)
        #expect(results.current == [nil, nil])
        for task in tasks { task.cancel() }
        let subscription = RecordingSubscription()
        upstream.sendSubscription(subscription)
        #expect(resumed ? subscription.requests == [.max(2)] : true)
    }

    @Test func throwingVariantResumesTheWaitingCallsWithNilOnInputBeforeTheSubscription() async {
        let upstream = UnsubscribedPublisher<Int, TestError>()
        let iterator = upstream.values.makeAsyncIterator()
        let results = Locked<[Int?]>([])
        let tasks = (0..<2).map { _ in
            Task {
                var copy = iterator
                let value = try? await copy.next()
                results.withLock { $0.append(value) }
            }
        }
        let resumed = await eventually {
            upstream.send(42)
            return results.current.count == 2
        }
        #expect(resumed)
        #expect(results.current == [nil, nil])
        for task in tasks { task.cancel() }
    }

    @Test func throwingVariantThrowsTheFailure() async {
        let publisher = Record<Int, TestError>(output: [1], completion: .failure(TestError(id: 3)))
        var seen: [Int] = []
        await #expect(throws: TestError(id: 3)) {
            for try await value in publisher.values {
                seen.append(value)
            }
        }
        #expect(seen == [1])
    }

    @Test func throwingVariantEndsOnFinish() async throws {
        var seen: [Int] = []
        for try await value in [4, 5].publisher.setFailureType(to: TestError.self).values {
            seen.append(value)
        }
        #expect(seen == [4, 5])
    }

    @Test func cancellingTheTaskCancelsTheSubscription() async {
        let upstream = ManualPublisher<Int, Never>()
        let task = Task {
            var count = 0
            for await _ in upstream.values { count += 1 }
            return count
        }
        #expect(await eventually { !upstream.subscription.requests.isEmpty })
        task.cancel()
        #expect(await task.value == 0)
        #expect(upstream.subscription.cancelled)
    }

    @Test func subjectValuesSentFromAnotherThread() async {
        let subject = PassthroughSubject<Int, Never>()
        let done = Locked(false)
        let task = Task {
            var seen: [Int] = []
            for await value in subject.values {
                seen.append(value)
                if seen.count == 3 { break }
            }
            done.withLock { $0 = true }
            return seen
        }
        // Values are only delivered while the loop waits with demand, so send until all arrive —
        // however long the consumer takes to be scheduled — then finish, so a failure cannot hang.
        let sender = Thread {
            var next = 1
            let deadline = Date().addingTimeInterval(60)
            while !done.current, Date() < deadline {
                subject.send(next)
                next += 1
                usleep(200)
            }
            subject.send(completion: .finished)
        }
        sender.start()
        let seen = await task.value
        #expect(seen.count == 3)
        #expect(seen == seen.sorted())
    }
}

/// A publisher that keeps its subscriber without sending it a subscription until the test does,
/// so a test can send a value before the subscription (a protocol violation).
private final class UnsubscribedPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let subscriberBox = Locked<AnySubscriber<Output, Failure>?>(nil)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriberBox.withLock { $0 = AnySubscriber(subscriber) }
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriberBox.withLock { $0 }?.receive(value) ?? .none
    }

    func sendSubscription(_ subscription: any Subscription) {
        subscriberBox.withLock { $0 }?.receive(subscription: subscription)
    }
}
