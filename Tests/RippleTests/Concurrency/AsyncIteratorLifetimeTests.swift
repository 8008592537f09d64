import Foundation
import Ripple
import Testing

/// The iterator of `values` owns its subscription (rule T5): leaving the loop or dropping the
/// iterator cancels it; concurrent `next()` callers are each resumed; values pushed while nobody
/// waits are dropped unless a buffer keeps them.
@Suite struct AsyncIteratorLifetimeTests {
    /// Counts subscriptions that were made and not yet cancelled or completed.
    final class LiveCount: @unchecked Sendable {
        let count = Locked(0)
        let cancels = Locked(0)
        /// The upstream subscriptions, held weakly, to prove they were released.
        let subscriptions = Locked<[WeakRef<AnyObject>]>([])

        func track<P: Publisher>(_ publisher: P) -> Publishers.HandleEvents<P> {
            publisher.handleEvents(
                receiveSubscription: { subscription in
                    self.count.withLock { $0 += 1 }
                    self.subscriptions.withLock { $0.append(WeakRef(subscription as AnyObject)) }
                },
                receiveCompletion: { _ in self.count.withLock { $0 -= 1 } },
                receiveCancel: {
                    self.count.withLock { $0 -= 1 }
                    self.cancels.withLock { $0 += 1 }
                })
        }

        var released: Bool { subscriptions.current.allSatisfy { $0.object == nil } }
    }

    @Test func breakCancelsTheSubscription() async {
        let live = LiveCount()
        var seen: [Int] = []
        for await value in live.track([1, 2, 3].publisher).values {
            seen.append(value)
            if value == 2 { break }
        }
        #expect(seen == [1, 2])
        #expect(live.cancels.current == 1)
        #expect(live.count.current == 0)
    }

    @Test func returnCancelsTheSubscription() async {
        let live = LiveCount()
        func firstEven() async -> Int? {
            for await value in live.track([1, 2, 3].publisher).values where value % 2 == 0 {
                return value
            }
            return nil
        }
        #expect(await firstEven() == 2)
        #expect(live.cancels.current == 1)
        #expect(live.count.current == 0)
    }

    @Test func aThrowCancelsTheSubscription() async {
        let live = LiveCount()
        await #expect(throws: TestError(id: 9)) {
            for try await value in live.track([1, 2, 3].publisher.setFailureType(to: TestError.self)).values {
                if value == 1 { throw TestError(id: 9) }
            }
        }
        #expect(live.cancels.current == 1)
        #expect(live.count.current == 0)
    }

    @Test func droppingTheIteratorCancelsTheSubscription() async {
        let live = LiveCount()
        let subject = PassthroughSubject<Int, Never>()
        do {
            let iterator = live.track(subject).values.makeAsyncIterator()
            #expect(live.count.current == 1)
            _ = iterator
        }
        #expect(live.cancels.current == 1)
        #expect(live.count.current == 0)
        #expect(live.released)
    }

    @Test func finishingReleasesWithoutACancel() async {
        let live = LiveCount()
        var seen: [Int] = []
        for await value in live.track([1, 2].publisher).values { seen.append(value) }
        #expect(seen == [1, 2])
        #expect(live.cancels.current == 0)
        #expect(live.count.current == 0)
    }

    /// The server that streamed `$todos.values` once per request: every request that leaves its
    /// loop early must leave no subscription behind (it used to leak one per request).
    @Test func threeThousandEarlyExitsLeaveNoSubscription() async {
        final class Todos: ObservableObject {
            @Published var items: [String] = ["write tests"]
        }
        let model = Todos()
        let live = LiveCount()
        var answered = 0
        for request in 0..<3_000 {
            for await items in live.track(model.$items).values {
                if !items.isEmpty { answered += 1 }
                break
            }
            if request % 1_000 == 999 {
                model.items.append("request \(request)")
            }
        }
        #expect(answered == 3_000)
        #expect(live.count.current == 0)
        #expect(live.cancels.current == 3_000)
        #expect(live.released)
    }

    @Test func concurrentNextCallsAreEachResumed() async {
        let upstream = ManualPublisher<Int, Never>()
        let iterator = upstream.values.makeAsyncIterator()
        let tasks = (0..<3).map { _ in
            Task { () -> Int? in
                var iterator = iterator
                return await iterator.next()
            }
        }
        #expect(await eventually { upstream.subscription.requests.count == 3 })
        #expect(upstream.subscription.requests == [.max(1), .max(1), .max(1)])
        for value in [10, 20, 30] {
            upstream.send(value)
        }
        var results: [Int] = []
        for task in tasks {
            if let value = await task.value { results.append(value) }
        }
        #expect(results.sorted() == [10, 20, 30])
        _ = iterator
    }

    @Test func completionResumesEveryWaitingCall() async {
        let upstream = ManualPublisher<Int, Never>()
        let iterator = upstream.values.makeAsyncIterator()
        let tasks = (0..<3).map { _ in
            Task { () -> Int? in
                var iterator = iterator
                return await iterator.next()
            }
        }
        #expect(await eventually { upstream.subscription.requests.count == 3 })
        upstream.send(completion: .finished)
        var results: [Int?] = []
        for task in tasks { results.append(await task.value) }
        #expect(results == [nil, nil, nil])
        _ = iterator
    }

    @Test func aFailureIsThrownByOneWaitingCallTheOthersEnd() async {
        let upstream = ManualPublisher<Int, TestError>()
        let iterator = upstream.values.makeAsyncIterator()
        let tasks = (0..<2).map { _ in
            Task { () -> Result<Int?, TestError> in
                var iterator = iterator
                do {
                    return .success(try await iterator.next())
                } catch {
                    return .failure(error as! TestError)
                }
            }
        }
        #expect(await eventually { upstream.subscription.requests.count == 2 })
        upstream.send(completion: .failure(TestError(id: 2)))
        var outcomes: [String] = []
        for task in tasks {
            switch await task.value {
            case .success(let value): outcomes.append("value \(String(describing: value))")
            case .failure(let error): outcomes.append("threw \(error)")
            }
        }
        #expect(outcomes.sorted() == ["threw TestError(2)", "value nil"])
        _ = iterator
    }

    @Test func cancellingOneWaitingTaskEndsTheOthers() async {
        let upstream = ManualPublisher<Int, Never>()
        let iterator = upstream.values.makeAsyncIterator()
        let tasks = (0..<2).map { _ in
            Task { () -> Int? in
                var iterator = iterator
                return await iterator.next()
            }
        }
        #expect(await eventually { upstream.subscription.requests.count == 2 })
        tasks[0].cancel()
        #expect(await tasks[0].value == nil)
        #expect(await tasks[1].value == nil)
        #expect(upstream.subscription.cancelled)
        _ = iterator
    }

    @Test func bothAsyncPublishersAreSendableWhenTheirUpstreamIs() async throws {
        // Sending them into detached tasks compiles only because they are Sendable.
        let values = Just(1).values
        let throwing = [2, 3].publisher.setFailureType(to: TestError.self).values
        let seen = await Task.detached {
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            return seen
        }.value
        let thrown = try await Task.detached {
            var seen: [Int] = []
            for try await value in throwing { seen.append(value) }
            return seen
        }.value
        #expect(seen == [1])
        #expect(thrown == [2, 3])
    }

    /// Without a buffer, values a subject sends while no `next()` waits are dropped (Combine does
    /// the same); `buffer` keeps them.
    @Test func valuesBetweenNextCallsAreDroppedWithoutABuffer() async {
        let subject = PassthroughSubject<Int, Never>()
        let requests = Locked(0)
        let iterator = subject.handleEvents(receiveRequest: { _ in requests.withLock { $0 += 1 } })
            .values.makeAsyncIterator()
        subject.send(1)  // nobody waits: dropped
        let first = Task { () -> Int? in
            var iterator = iterator
            return await iterator.next()
        }
        #expect(await eventually { requests.current == 1 })
        subject.send(2)
        #expect(await first.value == 2)
        subject.send(3)  // the loop body would be running here: dropped
        let second = Task { () -> Int? in
            var iterator = iterator
            return await iterator.next()
        }
        #expect(await eventually { requests.current == 2 })
        subject.send(4)
        #expect(await second.value == 4)
        _ = iterator
    }

    @Test func aBufferKeepsValuesSentBetweenNextCalls() async {
        let subject = PassthroughSubject<Int, Never>()
        var iterator = subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropOldest)
            .values.makeAsyncIterator()
        subject.send(1)
        subject.send(2)
        #expect(await iterator.next() == 1)
        subject.send(3)
        subject.send(completion: .finished)
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == 3)
        #expect(await iterator.next() == nil)
    }
}
