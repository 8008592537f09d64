import Ripple
import Testing

@Suite struct DropWhileTests {
    @Test func dropsUntilThePredicateFailsThenPassesEverything() {
        #expect(Recorder(for: [1, 2, 5, 1, 6].publisher.drop { $0 < 3 }).values == [5, 1, 6])
    }

    // Rule 24
    @Test func droppedElementsReturnDemand() {
        let upstream = ManualPublisher<Int, Never>()
        _ = Recorder(for: upstream.drop { $0 < 3 }, demand: .max(1))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(3) == .none)
    }

    @Test func tryDropWhileThrowCancelsAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryDrop { value in
            if value == 2 { throw TestError(id: 2) }
            return true
        })
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(2)")])
    }

    @Test func tryDropWhileStopsAskingOnceItPasses() {
        let asked = Locked(0)
        let recorder = Recorder(for: [1, 5, 1].publisher.tryDrop { value in
            asked.withLock { $0 += 1 }
            return value < 3
        })
        #expect(recorder.values == [5, 1])
        #expect(asked.current == 2)
    }
}
