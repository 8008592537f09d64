import Ripple
import Testing

@Suite struct OutputTests {
    @Test func outputAtPublishesOneElementThenFinishes() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.output(at: 1))
        // Rule 24: elements before the index give their demand back.
        #expect(upstream.send(10) == .max(1))
        upstream.send(11)
        // Combine's moment: the element after the range cancels the upstream and finishes.
        #expect(!upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .value(11)])
        #expect(upstream.send(12) == .none)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .value(11), .finished])
    }

    @Test func outputInRange() {
        #expect(Recorder(for: (0..<10).publisher.output(in: 2...4)).values == [2, 3, 4])
        #expect(Recorder(for: (0..<10).publisher.output(in: 8...)).values == [8, 9])
        #expect(Recorder(for: (0..<10).publisher.output(in: ..<2)).values == [0, 1])
    }

    @Test func upstreamEndingEarlyFinishes() {
        #expect(Recorder(for: [1].publisher.output(at: 3)).events == [.subscription, .finished])
    }
}
