import Ripple
import Testing

@Suite struct HandleEventsTests {
    @Test func reportsEveryEventInOrder() {
        let log = Locked<[String]>([])
        let publisher = [1, 2].publisher.handleEvents(
            receiveSubscription: { _ in log.withLock { $0.append("subscription") } },
            receiveOutput: { value in log.withLock { $0.append("output \(value)") } },
            receiveCompletion: { _ in log.withLock { $0.append("completion") } },
            receiveCancel: { log.withLock { $0.append("cancel") } },
            receiveRequest: { demand in log.withLock { $0.append("request \(demand)") } })
        let recorder = Recorder(for: publisher, demand: .max(1))
        recorder.request(.max(5))
        #expect(log.current == ["subscription", "request max(1)", "output 1", "request max(5)", "output 2", "completion"])
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func reportsCancelOnce() {
        let cancels = Locked(0)
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.handleEvents(receiveCancel: { cancels.withLock { $0 += 1 } }))
        recorder.cancel()
        recorder.cancel()
        #expect(cancels.current == 1)
        #expect(upstream.subscription.cancelled)
        upstream.send(1)
        #expect(recorder.values.isEmpty)
    }
}

@Suite struct SetFailureTypeTests {
    @Test func changesTheFailureTypeOnly() {
        let publisher: Publishers.SetFailureType<Just<Int>, TestError> = Just(1).setFailureType(to: TestError.self)
        #expect(Recorder(for: publisher).events == [.subscription, .value(1), .finished])
        let again: Publishers.SetFailureType<Just<Int>, CancellationError> = publisher.setFailureType(to: CancellationError.self)
        #expect(again.upstream == Just(1))
    }
}

@Suite struct MapErrorTests {
    struct Wrapped: Error, CustomStringConvertible {
        let inner: TestError
        var description: String { "Wrapped(\(inner.id))" }
    }

    @Test func convertsTheFailure() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 3)).mapError { Wrapped(inner: $0) })
        #expect(recorder.events == [.subscription, .failure("Wrapped(3)")])
    }

    @Test func valuesPassThroughWithTheUpstreamSubscription() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.mapError { Wrapped(inner: $0) })
        #expect(recorder.subscription?.combineIdentifier == upstream.subscription.combineIdentifier)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }
}

@Suite struct ReplaceErrorTests {
    @Test func replacesFailureWithValueThenFinishes() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError()).replaceError(with: 0))
        #expect(recorder.events == [.subscription, .value(0), .finished])
    }

    @Test func replacementWaitsForDemand() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.replaceError(with: -1), demand: .max(1))
        upstream.send(1)
        upstream.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(-1), .finished])
    }

    @Test func finishedPassesThrough() {
        let recorder = Recorder(for: [1].publisher.setFailureType(to: TestError.self).replaceError(with: 0))
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func cancelReachesUpstream() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.replaceError(with: 0))
        recorder.cancel()
        #expect(upstream.subscription.cancelled)
    }
}
