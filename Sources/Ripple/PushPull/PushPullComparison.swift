/// Runs the same dependents under object-level push and property-level pull observation, applies
/// the same mutations, and reports which dependents re-ran, how often, and because of which property.
///
/// This is the difference between SwiftUI's `ObservableObject` world — every view that observes an
/// object re-renders when `objectWillChange` fires — and the `@Observable` world, where only views
/// that read the changed property do.
///
/// ```swift
/// final class Basket: ObservableObject {
///     @Published var apples = 0
///     @Published var peaches = 0
/// }
/// let basket = Basket()
/// let comparison = PushPullComparison()
/// comparison.dependent("ApplesView") { _ = basket.apples }
/// comparison.dependent("PeachesView") { _ = basket.peaches }
/// comparison.mutate("apples += 1") { basket.apples += 1 }
/// comparison.mutate("peaches += 1") { basket.peaches += 1 }
/// print(comparison.report)
/// // dependent     push re-runs             pull re-runs
/// // ApplesView    2 (apples, peaches)      1 (apples)
/// // PeachesView   2 (apples, peaches)      1 (peaches)
/// ```
///
/// A dependent is a closure that reads models (a stand-in for a view body). Its first run happens
/// when it is added; it re-runs at most once per mutation in each mode, after the mutation.
/// Push observes every `ObservableObject` the dependent read; objects that are not
/// `ObservableObject`s can only be observed by pull.
public final class PushPullComparison: @unchecked Sendable {
    /// The result: one entry per dependent, in the order they were added.
    public struct Report: Equatable, Sendable, CustomStringConvertible {
        /// One dependent's line of the report.
        public struct Entry: Equatable, Sendable {
            /// The dependent's name.
            public var dependent: String
            /// The cause of each re-run under object-level push (`objectWillChange`), in order.
            public var pushCauses: [String]
            /// The cause of each re-run under property-level pull (tracking), in order.
            public var pullCauses: [String]

            /// How many times the dependent re-ran under push.
            public var pushReruns: Int { pushCauses.count }
            /// How many times the dependent re-ran under pull.
            public var pullReruns: Int { pullCauses.count }
        }

        /// One entry per dependent, in the order they were added.
        public var entries: [Entry]
        /// The mutations applied, in order.
        public var mutations: [String]

        /// The entry for `dependent`.
        public subscript(dependent: String) -> Entry? {
            entries.first { $0.dependent == dependent }
        }

        public var description: String {
            func cell(_ causes: [String]) -> String {
                causes.isEmpty ? "0" : "\(causes.count) (\(causes.joined(separator: ", ")))"
            }
            let nameWidth = max(9, entries.map(\.dependent.count).max() ?? 0) + 3
            let pushWidth = max(12, entries.map { cell($0.pushCauses).count }.max() ?? 0) + 3
            func pad(_ text: String, _ width: Int) -> String {
                text + String(repeating: " ", count: max(0, width - text.count))
            }
            var lines = [pad("dependent", nameWidth) + pad("push re-runs", pushWidth) + "pull re-runs"]
            for entry in entries {
                lines.append(pad(entry.dependent, nameWidth) + pad(cell(entry.pushCauses), pushWidth) + cell(entry.pullCauses))
            }
            return lines.joined(separator: "\n")
        }
    }

    private final class Dependent: @unchecked Sendable {
        let name: String
        let body: () -> Void
        var pushCauses: [String] = []
        var pullCauses: [String] = []
        /// Causes gathered during the current mutation (push and pull), cleared when it re-runs.
        var pendingPush: [String] = []
        var pendingPull: [String] = []
        var observedObjects: Set<ObjectIdentifier> = []
        /// The pull observer armed by the latest run (continuous, so every cause until the next run
        /// is named).
        var pullToken: AnyCancellable?

        init(name: String, body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }
    }

    private struct State {
        var dependents: [Dependent] = []
        /// Every `objectWillChange` subscription (one per dependent and object it read).
        var pushSubscriptions: [AnyCancellable] = []
        /// Per observed object: a will-set observer on all its `@Published` properties, and the name of
        /// the property that changed last (what the next `objectWillChange` is about).
        var willSetTrackers: [ObjectIdentifier: AnyCancellable] = [:]
        var lastChanged: [ObjectIdentifier: String] = [:]
        var mutations: [String] = []
    }

    /// Also guards the dependents' fields. Nothing under it calls out: a token replaced is
    /// cancelled and released after unlocking.
    private let state = LockedValue(State())

    /// Creates an empty comparison.
    public init() {}

    /// Adds a dependent and runs it once, recording what it reads.
    public func dependent(_ name: String, _ body: @escaping () -> Void) {
        let dependent = Dependent(name: name, body: body)
        state.withLock { $0.dependents.append(dependent) }
        runPull(dependent)
        runPush(dependent)
    }

    /// Applies `mutation`, then re-runs every dependent it invalidated, once per mode.
    public func mutate(_ label: String, _ mutation: () -> Void) {
        mutation()
        let invalidated = state.withLock { $0.dependents }
        for dependent in invalidated {
            let (push, pull) = state.withLock { _ -> ([String], [String]) in
                let taken = (dependent.pendingPush, dependent.pendingPull)
                dependent.pendingPush = []
                dependent.pendingPull = []
                if !taken.0.isEmpty { dependent.pushCauses.append(taken.0.joined(separator: "+")) }
                if !taken.1.isEmpty { dependent.pullCauses.append(taken.1.joined(separator: "+")) }
                return taken
            }
            if !pull.isEmpty { runPull(dependent) }
            if !push.isEmpty { runPush(dependent) }
        }
        state.withLock { $0.mutations.append(label) }
    }

    /// The report so far.
    public var report: Report {
        state.withLock { state in
            Report(
                entries: state.dependents.map {
                    Report.Entry(dependent: $0.name, pushCauses: $0.pushCauses, pullCauses: $0.pullCauses)
                },
                mutations: state.mutations)
        }
    }

    // MARK: Pull: property-level tracking, re-armed after every run

    private func runPull(_ dependent: Dependent) {
        let token = track(dependent.body, phase: .didSet) { [weak self, weak dependent] event in
            guard let self, let dependent else { return }
            state.withLock { _ in dependent.pendingPull.append(event.propertyName ?? "\(event.subjectType)") }
        }
        let previous = state.withLock { _ -> AnyCancellable? in
            let previous = dependent.pullToken
            dependent.pullToken = token
            return previous
        }
        previous?.cancel()
    }

    // MARK: Push: objectWillChange of every ObservableObject the dependent read

    private func runPush(_ dependent: Dependent) {
        let objects = withAccesses(reportingToOuterScope: false, dependent.body) { _, accesses in
            accesses.filter { !$0.isExternal }.map(\.object)
        }
        for object in objects {
            let id = ObjectIdentifier(object)
            let isNew = state.withLock { _ in dependent.observedObjects.insert(id).inserted }
            guard isNew, let observable = object as? any ObservableObject else { continue }
            observeObject(observable, id: id)
            let subscription = subscribeWillChange(observable) { [weak self, weak dependent] in
                guard let self, let dependent else { return }
                state.withLock { state in
                    dependent.pendingPush.append(state.lastChanged[id] ?? "objectWillChange")
                }
            }
            state.withLock { $0.pushSubscriptions.append(subscription) }
        }
    }

    /// Names the property behind each `objectWillChange` of `object`: a will-set observer on all its
    /// `@Published` properties records which one is about to change (it runs before the publisher).
    private func observeObject(_ object: AnyObject, id: ObjectIdentifier) {
        let already = state.withLock { $0.willSetTrackers[id] != nil }
        guard !already else { return }
        let token = trackAllPublished(of: object, phase: .willSet) { [weak self] event in
            guard let self else { return }
            state.withLock { $0.lastChanged[id] = event.propertyName ?? "objectWillChange" }
        }
        let replaced = state.withLock { state in
            defer { state.willSetTrackers[id] = token }
            return state.willSetTrackers[id]
        }
        replaced?.cancel()
    }
}

/// Subscribes to an observable object's `objectWillChange`, whatever its publisher type.
private func subscribeWillChange(_ object: some ObservableObject, _ onChange: @escaping () -> Void) -> AnyCancellable {
    object.objectWillChange.sink(receiveCompletion: { _ in }, receiveValue: { _ in onChange() })
}

/// A continuous observer on every `@Published` property of `object`, without reading them.
func trackAllPublished(
    of object: AnyObject, phase: TrackingPhase, onChange: @escaping @Sendable (TrackingEvent) -> Void
) -> AnyCancellable {
    let observer = TrackingObserver(phases: TrackingPhases(phase), continuous: true, onChange: onChange)
    observer.arm(on: accessesToAllPublished(of: object))
    return AnyCancellable { observer.cancel() }
}
