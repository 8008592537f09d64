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
