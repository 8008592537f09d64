import Foundation
import Ripple
import Testing

@Suite(.exitTestWatchdog) struct AsyncSequencePublisherTests {
    @Test func republishesEveryElementThenFinishes() async {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let recorder = Recorder(for: stream.publisher)
        #expect(await eventually { recorder.isCompleted })
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func iteratesOnlyWhileThereIsDemand() async {
        let pulled = Locked(0)
        let stream = AsyncStream<Int>(unfolding: {
            pulled.withLock { $0 += 1; return $0 }
        })
        let recorder = Recorder(for: stream.publisher, demand: nil)
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(pulled.current == 0)
        recorder.request(.max(2))
        #expect(await eventually { recorder.values.count == 2 })
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(recorder.values == [1, 2])
        #expect(pulled.current == 2)
        recorder.cancel()
    }

    @Test func thrownErrorFails() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError(id: 7))
        }
        let recorder = Recorder(for: stream.publisher)
        #expect(await eventually { recorder.isCompleted })
        #expect(recorder.events == [.subscription, .value(1), .failure("TestError(7)")])
    }

    @Test func cancelStopsIteration() async {
        let pulled = Locked(0)
        let stream = AsyncStream<Int>(unfolding: {
            try? await Task.sleep(nanoseconds: 1_000_000)
            return pulled.withLock { $0 += 1; return $0 }
        })
        let recorder = Recorder(for: stream.publisher)
        #expect(await eventually { recorder.values.count >= 2 })
        recorder.cancel()
        let seen = recorder.values.count
        try? await Task.sleep(nanoseconds: 30_000_000)
        #expect(recorder.values.count <= seen + 1)
        #expect(!recorder.isCompleted)
    }

    @Test func zeroDemandTraps() async {
        await #expect(processExitsWith: .failure) {
            let recorder = Recorder(for: AsyncStream<Int> { $0.finish() }.publisher, demand: nil)
            recorder.request(.none)
        }
    }
}

@Suite struct AsyncFutureTests {
    @Test func valueFromAnAsyncOperation() async {
        let future = Future { () async -> Int in 42 }
        #expect(await future.value == 42)
    }

    @Test func throwingOperationFails() async {
        let future = Future { () async throws -> Int in throw TestError(id: 3) }
        let recorder = Recorder(for: future)
        #expect(await eventually { recorder.isCompleted })
        #expect(recorder.events == [.subscription, .failure("TestError(3)")])
    }
}
