import Ripple
import Testing

@Suite struct ContainsTests {
    // Rule 26: short-circuits by cancelling upstream as soon as the answer is known.
    @Test func matchCancelsUpstreamAndPublishesTrue() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.contains(2), demand: nil)
        upstream.send(1)
        #expect(!upstream.subscription.cancelled)
        upstream.send(2)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(true), .finished])
    }

    @Test func noMatchPublishesFalseOnFinish() {
        #expect(Recorder(for: [1, 3].publisher.contains(2)).events == [.subscription, .value(false), .finished])
    }

    @Test func containsWhere() {
        #expect(Recorder(for: [1, 4].publisher.contains { $0 > 3 }).values == [true])
        #expect(Recorder(for: [1, 2].publisher.contains { $0 > 3 }).values == [false])
    }

    @Test func tryContainsWhereThrowCancelsAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryContains { value in
            if value == 9 { throw TestError(id: 9) }
            return false
        })
        upstream.send(9)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(9)")])
    }

    @Test func failureBeforeAnswerIsForwarded() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.contains(1))
        upstream.send(completion: .failure(TestError(id: 4)))
        #expect(recorder.events == [.subscription, .failure("TestError(4)")])
    }

    @Test func equatable() {
        #expect(Publishers.Contains(upstream: Just(1), output: 1) == Publishers.Contains(upstream: Just(1), output: 1))
        #expect(Publishers.Contains(upstream: Just(1), output: 1) != Publishers.Contains(upstream: Just(1), output: 2))
    }
}
