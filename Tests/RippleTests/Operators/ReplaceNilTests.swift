import Ripple
import Testing

@Suite struct ReplaceNilTests {
    @Test func replacesNil() {
        #expect(Recorder(for: [1, nil, 3].publisher.replaceNil(with: 0)).values == [1, 0, 3])
    }

    @Test func demandPassesThrough() {
        let upstream = ManualPublisher<Int?, Never>()
        _ = Recorder(for: upstream.replaceNil(with: 0), demand: .max(1))
        #expect(upstream.subscription.requests == [.max(1)])
    }
}
