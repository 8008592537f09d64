import Ripple
import Testing

@Suite struct FilterTests {
    @Test func republishesMatchingValues() {
        let recorder = Recorder(for: (1...6).publisher.filter { $0.isMultiple(of: 2) })
        #expect(recorder.events == [.subscription, .value(2), .value(4), .value(6), .finished])
    }

    // Rule 24
    @Test func returnsMaxOneForEachDroppedValue() {
        let upstream = ManualPublisher<Int, Never>()
        _ = Recorder(for: upstream.filter { $0 > 0 }, demand: .max(1))
        #expect(upstream.send(-1) == .max(1))
        #expect(upstream.send(1) == .none)
    }

    @Test func demandIsMetDespiteDrops() {
        let recorder = Recorder(for: (1...10).publisher.filter { $0.isMultiple(of: 3) }, demand: .max(2))
        #expect(recorder.values == [3, 6])
    }

    // Rule 23
    @Test func forwardsTheUpstreamSubscription() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.filter { _ in true })
        #expect(recorder.subscription?.combineIdentifier == upstream.subscription.combineIdentifier)
    }

    // Rule 25
    @Test func filterFilterFuses() {
        let upstream = (1...20).publisher
        let fused: Publishers.Filter<ClosedRange<Int>.Publisher> = upstream.filter { $0 > 5 }.filter { $0 < 9 }
        #expect(fused.upstream == upstream)
        #expect(Recorder(for: fused).values == [6, 7, 8])
    }
}

extension ClosedRange where Bound == Int {
    typealias Publisher = Publishers.Sequence<ClosedRange<Int>, Never>
}
