import Ripple
import Testing

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
