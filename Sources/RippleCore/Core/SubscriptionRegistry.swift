#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

/// The process-wide table behind `RippleDiagnostics` (in Ripple): one entry per recorded subscription, from
/// the moment it is made until it ends.
///
/// It keeps descriptions and weak references only. A `sink`'s entry ends when the sink lets its
/// closures go (on completion, cancel, or when it is released), because the closures the sink is
/// given then hold a ``SubscriptionProbe`` whose `deinit` ends it; the entry of an `assign` or of a
/// subscriber passed to `subscribe(_:)` is looked at through a weak reference when a snapshot is
/// taken.
package final class SubscriptionRegistry: Sendable {
    package static let shared = SubscriptionRegistry()

    /// One recorded subscription.
    struct Entry {
        let id: Int
        let publisher: RecordedPublisher
        let subscriber: String
        /// The ``DiagnosticsScope``s it was made in.
        let scopes: [Int]
        var demand: Subscribers.Demand?
        /// `nil` where deliveries are not counted.
        /// For subscribers whose values are not counted by a probe: `nil` (not counted).
        var values: Int?
        var status = RecordedStatus.active
        /// For sinks: the probe their closures hold, which counts the values and the thread.
        weak var probe: SubscriptionProbe?
        /// Whether it was made with a probe (gone: the sink has let its closures go).
        var hasProbe: Bool = false
        /// For subscribers looked at through a weak reference: the subscriber, and whether it is
        /// still subscribed (asked outside the lock).
        weak var object: AnyObject?
        let isLive: (@Sendable (AnyObject) -> Bool)?
        /// Where it is in ``State/objects``.
        var key: ObjectIdentifier? = nil
    }

    struct State {
        var manual = false
        var openScopes = 0
        var nextID = 1
        var nextScope = 1
        var entries: [Int: Entry] = [:]
        /// The entry of each subscriber object recorded (a `sink`'s, a subscriber's looked at
        /// through a weak reference), so that one is not recorded twice.
        var objects: [ObjectIdentifier: Int] = [:]

        /// Removes entry `id`, and its object's index if it is still its.
        mutating func remove(_ id: Int) -> Entry? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            if let key = entry.key, objects[key] == id { objects[key] = nil }
            return entry
        }
        /// Weakly held entries are checked for release when the table grows past this.
        var pruneAt = 256

        var enabled: Bool { manual || openScopes > 0 }
    }

    private let state = LockedValue(State())

    package var isSwitchedOn: Bool { state.withLock { $0.manual } }

    package func switchOn(_ on: Bool) {
        state.withLock { state in
            state.manual = on
            diagnosticsSwitch.store(state.enabled, ordering: .relaxed)
        }
    }

    package func openScope() -> DiagnosticsScope {
        let id = state.withLock { state -> Int in
            defer { state.nextScope += 1 }
            state.openScopes += 1
            diagnosticsSwitch.store(true, ordering: .relaxed)
            return state.nextScope
        }
        return DiagnosticsScope(id: id, parent: DiagnosticsScope.current)
    }

    package func closeScope() {
        state.withLock { state in
            state.openScopes -= 1
            diagnosticsSwitch.store(state.enabled, ordering: .relaxed)
        }
    }

    /// Records a `sink`; returns the probe its closures are to hold.
    func registerSink(publisher: RecordedPublisher) -> SubscriptionProbe {
        let scopes = DiagnosticsScope.current?.ids ?? []
        let (probe, shouldPrune) = state.withLock { state -> (SubscriptionProbe, Bool) in
            let probe = SubscriptionProbe(id: state.nextID)
            state.nextID += 1
            state.entries[probe.id] = Entry(
                id: probe.id, publisher: publisher, subscriber: "Sink", scopes: scopes, demand: .unlimited,
                values: 0, probe: probe, hasProbe: true, object: nil, isLive: nil)
            guard state.entries.count >= state.pruneAt else { return (probe, false) }
            state.pruneAt = state.entries.count * 2
            return (probe, true)
        }
        if shouldPrune { prune() }
        return probe
    }

    /// Notes the sink that probe `probe`'s entry was made for.
    func identify(probe: SubscriptionProbe, as sink: AnyObject) {
        let key = ObjectIdentifier(sink)
        state.withLock { state in
            guard state.entries[probe.id] != nil else { return }
            state.entries[probe.id]!.object = sink
            state.entries[probe.id]!.key = key
            state.objects[key] = probe.id
        }
    }

    /// Records a subscriber looked at through a weak reference, unless it is recorded already
    /// (its entry is live and still its own).
    func registerUnlessRecorded(
        publisher: RecordedPublisher, subscriber: String, demand: Subscribers.Demand?, object: AnyObject,
        isLive: @escaping @Sendable (AnyObject) -> Bool
    ) {
        let key = ObjectIdentifier(object)
        let recorded = state.withLock { state in
            state.objects[key].flatMap { state.entries[$0]?.object } === object
        }
        guard !recorded else { return }
        _ = register(publisher: publisher, subscriber: subscriber, demand: demand, countsValues: false, object: object, isLive: isLive)
    }

    /// Records a subscription; returns its ID.
    func register(
        publisher: RecordedPublisher, subscriber: String, demand: Subscribers.Demand?,
        countsValues: Bool, object: AnyObject? = nil, isLive: (@Sendable (AnyObject) -> Bool)? = nil
    ) -> Int {
        let scopes = DiagnosticsScope.current?.ids ?? []
        let (id, shouldPrune) = state.withLock { state -> (Int, Bool) in
            let id = state.nextID
            state.nextID += 1
            let key = object.map(ObjectIdentifier.init)
            state.entries[id] = Entry(
                id: id, publisher: publisher, subscriber: subscriber, scopes: scopes, demand: demand,
                values: countsValues ? 0 : nil, probe: nil, object: object, isLive: isLive, key: key)
            if let key { state.objects[key] = id }
            guard state.entries.count >= state.pruneAt else { return (id, false) }
            state.pruneAt = state.entries.count * 2
            return (id, true)
        }
        if shouldPrune { prune() }
        return id
    }

    /// Subscription `id` is receiving its completion.
    func completing(_ id: Int, with status: RecordedStatus) {
        state.withLock { state in
            guard state.entries[id] != nil else { return }
            state.entries[id]!.status = status
        }
    }

    /// Subscription `id` ended.
    func end(_ id: Int) {
        let removed = state.withLock { $0.remove(id) }
        withExtendedLifetime(removed) {}
    }

    /// Drops the weakly held entries whose subscriber is gone or no longer subscribed.
    private func prune() {
        _ = snapshot(scope: nil)
    }

    /// The live entries (of scope `scope`, or all), oldest first; forgets the ended ones it finds.
    package func snapshot(scope: Int?) -> [RecordedSubscription] {
        let entries = state.withLock { state in
            state.entries.values.filter { scope == nil || $0.scopes.contains(scope!) }
        }
        var live: [RecordedSubscription] = []
        var ended: [Int] = []
        for entry in entries.sorted(by: { $0.id < $1.id }) {
            if let isLive = entry.isLive {
                // Asked outside the lock: the subscriber takes its own.
                guard let object = entry.object, isLive(object) else {
                    ended.append(entry.id)
                    continue
                }
            }
            var values = entry.values
            var lastThread: UInt?
            if entry.hasProbe {
                // A probe already gone is a sink that ended: its deinit is removing the entry.
                guard let probe = entry.probe else { continue }
                values = probe.values.load(ordering: .relaxed)
                let thread = probe.lastThread.load(ordering: .relaxed)
                lastThread = thread == 0 ? nil : thread
            }
            live.append(
                RecordedSubscription(
                    id: entry.id, publisher: entry.publisher, subscriber: entry.subscriber, demand: entry.demand,
                    valuesDelivered: values, status: entry.status, lastDeliveryThread: lastThread))
        }
        if !ended.isEmpty {
            let removed = state.withLock { state in ended.compactMap { state.remove($0) } }
            withExtendedLifetime(removed) {}
        }
        return live
    }
}

/// Held by the closures a recorded `sink` is given: counts their calls, and ends the entry when
/// the sink lets them go.
@usableFromInline
final class SubscriptionProbe: Sendable {
    let id: Int
    /// Values delivered (relaxed: a count read by snapshots, ordering nothing).
    let values = AtomicCell<Int>(0)
    /// The thread of the last one (0 before the first).
    let lastThread = AtomicCell<UInt>(0)

    init(id: Int) {
        self.id = id
    }

    deinit {
        SubscriptionRegistry.shared.end(id)
    }

    /// `receiveValue`, counting its calls.
    func counting<Output>(_ receiveValue: @escaping (Output) -> Void) -> (Output) -> Void {
        { value in
            self.delivered()
            receiveValue(value)
        }
    }

    /// `receiveCompletion`, noting the completion first.
    func counting<Failure: Error>(
        _ receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) -> (Subscribers.Completion<Failure>) -> Void {
        { completion in
            self.completing(completion)
            receiveCompletion(completion)
        }
    }

    func delivered() {
        values.add(1, ordering: .relaxed)
        lastThread.store(currentThreadID(), ordering: .relaxed)
    }

    func completing<Failure: Error>(_ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: SubscriptionRegistry.shared.completing(id, with: .finished)
        case .failure(let error):
            SubscriptionRegistry.shared.completing(id, with: .failed(String(describing: error)))
        }
    }
}
