import Dispatch
import Observation
import Ripple
import RippleObservation
import Testing

/// Rule 42, second half: `@Published` changes are visible to Swift's Observation, and an
/// `@Observable` expression can be turned into a Ripple publisher.
@Suite struct ObservationBridgeTests {
    final class Basket: ObservableObject, Observable, @unchecked Sendable {
        @Published var apples = 0
        @Published var peaches = 0
    }

    final class Flag: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var fired = 0
        func fire() {
            lock.wait()
            fired += 1
            lock.signal()
        }
        var count: Int {
            lock.wait()
            defer { lock.signal() }
            return fired
        }
    }

    init() {
        ObservationBridge.install()
    }

    @Test func withObservationTrackingSeesAPublishedRead() {
        let basket = Basket()
        let flag = Flag()
        withObservationTracking { _ = basket.apples } onChange: { flag.fire() }
        basket.apples = 1
        #expect(flag.count == 1)
    }

    @Test func aNonReadPublishedPropertyDoesNotFire() {
        let basket = Basket()
        let flag = Flag()
        withObservationTracking { _ = basket.apples } onChange: { flag.fire() }
        basket.peaches = 1
        #expect(flag.count == 0)
        basket.apples = 1
        #expect(flag.count == 1)
    }

    @Test func rippleTrackingStillWorksWithTheBridgeInstalled() {
        let basket = Basket()
        let fired = Flag()
        withTracking { _ = basket.peaches } onChange: { _ in fired.fire() }
        basket.apples = 1
        basket.peaches = 1
        #expect(fired.count == 1)
        #expect(basket.apples == 1 && basket.peaches == 1)
    }

    @Test func observationsSequenceSeesPublishedChanges() async {
        let basket = Basket()
        let seen = Recorded()
        let task = Task {
            for await apples in Observations({ basket.apples }) {
                seen.append(apples)
                if apples == 2 { break }
            }
        }
        await seen.wait(count: 1)
        basket.peaches = 9  // not read: no new element
        basket.apples = 2
        await seen.wait(count: 2)
        task.cancel()
        #expect(seen.all == [0, 2])
    }

    @Observable final class Counter: @unchecked Sendable {
        var value = 0
        var other = 0
    }

    @Test func observedPublisherEmitsTheValueThenChanges() async {
        let counter = Counter()
        let values = Recorded()
        let token = ObservedPublisher { counter.value * 10 }.sink { values.append($0) }
        #expect(values.all == [0])
        counter.other = 1  // not read: nothing
        counter.value = 2
        await values.wait(count: 2)
        #expect(values.all == [0, 20])
        counter.value = 3
        await values.wait(count: 3)
        #expect(values.all == [0, 20, 30])
        token.cancel()
    }

    @Test func observedPublisherStopsWhenCancelled() async {
        let counter = Counter()
        let values = Recorded()
        let token = ObservedPublisher { counter.value }.sink { values.append($0) }
        token.cancel()
        counter.value = 1
        try? await Task.sleep(nanoseconds: 20_000_000)
        #expect(values.all == [0])
    }

    final class Recorded: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var values: [Int] = []
        func append(_ value: Int) {
            lock.wait()
            values.append(value)
            lock.signal()
        }
        var all: [Int] {
            lock.wait()
            defer { lock.signal() }
            return values
        }
        func wait(count: Int) async {
            for _ in 0..<2_000 where all.count < count {
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
    }
}
