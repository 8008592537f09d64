import Foundation
import RippleCore  // LockedValue

/// A node of the render tree: one view's identity, its state and its dependencies.
///
/// Public only so that primitive views can reach it in `_update(node:previous:)`; not API.
public final class _NodeHandle: @unchecked Sendable {
    unowned let reconciler: Reconciler
    weak var parent: _NodeHandle?
    /// The view as last given by the parent.
    var view: any View
    /// The view as of the last evaluation (what `_update` compares with).
    var lastEvaluatedView: (any View)?
    let key: ChildKey
    let identity: ChildIdentity
    let typeName: String
    let depth: Int
    /// Creation order: with depth, the order a flush evaluates nodes in (parents first, then
    /// siblings in the order they were inserted).
    let order: Int
    let isPrimitive: Bool
    /// Where the view's dynamic properties are and how its values compare (composite views; a
    /// primitive view is updated every time its parent is).
    let layout: ValueLayout
    /// What the test API looks for in this node's view (its type's ``ViewRoles``).
    let roles: ViewRoles
    /// Whether this node is a presented screen (a sheet, an alert, a pushed screen).
    let isPresentedChild: Bool
    /// The names the test API finds this control by that come from its own subtree, kept until
    /// something in the subtree is evaluated again (``RenderTree``). Main actor only.
    var cachedNames: [String]?
    var children: [_NodeHandle] = []
    var environment: EnvironmentValues
    var attached = true
    var evaluatedInPass = 0
    /// Whether the node waits for re-evaluation, and why. Guarded by the reconciler's lock
    /// (``Reconciler/markDirty(_:cause:)``).
    var isDirty = false
    var pendingCauses: [String] = []
    /// This node's position among its parent's children (kept by the reconciler).
    var indexInParent = 0

    /// What changes reach from any thread (see ``Guarded``), behind one lock.
    private let guarded = LockedValue(Guarded())
    /// What a modifier keeps between evaluations (an `onReceive` subscription).
    var modifierState: AnyObject?

    /// What a node keeps for any thread: its storage, names, tracking and subscriptions.
    private struct Guarded {
        /// Storage of the view's dynamic properties, by field index (state values, state objects).
        var slots: [Int: AnyObject] = [:]
        /// Names of storage objects (`_value`), for the log.
        var names: [ObjectIdentifier: String] = [:]
        var tracking: AnyCancellable?
        /// The log cause of the last `@Observable` change this node heard of, by key path (naming
        /// the property costs a type name and a symbol lookup).
        var lastObservableCause: (keyPath: AnyKeyPath, cause: String)?
        var generation = 0
        /// `objectWillChange` subscriptions, by field index, with the object they watch.
        var objectSubscriptions: [Int: (object: ObjectIdentifier, token: AnyCancellable)] = [:]
        /// Environment values the view reads, with the value at the last evaluation.
        var environmentReads: [String: (read: (EnvironmentValues) -> Any, value: Any)] = [:]
    }

    init(reconciler: Reconciler, parent: _NodeHandle?, view: any View, key: ChildKey, environment: EnvironmentValues) {
        self.reconciler = reconciler
        self.parent = parent
        self.view = view
        self.key = key
        self.environment = environment
        identity = ChildIdentity(key: key, type: ObjectIdentifier(type(of: view)))
        layout = ValueLayout.of(type(of: view))
        typeName = layout.typeName
        depth = (parent?.depth ?? -1) + 1
        order = reconciler.nextNodeOrder()
        isPrimitive = layout.isPrimitiveView
        roles = layout.roles
        if case .any(let hashable) = key, hashable.base is PresentedKey {
            isPresentedChild = true
            reconciler.presentedNodesChanged(by: 1)
        } else {
            isPresentedChild = false
        }
    }

    /// Where this node is in the tree: its ancestors' positions, root first, then its own. A flush
    /// evaluates dirty nodes in the order of these paths.
    var treePath: [Int] {
        var path: [Int] = []
        var current: _NodeHandle? = self
        while let node = current, let parent = node.parent {
            path.append(node.indexInParent)
            current = parent
        }
        path.reverse()
        return path
    }

    // MARK: Storage

    /// The storage object at `slot`, created on first use (node insertion).
    func storage<T: AnyObject>(at slot: Int, create: () -> T) -> T {
        if let existing = guarded.withLock({ $0.slots[slot] }) as? T { return existing }
        let created = create()
        guarded.withLock { $0.slots[slot] = created }
        return created
    }

    /// Names a storage object for the log (`_value changed`).
    func name(_ object: AnyObject, _ label: String) {
        guarded.withLock { $0.names[ObjectIdentifier(object)] = label }
    }

    /// Connects the view's dynamic properties to this node (state, objects, environment): the
    /// fields the view type's layout lists, read in place (no reflection per evaluation).
    func installDynamicProperties() {
        guard !isPrimitive, !layout.installables.isEmpty else { return }
        func install<V: View>(_ view: V) {
            withUnsafePointer(to: view) { base in
                let base = UnsafeRawPointer(base)
                for field in layout.installables {
                    installField(field.type, at: base + field.offset, slot: field.slot, label: field.label)
                }
            }
        }
        install(view)
    }

    private func installField<F: NodeInstallable>(_: F.Type, at address: UnsafeRawPointer, slot: Int, label: String) {
        address.assumingMemoryBound(to: F.self).pointee.install(on: self, slot: slot, label: label)
    }

    /// Whether `view` (a new value for this node) differs from `old` (``ValueLayout``'s rules).
    func differs(_ old: any View, _ new: any View) -> Bool {
        if isPrimitive { return true }
        func compare<V: View>(_ old: V) -> Bool {
            guard let new = new as? V else { return true }
            return withUnsafePointer(to: old) { old in
                withUnsafePointer(to: new) { new in !layout.same(UnsafeRawPointer(old), UnsafeRawPointer(new)) }
            }
        }
        return compare(old)
    }

    // MARK: Dependencies

    func nextGeneration() -> Int {
        guarded.withLock {
            $0.generation += 1
            return $0.generation
        }
    }

    /// Replaces the tracking of the previous evaluation by the one `token` holds.
    func setTracking(_ token: AnyCancellable) {
        let previous = guarded.withLock { guarded -> AnyCancellable? in
            defer { guarded.tracking = token }
            return guarded.tracking
        }
        previous?.cancel()
    }

    /// A tracked property this node read changed.
    func changed(_ event: TrackingEvent, generation: Int) {
        // `object` is nil for an @Observable model's change (Observation does not say which instance).
        if let object = event.object, !isViewDependency(object) { return }
        let keyPath = event.object == nil ? event.changedKeyPath : nil
        let (current, label, cached) = guarded.withLock { guarded in
            (
                guarded.generation == generation, event.object.flatMap { guarded.names[ObjectIdentifier($0)] },
                keyPath != nil && guarded.lastObservableCause?.keyPath == keyPath ? guarded.lastObservableCause?.cause : nil
            )
        }
        guard current else { return }
        if let cached {
            reconciler.markDirty(self, cause: cached)
            return
        }
        // An @Observable model's change comes with its key path only (no object); the event names
        // its property from the binary's symbols, once per key path for all nodes.
        let cause: String
        if let keyPath, let known = observableCauses.withLock({ $0[keyPath] }) {
            cause = known
        } else {
            let property = event.propertyName ?? "property"
            let name = label ?? (event.object as? LabeledStorage)?.label ?? "\(event.subjectType).\(property)"
            cause = "\(name) changed"
            if let keyPath { observableCauses.withLock { $0[keyPath] = cause } }
        }
        // The cause of an @Observable change depends on its key path only: kept for the next one.
        if let keyPath { guarded.withLock { $0.lastObservableCause = (keyPath, cause) } }
        reconciler.markDirty(self, cause: cause)
    }

    /// Re-evaluate on any `objectWillChange` of `object` (object-level, as SwiftUI does for
    /// `@ObservedObject`, `@StateObject` and `@EnvironmentObject`).
    func observe<Object: ObservableObject>(_ object: Object, slot: Int, label: String) {
        let id = ObjectIdentifier(object)
        // A tracked read of the object's properties reports under the wrapper's name too: the
        // object-level dependency already covers it.
        name(object, label)
        if guarded.withLock({ $0.objectSubscriptions[slot]?.object == id }) { return }
        let token = object.objectWillChange.sink { [weak self] _ in
            guard let self else { return }
            self.reconciler.markDirty(self, cause: "\(label) changed")
        }
        let previous = guarded.withLock { guarded -> AnyCancellable? in
            defer { guarded.objectSubscriptions[slot] = (id, token) }
            return guarded.objectSubscriptions[slot]?.token
        }
        previous?.cancel()
    }

    /// Records an environment value the view reads.
    func readsEnvironment(label: String, read: @escaping (EnvironmentValues) -> Any) {
        let value = read(environment)
        guarded.withLock { $0.environmentReads[label] = (read, value) }
    }

    /// The environment reads that `environment` changes, as log causes.
    func environmentChanges(to environment: EnvironmentValues) -> [String] {
        // The same stamp is the same environment: nothing to compare.
        if environment.stamp == self.environment.stamp { return [] }
        let reads = guarded.withLock { $0.environmentReads }
        return reads.compactMap { label, entry in
            sameValue(entry.value, entry.read(environment)) ? nil : "\(label) changed"
        }.sorted()
    }

    // MARK: Removal

    /// Removes this node and everything below it: its state and state objects are released, its
    /// subscriptions cancelled.
    func detach() {
        let (tracking, subscriptions, released, wasAttached) = guarded.withLock {
            guarded -> (AnyCancellable?, [AnyCancellable], [Int: AnyObject], Bool) in
            let wasAttached = attached
            attached = false
            defer {
                guarded.tracking = nil
                guarded.objectSubscriptions = [:]
                guarded.slots = [:]
                guarded.names = [:]
            }
            return (guarded.tracking, guarded.objectSubscriptions.values.map(\.token), guarded.slots, wasAttached)
        }
        if wasAttached, isPresentedChild { reconciler.presentedNodesChanged(by: -1) }
        tracking?.cancel()
        subscriptions.forEach { $0.cancel() }
        (modifierState as? any Cancellable)?.cancel()
        modifierState = nil
        _ = released
        children.forEach { $0.detach() }
        children = []
    }
}

/// The log cause of an `@Observable` property's change, by key path (it depends on nothing else),
/// named once for every node that reads the property.
private let observableCauses = LockedValue<[AnyKeyPath: String]>([:])
