import Ripple
import Testing

@Suite struct ComparisonTests {
    @Test func minAndMax() {
        #expect(Recorder(for: [3, 1, 2].publisher.min()).events == [.subscription, .value(1), .finished])
        #expect(Recorder(for: [3, 1, 4, 2].publisher.max()).events == [.subscription, .value(4), .finished])
    }

    @Test func byClosureKeepsTheFirstOfEqualElements() {
        let words = ["bb", "a", "cc", "d"]
        #expect(Recorder(for: words.publisher.min { $0.count < $1.count }).values == ["a"])
        #expect(Recorder(for: words.publisher.max { $0.count < $1.count }).values == ["bb"])
    }

    @Test func emptyJustFinishes() {
        #expect(Recorder(for: Empty<Int, Never>().min()).events == [.subscription, .finished])
    }

    /// A downstream that cancels inside receive(subscription:), then requests, ended the upstream
    /// subscription: the reducing operators ask it for nothing afterwards (cancellation is final).
    /// They asked it for `.unlimited` once receive(subscription:) returned; found by the
    /// conformance oracle once its "no request after cancel" rule stopped rewriting Ripple's side.
    @Test func asksNothingOfAnUpstreamTheDownstreamCancelledOnArrival() {
        let operators: [(ManualPublisher<Int, Never>) -> AnyPublisher<Int, any Error>] = [
            { $0.max().setFailureType(to: (any Error).self).eraseToAnyPublisher() },
            { $0.first(where: { $0 > 3 }).setFailureType(to: (any Error).self).eraseToAnyPublisher() },
            { $0.tryFirst(where: { $0 > 3 }).eraseToAnyPublisher() },
            { $0.reduce(0, +).setFailureType(to: (any Error).self).eraseToAnyPublisher() },
            { $0.count().setFailureType(to: (any Error).self).eraseToAnyPublisher() },
        ]
        for build in operators {
            let upstream = ManualPublisher<Int, Never>()
            let recorder = Recorder<Int, any Error>(demand: nil, onSubscription: {
                $0.cancel()
                $0.request(.max(2))
            })
            build(upstream).subscribe(recorder)
            #expect(upstream.subscription.cancelled)
            #expect(upstream.subscription.requests.isEmpty)
        }
    }

    @Test func waitsForDemandAndRequestsUnlimited() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.max(), demand: nil)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(5)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.values == [5])
    }

    @Test func tryMinThrowCancelsUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryMin { a, b in
            if a == 0 || b == 0 { throw TestError(id: 0) }
            return a < b
        })
        upstream.send(2)
        upstream.send(0)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(0)")])
    }

    @Test func tryMaxSucceeds() {
        #expect(Recorder(for: [1, 5, 2].publisher.tryMax(by: <)).values == [5])
    }

    @Test func failureIsForwarded() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 2)).min())
        #expect(recorder.events == [.subscription, .failure("TestError(2)")])
    }
}
