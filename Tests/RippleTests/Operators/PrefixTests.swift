import Ripple
import Testing

@Suite struct PrefixTests {
    @Test func takesTheFirstNThenCancelsUpstreamAndFinishes() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.prefix(2))
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.subscription.cancelled)
    }

    @Test func respectsDemandAndEarlyCompletion() {
        #expect(Recorder(for: (1...10).publisher.prefix(3), demand: .max(2)).values == [1, 2])
        #expect(Recorder(for: [1].publisher.prefix(3)).events == [.subscription, .value(1), .finished])
    }

    @Test func zeroFinishesOnTheFirstElement() {
        // Combine's moment: nothing happens until an element arrives; that element cancels the
        // upstream and finishes.
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.prefix(0))
        #expect(recorder.events == [.subscription])
        #expect(!upstream.subscription.cancelled)
        upstream.send(1)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.subscription.cancelled)
    }

    @Test func negativeLengthTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).prefix(-1)
        }
    }
}
