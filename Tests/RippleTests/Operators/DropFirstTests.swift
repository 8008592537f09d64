import Ripple
import Testing

@Suite struct DropFirstTests {
    @Test func requestsTheElementsItOmitsUpFront() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.dropFirst(2), demand: .max(1))
        // The downstream's demand arrives before the upstream subscription; the first request
        // upstream adds the two elements to omit, and omitted elements return nothing.
        #expect(upstream.subscription.requests == [.max(3)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        upstream.send(3)
        #expect(recorder.values == [3])
    }

    @Test func overASubjectWithLimitedDemandSkipsWhatCombineSkips() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.dropFirst(2), demand: .max(1))
        for value in 1...5 { subject.send(value) }
        #expect(recorder.values == [3])
    }

    @Test func handsItsOwnSubscriptionDownstreamBeforeSubscribingUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: nil)
        upstream.dropFirst(1).subscribe(recorder)
        #expect(String(describing: recorder.subscription!) == "Drop")
        #expect(recorder.subscription as AnyObject? !== upstream.subscription)
        // A request goes upstream; after cancel, requests are dropped.
        recorder.request(.max(2))
        recorder.cancel()
        recorder.request(.max(5))
        #expect(upstream.subscription.events == [.request(.max(1)), .request(.max(2)), .cancel])
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
