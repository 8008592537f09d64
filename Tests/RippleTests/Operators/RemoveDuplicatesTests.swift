import Ripple
import Testing

@Suite struct RemoveDuplicatesTests {
    @Test func dropsConsecutiveDuplicatesReturningMaxOne() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.removeDuplicates())
        upstream.send(1)
        #expect(upstream.send(1) == .max(1))
        upstream.send(2)
        upstream.send(1)
        #expect(recorder.values == [1, 2, 1])
    }

    @Test func byPredicate() {
        let recorder = Recorder(for: [1, 11, 2, 12, 13].publisher.removeDuplicates { $0 % 10 == $1 % 10 })
        #expect(recorder.values == [1, 2, 13])
    }

    @Test func eachSubscriptionHasItsOwnMemory() {
        let publisher = [1, 1, 2].publisher.removeDuplicates()
        #expect(Recorder(for: publisher).values == [1, 2])
        #expect(Recorder(for: publisher).values == [1, 2])
    }
}
