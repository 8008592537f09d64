import Ripple
import Testing

@Suite(.exitTestWatchdog) struct PrefixTests {
    @Test func takesTheFirstNThenCancelsUpstreamAndFinishes() {
        // Combine's moment: the completion and the upstream's cancel come right after the last
        // element in range is delivered, not with the element after it.
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.prefix(2))
        upstream.send(1)
        #expect(!upstream.subscription.cancelled)
        upstream.send(2)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
        #expect(upstream.send(3) == .none)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func prefixOneOverASubjectFinishesAfterTheFirstValue() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.prefix(1))
        subject.send(0)
        #expect(recorder.events == [.subscription, .value(0), .finished])
        subject.send(1)
        #expect(recorder.events == [.subscription, .value(0), .finished])
    }

    @Test func prefixOverAnErasedSequenceFinishesAfterItsLastElement() {
        // Erased, so that `Publishers.Sequence`'s eager specialization is not what runs; the
        // downstream asks for exactly two, so the sequence never offers a third element.
        let cancels = Locked(0)
        let upstream = (1...10).publisher
            .handleEvents(receiveCancel: { cancels.withLock { $0 += 1 } })
            .eraseToAnyPublisher()
        let recorder = Recorder(for: upstream.prefix(2), demand: .max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(cancels.current == 1)
        #expect(Recorder(for: upstream.prefix(3)).values == [1, 2, 3])
    }

    @Test func withLimitedDemandTheLastElementInRangeFinishes() {
        // The downstream asks for exactly the prefix's length: no further request is needed for
        // the completion to arrive.
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.prefix(2), demand: .max(2))
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])

        // Demand of one at a time from an erased sequence: each value returns no more demand.
        let upstream = ManualPublisher<Int, Never>()
        let oneByOne = Recorder<Int, Never>(demand: .max(1))
        upstream.prefix(2).subscribe(oneByOne)
        upstream.send(1)
        #expect(oneByOne.events == [.subscription, .value(1)])
        oneByOne.request(.max(1))
        upstream.send(2)
        #expect(oneByOne.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.subscription.events == [.request(.max(1)), .request(.max(1)), .cancel])
    }

    @Test func theLastElementReturnsTheDownstreamsDemand() {
        // As recorded against Combine (OpenCombine's OutputTests.testBasicBehavior): the element
        // that completes the range returns what the downstream returned for it.
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: .max(1), onValue: { _ in .max(42) })
        upstream.prefix(1).subscribe(recorder)
        #expect(upstream.send(7) == .max(42))
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func aCancelFromTheLastElementLeavesNothingToFinish() {
        let upstream = ManualPublisher<Int, Never>()
        let box = Locked<Recorder<Int, Never>?>(nil)
        let recorder = Recorder<Int, Never>(onValue: { _ in
            box.current?.cancel()
            return .none
        })
        box.withLock { $0 = recorder }
        upstream.prefix(1).subscribe(recorder)
        upstream.send(1)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
        box.withLock { $0 = nil }
    }

    @Test func valuesOverPrefixOneEnds() async {
        let subject = PassthroughSubject<Int, Never>()
        let requested = Locked(false)
        let values = subject
            .handleEvents(receiveRequest: { _ in requested.withLock { $0 = true } })
            .prefix(1)
            .values
        let ended = Locked(false)
        let task = Task {
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            ended.withLock { $0 = true }
            return seen
        }
        while !requested.current { try? await Task.sleep(for: .milliseconds(1)) }
        subject.send(5)
        var waited = 0
        while !ended.current, waited < 2_000 {
            try? await Task.sleep(for: .milliseconds(1))
            waited += 1
        }
        #expect(ended.current, "the loop over prefix(1).values did not end after one value")
        subject.send(completion: .finished)  // lets a loop that did not end stop, so the test ends
        #expect(await task.value == [5])
    }

    @Test func switchToLatestThenPrefixOneFinishes() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: outer.switchToLatest().prefix(1))
        outer.send(inner)
        inner.send(3)
        #expect(recorder.events == [.subscription, .value(3), .finished])
    }

    @Test func respectsDemandAndEarlyCompletion() {
        #expect(Recorder(for: (1...10).publisher.prefix(3), demand: .max(2)).values == [1, 2])
        #expect(Recorder(for: [1].publisher.prefix(3)).events == [.subscription, .value(1), .finished])
    }

    @Test func zeroFinishesOnTheFirstElement() {
        // An empty range: nothing happens until an element arrives; that element cancels the
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
