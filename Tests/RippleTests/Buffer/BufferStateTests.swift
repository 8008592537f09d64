@testable import Ripple
@testable import RippleCore
import Testing

/// buffer's bookkeeping as a value: what each element, completion, request and cancel makes due —
/// no threads, no locks, no publishers.
@Suite struct BufferStateTests {
    typealias Downstream = Recorder<Int, TestError>
    typealias State = BufferState<Downstream>

    /// A state with its upstream subscription, handed down.
    private func running() -> State {
        var state = State(downstream: Downstream())
        let answer1 = state.acceptUpstream(RecordingSubscription())
        #expect(answer1 != nil)
        state.handDown()
        return state
    }

    private func values(_ state: inout State) -> [Int] {
        var taken: [Int] = []
        while case .deliver(_, let value) = state.next() { taken.append(value) }
        return taken
    }

    @Test func theUpstreamSubscriptionIsAcceptedOnce() {
        var state = State(downstream: Downstream())
        let answer2 = state.acceptUpstream(RecordingSubscription())
        #expect(answer2 != nil)
        let answer3 = state.acceptUpstream(RecordingSubscription())
        #expect(answer3 == nil)
        #expect(state.upstreamSubscription != nil)
    }

    @Test func anElementWithDemandAndAnEmptyBufferIsDeliveredElseBuffered() {
        var state = running()
        state.request(.max(1))
        guard case .deliver = state.arrive(1, size: 2, whenFull: .dropNewest) else { Issue.record("deliver"); return }
        guard case .buffered = state.arrive(2, size: 2, whenFull: .dropNewest) else { Issue.record("buffer"); return }
        state.delivered(.max(1))
        // Demand again, but an element waits: this one is buffered behind it.
        guard case .buffered = state.arrive(3, size: 2, whenFull: .dropNewest) else { Issue.record("buffer"); return }
        #expect(values(&state) == [2])
        state.request(.max(5))
        #expect(values(&state) == [3])
    }

    @Test func aFullBufferDropsTheNewestOrTheOldest() {
        var newest = running()
        _ = newest.arrive(1, size: 1, whenFull: .dropNewest)
        guard case .droppedNewest = newest.arrive(2, size: 1, whenFull: .dropNewest) else { Issue.record("newest"); return }
        newest.request(.unlimited)
        #expect(values(&newest) == [1])

        var oldest = running()
        _ = oldest.arrive(1, size: 1, whenFull: .dropOldest)
        guard case .droppedOldest(1) = oldest.arrive(2, size: 1, whenFull: .dropOldest) else { Issue.record("oldest"); return }
        oldest.request(.unlimited)
        #expect(values(&oldest) == [2])

        // With a size of zero the new element is the oldest.
        var empty = running()
        guard case .droppedNewest = empty.arrive(1, size: 0, whenFull: .dropOldest) else { Issue.record("zero"); return }
    }

    @Test func aCustomErrorTerminatesTheUpstreamAndFailsAfterWhatIsHeld() {
        var state = running()
        _ = state.arrive(1, size: 1, whenFull: .customError { TestError(id: 9) })
        guard case .makeError(let makeError, let upstream) = state.arrive(2, size: 1, whenFull: .customError { TestError(id: 9) })
        else { Issue.record("expected makeError"); return }
        #expect(upstream != nil)
        #expect(state.upstreamSubscription == nil)
        // No demand: nothing is due now.
        let answer4 = state.failed(makeError())
        #expect(answer4 == .ignore)
        guard case .ignore = state.arrive(3, size: 1, whenFull: .dropNewest) else { Issue.record("after failure"); return }
        // A failure goes out as soon as the downstream has no demand, even with elements held.
        guard case .finish(_, .failure(TestError(id: 9)), let dropped) = state.next() else { Issue.record("fail"); return }
        #expect(dropped.count == 1)
        #expect(!state.isActive)
    }

    @Test func aFailureWithDemandDrainsAndGoesOutAfterTheHeldElements() {
        var state = running()
        _ = state.arrive(1, size: 1, whenFull: .dropNewest)
        state.request(.max(1))
        let answer5 = state.failed(TestError())
        #expect(answer5 == .drain)
        guard case .deliver(_, 1) = state.next() else { Issue.record("1 first"); return }
        guard case .finish(_, .failure, _) = state.next() else { Issue.record("then the failure"); return }
    }

    @Test func finishedGoesOutOnceTheBufferIsEmptyAndThereIsDemand() {
        var state = running()
        _ = state.arrive(1, size: 2, whenFull: .dropNewest)
        let answer6 = state.upstreamCompleted(.finished)
        #expect(answer6 == .drain)
        let answer7 = state.upstreamCompleted(.finished)
        #expect(answer7 == .ignore)
        guard case .idle = state.next() else { Issue.record("an element is held, no demand"); return }
        state.request(.max(1))
        #expect(values(&state) == [1])
        guard case .idle = state.next() else { Issue.record("no demand left"); return }
        state.request(.max(1))
        guard case .finish(_, .finished, _) = state.next() else { Issue.record("finish"); return }
    }

    @Test func aCompletionBeforeTheHandOffWaitsForIt() {
        var state = State(downstream: Downstream())
        _ = state.acceptUpstream(RecordingSubscription())
        #expect(state.completionWaitsAfterHandOff() == .ignore)
        let answer8 = state.upstreamCompleted(.failure(TestError()))
        #expect(answer8 == .drain)
        guard case .idle = state.next() else { Issue.record("not handed down yet"); return }
        state.handDown()
        #expect(state.completionWaitsAfterHandOff() == .drain)
        guard case .finish(_, .failure, _) = state.next() else { Issue.record("now"); return }
    }

    @Test func cancelTakesEverythingOutOfTheState() {
        var state = running()
        _ = state.arrive(1, size: 2, whenFull: .dropNewest)
        let (upstream, released, dropped) = state.cancel()
        #expect(upstream != nil)
        #expect(released != nil)
        #expect(dropped.count == 1)
        #expect(!state.isActive)
        state.request(.max(1))
        #expect(state.demand == .none)
        guard case .ignore = state.arrive(2, size: 2, whenFull: .dropNewest) else { Issue.record("ignored"); return }
        let answer9 = state.upstreamCompleted(.finished)
        #expect(answer9 == .ignore)
    }
}
