import Ripple
import Testing

@Suite struct TryMapTests {
    @Test func transformsValues() {
        let recorder = Recorder(for: [1, 2].publisher.tryMap { $0 * 2 })
        #expect(recorder.events == [.subscription, .value(2), .value(4), .finished])
    }

    // Rule 23: a throw cancels upstream *before* the failure goes downstream.
    @Test func throwingCancelsUpstreamBeforeSendingFailure() {
        let upstream = ManualPublisher<Int, Never>()
        let cancelledBeforeFailure = Locked<Bool?>(nil)
        let recorder = Recorder<Int, any Error>(onCompletion: { _ in
            cancelledBeforeFailure.withLock { $0 = upstream.subscription.cancelled }
        })
        upstream.tryMap { value -> Int in
            if value == 2 { throw TestError(id: 2) }
            return value
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .failure("TestError(2)")])
        #expect(cancelledBeforeFailure.current == true)
    }

    @Test func upstreamFailureIsErased() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 7)).tryMap { $0 })
        #expect(recorder.events == [.subscription, .failure("TestError(7)")])
    }

    @Test func tryMapMapFuses() {
        let fused: Publishers.TryMap<Publishers.Sequence<[Int], Never>, Int> = [1].publisher.tryMap { $0 }.map { $0 + 1 }
        #expect(Recorder(for: fused).values == [2])
    }
}
