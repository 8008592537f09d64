import Foundation
import Ripple
import Testing

/// Rules 38, 39 and 42: property-level tracking, both phases, `@Published` taking part.
/// Every contract comes as a pair: the accessed property fires, a non-accessed one does not.
@Suite struct TrackingTests {
    final class Basket: ObservableObject, @unchecked Sendable {
        @Published var apples = 0
        @Published var peaches = 0
        var plain = 0  // not tracked
    }

    /// Counts events and keeps the last one.
    final class Events: @unchecked Sendable {
        let log = Locked<[TrackingEvent]>([])
        var count: Int { log.current.count }
        var last: TrackingEvent? { log.current.last }
        func add(_ event: TrackingEvent) { log.withLock { $0.append(event) } }
    }

    // Rule 38
    @Test func accessedPropertyFires() {
        let basket = Basket()
        let events = Events()
        withTracking { _ = basket.apples } onChange: { events.add($0) }
        basket.apples = 1
        #expect(events.count == 1)
        #expect(events.last?.matches(\Basket.apples) == true)
        #expect(events.last?.object === basket)
    }

    @Test func nonAccessedPropertyDoesNotFire() {
        let basket = Basket()
        let events = Events()
        withTracking { _ = basket.apples } onChange: { events.add($0) }
        basket.peaches = 1
        basket.plain = 1
        #expect(events.count == 0)
    }

    @Test func oneShotFiresOnceThenNeverAgain() {
        let basket = Basket()
        let events = Events()
        withTracking { _ = basket.apples + basket.peaches } onChange: { events.add($0) }
        basket.peaches = 1
        basket.apples = 1
        basket.peaches = 2
        #expect(events.count == 1)
        #expect(events.last?.matches(\Basket.peaches) == true)
        #expect(events.last?.matches(\Basket.apples) == false)
    }

    @Test func applyResultIsReturnedAndUntrackedReadsRecordNothing() {
        let basket = Basket()
        basket.apples = 3
        let events = Events()
        _ = basket.peaches  // outside any scope
        let value = withTracking { basket.apples * 2 } onChange: { events.add($0) }
        #expect(value == 6)
        basket.peaches = 5
        #expect(events.count == 0)
    }

    @Test func noReadsNoObserver() {
        let basket = Basket()
        let events = Events()
        withTracking { _ = 1 } onChange: { events.add($0) }
        basket.apples = 1
        #expect(events.count == 0)
    }

    // Rule 39
    @Test func willSetSeesTheOldValueDidSetTheNew() {
        let basket = Basket()
        let seen = Locked<[String]>([])
        withTracking({ _ = basket.apples }, phase: .willSet) { event in
            seen.withLock { $0.append("willSet \(event.phase) \(basket.apples)") }
        }
        withTracking({ _ = basket.apples }, phase: .didSet) { event in
            seen.withLock { $0.append("didSet \(event.phase) \(basket.apples)") }
        }
        basket.apples = 7
        #expect(seen.current == ["willSet willSet 0", "didSet didSet 7"])
    }

    @Test func didSetOnANonAccessedPropertyDoesNotFire() {
        let basket = Basket()
        let events = Events()
        withTracking({ _ = basket.apples }, phase: .didSet) { events.add($0) }
        basket.peaches = 7
        #expect(events.count == 0)
        basket.apples = 1
        #expect(events.count == 1)
    }

    @Test func willSetFiresBeforeObjectWillChange() {
        let basket = Basket()
        let log = Locked<[String]>([])
        let token = basket.objectWillChange.sink { log.withLock { $0.append("objectWillChange") } }
        withTracking { _ = basket.apples } onChange: { _ in log.withLock { $0.append("tracking willSet") } }
        basket.apples = 1
        #expect(log.current == ["tracking willSet", "objectWillChange"])
        token.cancel()
    }

    @Test func nestedScopesReportToTheOuterOne() {
        let basket = Basket()
        let outer = Events()
        let inner = Events()
        withTracking {
            withTracking { _ = basket.peaches } onChange: { inner.add($0) }
        } onChange: { outer.add($0) }
        basket.peaches = 1
        #expect(inner.count == 1)
        #expect(outer.count == 1)
    }

    // Rule 40: another thread's write between the read and the arming is not lost.
    @Test func writeBetweenReadAndArmingFiresAtOnce() {
        let basket = Basket()
        let events = Events()
        withTracking({
            _ = basket.apples
            onAnotherThread { basket.apples = 1 }  // after the read, before the observer is armed
        }, phase: .didSet) { events.add($0) }
        #expect(events.count == 1)
        #expect(events.last?.matches(\Basket.apples) == true)
    }

    // Rule 42c: a scope's own writes inside `apply` do not fire its onChange (Observation's rule);
    // a later write does.
    @Test func aScopesOwnWritesDoNotFireItsOnChange() {
        let basket = Basket()
        let events = Events()
        withTracking {
            let apples = basket.apples
            basket.apples = apples + 1
        } onChange: { events.add($0) }
        withTracking({
            let peaches = basket.peaches
            basket.peaches = peaches + 1
        }, phase: .didSet) { events.add($0) }
        #expect(events.count == 0)
        basket.apples = 5
        basket.peaches = 5
        #expect(events.count == 2)
    }

    @Test func aNestedScopesOwnWritesDoNotFireTheOuterOne() {
        let basket = Basket()
        let events = Events()
        withTracking {
            _ = basket.apples
            withTracking { basket.apples += 1 } onChange: { events.add($0) }
        } onChange: { events.add($0) }
        #expect(events.count == 0)
        basket.apples = 7
        #expect(events.count == 2)
    }

    @Test func continuousObserverFiresForEveryChangeUntilCancelled() {
        let basket = Basket()
        let seen = Locked<[Int]>([])
        let token = track({ _ = basket.apples }) { _ in seen.withLock { $0.append(basket.apples) } }
        basket.apples = 1
        basket.peaches = 9  // not read: ignored
        basket.apples = 2
        token.cancel()
        basket.apples = 3
        #expect(seen.current == [1, 2])
    }

    @Test func matchesTheStorageKeyPathToo() {
        let basket = Basket()
        let events = Events()
        withTracking { _ = basket.apples } onChange: { events.add($0) }
        basket.apples = 1
        #expect(events.last?.matches(\Basket.apples) == true)
        #expect(events.last?.matches(\Basket.peaches) == false)
        #expect(events.last?.description.contains("Basket") == true)
    }

    @Test func eventsNameThePropertyFromItsDeclaration() {
        let basket = Basket()
        let events = Events()
        withTracking { _ = basket.peaches } onChange: { events.add($0) }
        basket.peaches = 2
        #expect(events.last?.propertyName == "peaches")
        #expect(events.last?.description == "willSet peaches of Basket")
    }

    @Test func matchingInsideAScopeDoesNotAddADependency() {
        let basket = Basket()
        let first = Events()
        withTracking { _ = basket.apples } onChange: { first.add($0) }
        basket.apples = 1
        let outer = Events()
        withTracking {
            _ = first.last?.matches(\Basket.peaches)  // evaluates basket.peaches privately
        } onChange: { outer.add($0) }
        basket.peaches = 1
        #expect(outer.count == 0)
    }

    @Test func assignToPublishedNotifiesTrackingToo() {
        final class Model: ObservableObject, @unchecked Sendable {
            @Published var value = 0
        }
        let model = Model()
        let subject = PassthroughSubject<Int, Never>()
        subject.assign(to: &model.$value)
        let events = Events()
        withTracking { _ = model.value } onChange: { events.add($0) }
        subject.send(4)
        #expect(events.count == 1)
        #expect(events.last?.object === model)
        #expect(model.value == 4)
    }
}

@Suite struct TrackingRegistrarTests {
    final class Thermostat: @unchecked Sendable {
        private let registrar = TrackingRegistrar()
        private var _target = 20
        private var _mode = "heat"

        var target: Int {
            get {
                registrar.access(self, keyPath: \.target)
                return _target
            }
            set { registrar.withMutation(of: self, keyPath: \.target) { _target = newValue } }
        }

        var mode: String {
            get {
                registrar.access(self, keyPath: \.mode)
                return _mode
            }
            set {
                registrar.willSet(self, keyPath: \.mode)
                _mode = newValue
                registrar.didSet(self, keyPath: \.mode)
            }
        }
    }

    @Test func accessedPropertyFiresNonAccessedDoesNot() {
        let thermostat = Thermostat()
        let fired = Locked<[String]>([])
        withTracking { _ = thermostat.target } onChange: { event in
            fired.withLock { $0.append(event.matches(\Thermostat.target) ? "target" : "other") }
        }
        thermostat.mode = "cool"
        #expect(fired.current.isEmpty)
        thermostat.target = 22
        #expect(fired.current == ["target"])
    }

    @Test func bothPhases() {
        let thermostat = Thermostat()
        let seen = Locked<[String]>([])
        withTracking({ _ = thermostat.mode }, phase: .willSet) { _ in seen.withLock { $0.append("will \(thermostat.mode)") } }
        withTracking({ _ = thermostat.mode }, phase: .didSet) { _ in seen.withLock { $0.append("did \(thermostat.mode)") } }
        thermostat.mode = "cool"
        #expect(seen.current == ["will heat", "did cool"])
    }

    /// Issue 16: the documented pattern's computed properties are named in events (their key paths
    /// print no name; the accessor's `#function` does).
    @Test func eventsNameComputedPropertiesAnnouncedFromTheirAccessors() {
        let thermostat = Thermostat()
        let names = Locked<[String?]>([])
        let token = track({ _ = thermostat.target + thermostat.mode.count }, phase: .didSet) { event in
            names.withLock { $0.append(event.propertyName) }
        }
        thermostat.target = 21
        thermostat.mode = "cool"
        #expect(names.current == ["target", "mode"])
        token.cancel()
    }

    @Test func aNameIsNotTakenFromAMethod() {
        final class Model: @unchecked Sendable {
            let registrar = TrackingRegistrar()
            var stored = 0
            var value: Int { stored }
            func read() -> Int {
                registrar.access(self, keyPath: \.value)
                return stored
            }
            func bump() { registrar.withMutation(of: self, keyPath: \.value) { stored += 1 } }
        }
        let model = Model()
        let names = Locked<[String]>([])
        withTracking { _ = model.read() } onChange: { event in names.withLock { $0.append(event.propertyName ?? "nil") } }
        model.bump()
        #expect(names.current == ["nil"])
    }
}

/// Rule 40 at arming: a property that changed between the read and the arming.
@Suite struct StaleArmingTests {
    final class Basket: ObservableObject, @unchecked Sendable {
        @Published var apples = 0
        @Published var peaches = 0
    }

    @Test func continuousObserverFiresAtArmingAndKeepsListening() {
        let basket = Basket()
        let fired = Locked(0)
        let token = track({
            _ = basket.apples
            _ = basket.peaches
            onAnotherThread { basket.apples = 1 }  // lands after the read, before the arming
        }) { _ in fired.withLock { $0 += 1 } }
        #expect(fired.current == 1)  // fired at arming
        basket.apples = 2
        #expect(fired.current == 2)  // still armed on the stale property
        basket.peaches = 2
        #expect(fired.current == 3)  // and on the ones after it
        token.cancel()
    }

    @Test func oneShotObserverFiresAtArmingAndIsDone() {
        let basket = Basket()
        let fired = Locked(0)
        withTracking({
            _ = basket.apples
            _ = basket.peaches
            onAnotherThread { basket.apples = 1 }
        }, phase: .didSet) { _ in fired.withLock { $0 += 1 } }
        #expect(fired.current == 1)
        basket.apples = 2
        basket.peaches = 2
        #expect(fired.current == 1)
    }

    /// The scope's own write is absorbed, another thread's write after it is not.
    @Test func anOwnWriteThenAnotherThreadsWriteStillFires() {
        let basket = Basket()
        let fired = Locked(0)
        withTracking({
            basket.apples = basket.apples + 1
            onAnotherThread { basket.apples = 10 }
        }, phase: .didSet) { _ in fired.withLock { $0 += 1 } }
        #expect(fired.current == 1)
    }
}

/// Runs `body` on a new thread and waits for it to finish.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}
