import Ripple
import Testing

@Suite struct DropFirstTests {
    @Test func omitsTheFirstNReturningMaxOneEach() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.dropFirst(2), demand: .max(1))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        upstream.send(3)
        #expect(recorder.values == [3])
    }

    @Test func defaultDropsOne() {
        #expect(Recorder(for: (1...3).publisher.dropFirst()).values == [2, 3])
    }

    @Test func eachSubscriptionCountsAfresh() {
        let publisher = (1...3).publisher.dropFirst(1)
        #expect(Recorder(for: publisher).values == [2, 3])
        #expect(Recorder(for: publisher).values == [2, 3])
    }
}
