@testable import Ripple
@testable import RippleCore
import Testing

/// A `@Published` property nobody observes is its value and a lock: what observing it takes is
/// made the first time somebody does, and every kind of observation still sees every write after it.
@Suite struct PublishedObservationTests {
    final class Model: ObservableObject {
        @Published var count = 0
        @Published var name = "a"
    }

    /// The observations of `model`'s `count` and `name`, where made.
    private func observations(of model: Model) -> (count: PublishedObservation?, name: PublishedObservation?) {
        let boxes = LayoutCache.layout(of: model).publishedOffsets.map {
            unmanagedPublishedBox(of: model, at: $0).takeUnretainedValue()
        }
        return (boxes[0].existingObservation, boxes[1].existingObservation)
    }

    @Test func readsAndWritesMakeNoObservation() {
        let model = Model()
        model.count = 1
        model.count += 1
        #expect(model.count == 2)
        // Once the bridge to Swift's Observation is installed (process-wide: a suite of this test
        // process may have done it), every write reports to it through the observation.
        guard !_ExternalTracking.isInstalled else { return }
        #expect(observations(of: model).count == nil)
        #expect(observations(of: model).name == nil)
    }

    @Test func objectWillChangeLinksEveryProperty() {
        let model = Model()
        var changes = 0
        let token = model.objectWillChange.sink { changes += 1 }
        #expect(observations(of: model).count != nil)
        #expect(observations(of: model).name != nil)
        model.count = 1
        model.name = "b"
        #expect(changes == 2)
        token.cancel()
    }

    @Test func theProjectionStartsFromTheLatestUnobservedWrite() {
        let model = Model()
        model.count = 5
        var seen: [Int] = []
        let token = model.$count.sink { seen.append($0) }
        model.count = 6
        #expect(seen == [5, 6])
        #expect(observations(of: model).name == nil)
        token.cancel()
    }

    @Test func aTrackedReadMakesTheObservationAndSeesTheNextWrite() {
        let model = Model()
        model.count = 3
        let fired = Locked(0)
        let value = withTracking {
            model.count
        } onChange: { _ in
            fired.withLock { $0 += 1 }
        }
        #expect(value == 3)
        #expect(observations(of: model).count != nil)
        model.count = 4
        #expect(fired.current == 1)
    }

    /// `$count` first used from inside a write's will-change callout (before the write stores): the
    /// subject starts from the value before the write, and the write's value goes through it — as
    /// in Combine, where `$count` made there turns the storage into a publisher that the write then
    /// sends to. Before, the write stored without sending, and `$count`'s current value stayed
    /// behind the property's for good.
    @Test func aProjectionMadeWhileAWriteIsUnderWayReceivesThatWrite() {
        let model = Model()
        var received: [Int] = []
        var projection: AnyCancellable?
        let token = model.objectWillChange.sink {
            guard projection == nil else { return }
            projection = model.$count.sink { received.append($0) }
        }
        model.count = 1
        #expect(received == [0, 1])
        #expect(model.count == 1)
        var late: [Int] = []
        let lateToken = model.$count.sink { late.append($0) }
        #expect(late == [1])
        withExtendedLifetime((token, projection, lateToken)) {}
    }
}
