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
