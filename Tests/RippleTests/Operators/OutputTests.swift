import Ripple
import Testing

@Suite struct OutputTests {
    @Test func outputAtPublishesOneElementThenFinishes() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.output(at: 1))
        // Rule 24: elements before the index give their demand back.
        #expect(upstream.send(10) == .max(1))
        upstream.send(11)
        // Combine's moment: right after the element at the index is delivered, the upstream is
        // cancelled and the publisher finishes.
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .value(11), .finished])
        #expect(upstream.send(12) == .none)
        #expect(recorder.events == [.subscription, .value(11), .finished])
    }

    @Test func outputInFinishesRightAfterTheRangesLastElement() {
        // The shape of OpenCombine's OutputTests.testBasicBehavior (recorded against Combine):
        // dropped elements return `.max(1)`, elements in range return the downstream's demand,
        // and the range's last element brings the cancel and the completion.
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: nil, onValue: { _ in .max(42) })
        upstream.output(in: 3..<7).subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .max(1))
        recorder.request(.max(31))
        for value in 4...6 { #expect(upstream.send(value) == .max(42)) }
        #expect(!upstream.subscription.cancelled)
        #expect(upstream.send(7) == .max(42))
        #expect(recorder.events == [.subscription, .value(4), .value(5), .value(6), .value(7), .finished])
        #expect(upstream.subscription.events == [.request(.max(31)), .cancel])
        #expect(upstream.send(8) == .none)
    }

    @Test func outputInOverASubjectWithLimitedDemandFinishes() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.output(in: 1...2), demand: .max(2))
        for value in 0...2 { subject.send(value) }
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
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
