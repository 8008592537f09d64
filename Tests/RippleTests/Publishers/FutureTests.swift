import Foundation
import Ripple
import Testing

@Suite(.exitTestWatchdog) struct FutureTests {
    // Rule 20
    @Test func runsItsClosureInInit() {
        let ran = Locked(0)
        _ = Future<Int, Never> { _ in ran.withLock { $0 += 1 } }
        #expect(ran.current == 1)
    }

    @Test func promiseCountsOnce() {
        let future = Future<Int, TestError> { promise in
            promise(.success(1))
            promise(.success(2))
            promise(.failure(TestError()))
        }
        #expect(Recorder(for: future).events == [.subscription, .value(1), .finished])
    }

    @Test func successWaitsForDemand() {
        let future = Future<Int, Never> { $0(.success(5)) }
        let recorder = Recorder(for: future, demand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(5), .finished])
    }

    @Test func failureNeedsNoDemand() {
        let future = Future<Int, TestError> { $0(.failure(TestError(id: 9))) }
        let recorder = Recorder(for: future, demand: nil)
        #expect(recorder.events == [.subscription, .failure("TestError(9)")])
    }

    @Test func laterResolutionReachesEverySubscriberInOrder() {
        let promiseBox = Locked<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { promise in promiseBox.withLock { $0 = promise } }
        let order = Locked<[String]>([])
        let a = future.sink { order.withLock { $0.append("a\($0.count)") }; _ = $0 }
        let waiting = Recorder(for: future, demand: nil)
        let b = future.sink { _ in order.withLock { $0.append("b") } }
        promiseBox.withLock { $0 }?(.success(1))
        #expect(order.current == ["a0", "b"])
        #expect(waiting.events == [.subscription])
        waiting.request(.max(1))
        #expect(waiting.events == [.subscription, .value(1), .finished])
        a.cancel()
        b.cancel()
    }

    /// A future already resolved serves a request made inside `receive(subscription:)` at once,
    /// as `Just` does: the value and `.finished` arrive before that request returns, so an
    /// operator that asks in its own `receive(subscription:)` (`buffer`'s prefetch) holds the value
    /// before it hands its subscription on. Without a request, a failure still arrives right
    /// after `receive(subscription:)` returns.
    @Test func resolvedFutureDeliversInsideTheRequestThatAsksForIt() {
        func log<F: Error>(_ future: Future<Int, F>, requesting: Bool) -> [String] {
            let log = Locked<[String]>([])
            future.subscribe(
                AnySubscriber<Int, F>(
                    receiveSubscription: { subscription in
                        log.withLock { $0.append("subscription") }
                        if requesting { subscription.request(.max(1)) }
                        log.withLock { $0.append("returned") }
                    },
                    receiveValue: { value in
                        log.withLock { $0.append("value \(value)") }
                        return .none
                    },
                    receiveCompletion: { completion in
                        let name = if case .finished = completion { "finished" } else { "failure" }
                        log.withLock { $0.append(name) }
                    }))
            return log.current
        }
        let succeeded = Future<Int, Never> { $0(.success(3)) }
        #expect(log(succeeded, requesting: true) == ["subscription", "value 3", "finished", "returned"])
        #expect(log(succeeded, requesting: false) == ["subscription", "returned"])
        let failed = Future<Int, TestError> { $0(.failure(TestError())) }
        #expect(log(failed, requesting: true) == ["subscription", "failure", "returned"])
        #expect(log(failed, requesting: false) == ["subscription", "returned", "failure"])
    }

    @Test func lateSubscribersGetTheStoredResult() {
        let future = Future<String, Never> { $0(.success("done")) }
        _ = Recorder(for: future)
        #expect(Recorder(for: future).events == [.subscription, .value("done"), .finished])
    }

    @Test func cancelledSubscriberIsNotCalled() {
        let promiseBox = Locked<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { promise in promiseBox.withLock { $0 = promise } }
        let recorder = Recorder(for: future)
        recorder.cancel()
        promiseBox.withLock { $0 }?(.success(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func promiseCanBeFulfilledFromAnotherThread() async {
        let future = Future<Int, Never> { promise in
            Thread.detachNewThread { promise(.success(42)) }
        }
        #expect(await future.value == 42)
    }

    @Test func asyncValueThrowsTheFailure() async throws {
        let future = Future<Int, TestError> { $0(.failure(TestError(id: 5))) }
        await #expect(throws: TestError(id: 5)) { try await future.value }
        let success = Future<Int, TestError> { $0(.success(3)) }
        #expect(try await success.value == 3)
    }

    @Test func bridgesACallbackAPI() async throws {
        func legacyFetch(_ id: Int, completion: @escaping @Sendable (Result<String, TestError>) -> Void) {
            Thread.detachNewThread { completion(id > 0 ? .success("user\(id)") : .failure(TestError(id: id))) }
        }
        let ok = Future<String, TestError> { promise in legacyFetch(1, completion: promise) }
        let bad = Future<String, TestError> { promise in legacyFetch(-1, completion: promise) }
        #expect(try await ok.value == "user1")
        await #expect(throws: TestError(id: -1)) { try await bad.value }
    }

    // Rule 7
    @Test func releasedAfterCompletion() {
        var future: Future<Int, Never>? = Future { $0(.success(1)) }
        let weakFuture = WeakRef(future)
        let recorder = Recorder(for: future!)
        future = nil
        #expect(weakFuture.object == nil)
        #expect(recorder.isCompleted)
    }

    // Rule 1
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Recorder(for: Future<Int, Never> { _ in }, demand: nil).request(.none)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Future: demand must be greater than zero"))
    }
}


@Suite struct FutureLifetimeTests {
    @Test func cancelledSubscriptionsOfAnUnresolvedFutureAreReleased() {
        let future = Future<Int, Never> { _ in }
        var weakSubscriptions: [WeakRef<AnyObject>] = []
        for _ in 0..<100 {
            let recorder = Recorder(for: future)
            weakSubscriptions.append(WeakRef(recorder.subscription as AnyObject))
            recorder.cancel()
        }
        #expect(weakSubscriptions.allSatisfy { $0.object == nil })
    }

    @Test func unresolvedFutureIsReleasedAfterItsSubscribersCancel() {
        var future: Future<Int, Never>? = Future { _ in }
        let weakFuture = WeakRef(future)
        let recorder = Recorder(for: future!)
        future = nil
        #expect(weakFuture.object != nil)  // the live subscription keeps it, as in Combine
        recorder.cancel()
        #expect(weakFuture.object == nil)
    }
}
