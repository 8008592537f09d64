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

@Suite struct TryFilterTests {
    @Test func throwingCancelsUpstreamThenFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryFilter { value in
            if value < 0 { throw TestError(id: value) }
            return value > 1
        })
        #expect(upstream.send(1) == .max(1))
        upstream.send(2)
        upstream.send(-3)
        upstream.send(4)
        #expect(recorder.events == [.subscription, .value(2), .failure("TestError(-3)")])
        #expect(upstream.subscription.cancelled)
    }

    @Test func filterTryFilterFuses() {
        let fused: Publishers.TryFilter<Publishers.Sequence<[Int], Never>> = [1, 2, 3].publisher
            .filter { $0 > 1 }.tryFilter { $0 < 3 }
        #expect(Recorder(for: fused).values == [2])
    }
}

@Suite struct CompactMapTests {
    @Test func dropsNilsReturningMaxOne() {
        let upstream = ManualPublisher<String, Never>()
        let recorder = Recorder(for: upstream.compactMap { Int($0) })
        #expect(upstream.send("x") == .max(1))
        upstream.send("2")
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2), .finished])
    }

    // Rule 25
    @Test func fusesWithMapAndCompactMap() {
        let upstream = ["1", "x", "3"].publisher
        let fused: Publishers.CompactMap<Publishers.Sequence<[String], Never>, Int> = upstream
            .compactMap { Int($0) }.map { $0 * 2 }.compactMap { $0 > 2 ? $0 : nil }
        #expect(Recorder(for: fused).values == [6])
        let mapThenCompact: Publishers.CompactMap<Publishers.Sequence<[String], Never>, Int> = upstream
            .map { $0 }.compactMap { Int($0) }
        #expect(Recorder(for: mapThenCompact).values == [1, 3])
    }
}

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

@Suite struct ScanTests {
    @Test func publishesRunningResults() {
        let recorder = Recorder(for: (1...4).publisher.scan(0, +))
        #expect(recorder.events == [.subscription, .value(1), .value(3), .value(6), .value(10), .finished])
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let publisher = [1, 2].publisher.scan(10, +)
        #expect(Recorder(for: publisher).values == [11, 13])
        #expect(Recorder(for: publisher).values == [11, 13])
    }

    @Test func forwardsFailure() {
        let recorder = Recorder(for: Fail<Int, TestError>(error: TestError()).scan(0, +))
        #expect(recorder.events == [.subscription, .failure("TestError(0)")])
    }
}
