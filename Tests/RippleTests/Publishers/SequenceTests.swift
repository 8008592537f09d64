import Foundation
import Ripple
import Testing

@Suite struct SequenceTests {
    // Rule 5
    @Test func deliversSynchronouslyFromInsideRequestAsDemandAllows() {
        let recorder = Recorder(for: [1, 2, 3].publisher, demand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func emptySequenceFinishesWithoutDemand() {
        let recorder = Recorder(for: [Int]().publisher, demand: nil)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func demandReturnedFromReceiveContinuesTheLoop() {
        let recorder = Recorder<Int, Never>(demand: .max(1)) { _ in .max(1) }
        (1...4).publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
    }

    @Test func requestFromInsideReceiveDoesNotNest() {
        let depth = Locked(0)
        let maxDepth = Locked(0)
        let holder = Locked<(any Subscription)?>(nil)
        let recorder = Recorder<Int, Never>(
            demand: .max(1),
            onValue: { _ in
                depth.withLock { $0 += 1 }
                maxDepth.withLock { $0 = Swift.max($0, depth.current) }
                holder.withLock { $0 }?.request(.max(1))
                depth.withLock { $0 -= 1 }
                return .none
            },
            onSubscription: { subscription in holder.withLock { $0 = subscription } })
        (1...100).publisher.subscribe(recorder)
        #expect(recorder.values == Array(1...100))
        #expect(maxDepth.current == 1)
        holder.withLock { $0 = nil }
    }

    @Test func cancelStopsDelivery() {
        let holder = Locked<(any Subscription)?>(nil)
        let recorder = Recorder<Int, Never>(
            onValue: { value in
                if value == 2 { holder.withLock { $0 }?.cancel() }
                return .none
            },
            onSubscription: { subscription in holder.withLock { $0 = subscription } })
        (1...5).publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        holder.withLock { $0 = nil }
    }

    @Test func lazySequenceIsAdvancedOnlyOnDemand() {
        let produced = Locked(0)
        let lazy = (1...).lazy.map { value -> Int in
            produced.withLock { $0 += 1 }
            return value
        }
        let recorder = Recorder(for: lazy.publisher, demand: .max(3))
        #expect(recorder.values == [1, 2, 3])
        // One element is read ahead so the publisher can tell when the sequence ends.
        #expect(produced.current == 4)
        recorder.cancel()
    }

    @Test func exposesTheSequence() {
        #expect([1, 2].publisher.sequence == [1, 2])
        #expect([1, 2].publisher == Publishers.Sequence<[Int], Never>(sequence: [1, 2]))
    }
}
