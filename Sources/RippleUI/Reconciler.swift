import Foundation
import RippleCore  // LockedValue

/// The reconciler behind a ``RenderTree``: it evaluates bodies, keeps each view's state in a node
/// identified by the view's place in the tree, and re-evaluates exactly the nodes whose
/// dependencies changed. It knows nothing of screens, texts or taps: the test API
/// (``RenderTree``) reads the nodes it keeps and hears from it, through ``ReconcilerObserver``,
/// when a node is inserted, evaluated or removed.
///
/// - Identity: a node is its parent's node plus the child's position (or its `ForEach`/`.id(_:)`
///   id, or its `if` branch) and its view type. A new identity inserts a new node (fresh state);
///   a removed one releases its state and `StateObject`s.
/// - Dependencies: what a body read (``_NodeHandle/changed(_:generation:)``), the objects its
///   wrappers observe, the environment values it reads, and its own inputs (`@self`).
/// - Updates wait for ``flush()``: a change only marks nodes, under a lock, from any thread.
@MainActor
final class Reconciler {
    /// What is marked from any thread (see ``Marks``), behind one lock.
    private nonisolated let marks = LockedValue(Marks())
    private var afterPass: [() -> Void] = []
    /// Tasks started by `.task` modifiers that nobody has awaited yet.
    private var startedTasks: [Task<Void, Never>] = []
    private var pass = 0
    private(set) var root: _NodeHandle!
    /// Hears about insertions, evaluations and removals (the test API's index).
    weak var observer: (any ReconcilerObserver)?

    /// Print each evaluation as it happens, like `Self._printChanges()`.
    var printsChanges = false

    /// What the reconciler keeps for any thread: changes mark nodes from anywhere.
    private struct Marks {
        /// Nodes marked since a pass last gathered them (each node's causes are its own
        /// ``_NodeHandle/pendingCauses``, guarded by this lock; a node whose causes were taken since
        /// is skipped). A list, not a table: marking a node and taking its causes cost no hashing.
        var dirty: [_NodeHandle] = []
        /// Nodes that became dirty since a pass last looked, in the order they were marked.
        var added: [_NodeHandle] = []
        /// The log (made into lines when read) and the evaluation counts.
        var entries: [(typeName: String, reasons: [String])] = []
        /// By view type (hashing a type's identity is cheaper than hashing its name at every
        /// evaluation); types of one name count together.
        var counts: [ObjectIdentifier: (typeName: String, count: Int)] = [:]
        var nodesCreated = 0
        /// How many presented screens are attached (sheets, alerts, pushed screens).
        var presentedNodes = 0
    }

    init() {}

    /// Inserts `view` as the root and evaluates everything below it.
    func mount(_ view: some View, environment: EnvironmentValues) {
        observationBridge
        root = _NodeHandle(reconciler: self, parent: nil, view: view, key: .any("root"), environment: environment)
        observer?.inserted(root)
        pass += 1
        evaluate(root, reasons: ["@identity"])
        runAfterPass()
        flush()
    }

    // MARK: Diagnostics

    /// Every composite body evaluation so far, with why.
    var log: [String] {
        marks.withLock { $0.entries }.map { "\($0.typeName): " + $0.reasons.joined(separator: ", ") }
    }

    /// Forgets the log (counts are kept).
    func clearLog() { marks.withLock { $0.entries = [] } }

    /// How many times bodies of views of this type name were evaluated.
    func evaluations(of typeName: String) -> Int {
        marks.withLock { $0.counts.values.reduce(0) { $0 + ($1.typeName == typeName ? $1.count : 0) } }
    }

    // MARK: Updates

    /// Replaces the root view: the root re-evaluates (`@self`) if the new view differs, and the
    /// tree is flushed.
    func update(_ view: some View) {
        let previous = root.view
        root.view = view
        if root.differs(previous, view) { markDirty(root, cause: "@self changed") }
        flush()
    }

    /// The environment the root view gets.
    var rootEnvironment: EnvironmentValues { root.environment }

    func started(_ task: Task<Void, Never>) { startedTasks.append(task) }

    /// The tasks started since the last call.
    func takeStartedTasks() -> [Task<Void, Never>] {
        defer { startedTasks = [] }
        return startedTasks
    }

    /// Changes the root's environment: readers of what changed re-evaluate, then the tree is
    /// flushed.
    func updateEnvironment(_ transform: (inout EnvironmentValues) -> Void) {
        var environment = root.environment
        transform(&environment)
        for cause in root.environmentChanges(to: environment) { markDirty(root, cause: cause) }
        root.environment = environment
        propagate(environment, below: root)
        flush()
    }

    /// Re-evaluates every node whose dependencies changed, until nothing is left (at most 100
    /// passes: a body that changes its own dependencies stops there).
    ///
    /// A pass runs each dirty node once, in tree order: a node's ancestors and everything before it
    /// among its ancestors' children first. A view is evaluated after the views that build its
    /// inputs — its parent's body, and, for a pushed screen, the link in the list below it (a stack
    /// lists its root before its pushed screens, a presenter its content before its sheet). A node
    /// marked during the pass that comes after the node being evaluated joins this pass; one that
    /// comes before it, or one already evaluated, waits for the next.
    func flush() {
        var passes = 0
        while passes < 100 {
            pass += 1
            var evaluatedAny = false
            let pending = marks.withLock { marks -> [_NodeHandle] in
                marks.added = []
                // Still waiting: marked, attached, and not evaluated with its parent since.
                marks.dirty.removeAll { !$0.isDirty || !$0.attached }
                return marks.dirty
            }
            if pending.isEmpty { return }
            var queue = PassQueue(pending: pending)
            while let next = queue.next(adding: marks.withLock { marks -> [_NodeHandle] in
                defer { marks.added = [] }
                return marks.added
            }) {
                guard next.attached, next.evaluatedInPass != pass else { continue }
                let causes = takeCauses(next)
                // Evaluated with its parent since it was queued.
                if causes.isEmpty { continue }
                evaluatedAny = true
                evaluate(next, reasons: causes)
            }
            if !evaluatedAny { return }
            passes += 1
            runAfterPass()
        }
        FileHandle.standardError.write(Data("RippleUI warning: flush stopped after 100 passes (a body keeps changing what it reads)\n".utf8))
    }

    nonisolated func nextNodeOrder() -> Int {
        marks.withLock {
            $0.nodesCreated += 1
            return $0.nodesCreated
        }
    }

    nonisolated func presentedNodesChanged(by delta: Int) {
        marks.withLock { $0.presentedNodes += delta }
    }

    /// Whether a sheet, an alert or a pushed screen is attached anywhere in the tree.
    var hasPresentedNodes: Bool { marks.withLock { $0.presentedNodes > 0 } }

    nonisolated func markDirty(_ node: _NodeHandle, cause: String) {
        marks.withLock { marks in
            guard node.attached else { return }
            if !node.isDirty {
                node.isDirty = true
                marks.dirty.append(node)
                marks.added.append(node)
            }
            if !node.pendingCauses.contains(cause) { node.pendingCauses.append(cause) }
        }
    }

    /// The causes gathered for `node` since its last evaluation (none if it is not dirty).
    private func takeCauses(_ node: _NodeHandle) -> [String] {
        marks.withLock { _ in
            guard node.isDirty else { return [] }
            node.isDirty = false
            defer { node.pendingCauses = [] }
            return node.pendingCauses
        }
    }

    /// Runs `action` once the current pass has finished evaluating (`onChange` actions).
    func afterThisPass(_ action: @escaping () -> Void) {
        afterPass.append(action)
    }

    private func runAfterPass() {
        while true {
            let actions = afterPass
            afterPass = []
            if actions.isEmpty { return }
            actions.forEach { $0() }
        }
    }

    // MARK: Evaluation

    private func evaluate(_ node: _NodeHandle, reasons: [String]) {
        node.evaluatedInPass = pass
        observer?.evaluating(node)
        let previousView = node.lastEvaluatedView
        node.lastEvaluatedView = node.view
        node.installDynamicProperties()
        let generation = node.nextGeneration()
        let view = node.view
        var environment = node.environment
        let children: [_Child]
        if let primitive = node.layout.asPrimitive?(view) {
            if node.layout.listsStoredChildren {
                // Its children were built by its parent's body: listing them reads nothing.
                children = primitive._children(in: node)
            } else {
                var listed: [_Child] = []
                node.setTracking(
                    track({ listed = primitive._children(in: node) }, phase: .willSet) { [weak node] event in
                        node?.changed(event, generation: generation)
                    })
                children = listed
            }
            primitive._applyEnvironment(to: &environment)
            updatePrimitive(primitive, node: node, previous: previousView)
        } else {
            let typeName = node.typeName
            marks.withLock {
                $0.entries.append((typeName, reasons))
                $0.counts[node.identity.type, default: (typeName, 0)].count += 1
            }
            if printsChanges { print("\(typeName): " + reasons.joined(separator: ", ")) }
            var body: (any View)?
            node.setTracking(
                track({ body = evaluateBody(view) }, phase: .willSet) { [weak node] event in
                    node?.changed(event, generation: generation)
                })
            children = [_Child(body!, index: 0)]
        }
        reconcile(node, children: children, environment: environment)
    }

    private func updatePrimitive<P: _PrimitiveView>(_ view: P, node: _NodeHandle, previous: (any View)?) {
        view._update(node: node, previous: previous as? P)
    }

    private func evaluateBody<V: View>(_ view: V) -> any View { view.body }

    /// Matches the children a body or primitive produced with the node's current children by
    /// identity, keeps the matches (re-evaluating those whose inputs or environment changed),
    /// inserts the new ones and removes the rest. Children that keep their order are matched by
    /// position, without a lookup table; the table is built only from the first change of order.
    private func reconcile(_ node: _NodeHandle, children: [_Child], environment: EnvironmentValues) {
        let old = node.children
        var position = 0
        var existing: [ChildIdentity: _NodeHandle]?
        var kept: [_NodeHandle] = []
        kept.reserveCapacity(children.count)
        var toEvaluate: [(_NodeHandle, [String])] = []
        for child in children {
            let identity = ChildIdentity(key: child.identityKey, type: ObjectIdentifier(Swift.type(of: child.view)))
            let found: _NodeHandle?
            if existing == nil, position < old.count, old[position].identity == identity {
                found = old[position]
                position += 1
            } else {
                if existing == nil {
                    var table: [ChildIdentity: _NodeHandle] = [:]
                    for remaining in old[position...] { table[remaining.identity] = remaining }
                    existing = table
                }
                found = existing?.removeValue(forKey: identity)
            }
            if let match = found {
                let previous = match.view
                match.view = child.view
                var reasons = match.isPrimitive || match.differs(previous, child.view) ? Self.selfChanged : []
                let environmentChanges = match.environmentChanges(to: environment)
                if !environmentChanges.isEmpty { reasons += environmentChanges }
                let environmentMoved = match.environment.stamp != environment.stamp
                match.environment = environment
                if !reasons.isEmpty {
                    toEvaluate.append((match, reasons))
                } else if environmentMoved {
                    // Not re-evaluated, but a descendant may read what changed.
                    propagate(environment, below: match)
                }
                kept.append(match)
            } else {
                let created = _NodeHandle(
                    reconciler: self, parent: node, view: child.view, key: child.identityKey, environment: environment)
                kept.append(created)
                observer?.inserted(created)
                toEvaluate.append((created, ["@identity"]))
            }
        }
        // The new children are in place before the old ones go: a removal can take a presented
        // screen out of them (a link's pushed screen goes with the link, ``removeNow(_:)``).
        node.children = kept
        if let existing {
            for removed in existing.values { remove(removed) }
        } else {
            for removed in old[position...] { remove(removed) }
        }
        for (index, child) in node.children.enumerated() where child.indexInParent != index { child.indexInParent = index }
        // A child removed meanwhile (its owner left the tree) is not evaluated.
        for (child, reasons) in toEvaluate where child.attached {
            let pending = takeCauses(child)
            evaluate(child, reasons: pending.isEmpty ? reasons : reasons + pending.filter { !reasons.contains($0) })
        }
    }

    /// The causes of a re-evaluation by a changed input, made once (the array is shared).
    private static let selfChanged = ["@self changed"]

    /// Takes `node` and its subtree out of the tree.
    private func remove(_ node: _NodeHandle) {
        observer?.removing(node)
        node.detach()
    }

    /// Takes `node` out of its parent's children now, in the middle of a pass: a presented screen
    /// whose owner left the tree. Neither it nor anything below it is evaluated again (a flush and
    /// a parent's reconciliation skip detached nodes); its `onDisappear` actions run after the pass.
    func removeNow(_ node: _NodeHandle) {
        guard node.attached, let parent = node.parent, parent.attached else { return }
        parent.children.removeAll { $0 === node }
        for (index, child) in parent.children.enumerated() where child.indexInParent != index { child.indexInParent = index }
        remove(node)
    }

    /// Hands a changed environment down a subtree that is not being re-evaluated, marking the
    /// nodes whose `@Environment` reads it changes.
    private func propagate(_ environment: EnvironmentValues, below node: _NodeHandle) {
        var inner = environment
        if let primitive = node.view as? any _PrimitiveView { primitive._applyEnvironment(to: &inner) }
        for child in node.children {
            let changes = child.environmentChanges(to: inner)
            child.environment = inner
            for cause in changes { markDirty(child, cause: cause) }
            propagate(inner, below: child)
        }
    }

    /// A preference at or below `node` may have changed: after this pass, every reader at or above
    /// it recomputes its value.
    func preferencesChanged(below node: _NodeHandle) {
        var readers: [_NodeHandle] = []
        var current: _NodeHandle? = node
        while let candidate = current {
            if candidate.view is any _PreferenceReader { readers.append(candidate) }
            current = candidate.parent
        }
        for reader in readers {
            afterThisPass { [weak reader] in
                guard let reader, reader.attached, let view = reader.view as? any _PreferenceReader else { return }
                view.refresh(node: reader)
            }
        }
    }
}

/// What hears from a ``Reconciler`` about its nodes (the test API's index of controls).
@MainActor protocol ReconcilerObserver: AnyObject {
    /// `node` was inserted (it is evaluated next).
    func inserted(_ node: _NodeHandle)
    /// `node` is about to be evaluated: what it shows may change.
    func evaluating(_ node: _NodeHandle)
    /// `node` and its subtree are leaving the tree.
    func removing(_ node: _NodeHandle)
}

/// A child's identity among its siblings: its key and its view type.
struct ChildIdentity: Hashable {
    let key: ChildKey
    let type: ObjectIdentifier
}

protocol ObservedObjectField {
    var objectIdentity: ObjectIdentifier { get }
}

extension ObservedObject: ObservedObjectField {
    var objectIdentity: ObjectIdentifier { ObjectIdentifier(wrappedValue) }
}

protocol BindingField {
    /// Whether `other` points at the same source with the same value snapshot.
    func matches(_ other: Self) -> Bool
}

extension Binding: BindingField {}

/// The nodes one pass of ``Reconciler/flush()`` evaluates, in tree order (``_NodeHandle/treePath``).
@MainActor struct PassQueue {
    private var entries: [(path: [Int], node: _NodeHandle)]
    private var cursor = 0
    /// The node handed out last: nodes marked later that come before it wait. Its path is worked
    /// out only when a node is marked during the pass (most passes mark none).
    private var current: _NodeHandle?

    init(pending: [_NodeHandle]) {
        if pending.count < 2 {
            // One node (a row changed): nothing to order.
            entries = pending.map { ([], $0) }
        } else {
            entries = pending.map { ($0.treePath, $0) }.sorted { $0.path.lexicographicallyPrecedes($1.path) }
        }
    }

    /// The next node to evaluate, after taking in `added` (nodes marked since the last call).
    mutating func next(adding added: [_NodeHandle]) -> _NodeHandle? {
        if !added.isEmpty {
            if entries.count - cursor == 1, entries[cursor].path.isEmpty { entries[cursor].path = entries[cursor].node.treePath }
            let currentPath = current?.treePath
            for node in added where node.attached {
                let path = node.treePath
                if let currentPath, !currentPath.lexicographicallyPrecedes(path) { continue }
                var low = cursor
                var high = entries.count
                while low < high {
                    let middle = (low + high) / 2
                    if entries[middle].path.lexicographicallyPrecedes(path) { low = middle + 1 } else { high = middle }
                }
                entries.insert((path, node), at: low)
            }
        }
        guard cursor < entries.count else { return nil }
        defer { cursor += 1 }
        let entry = entries[cursor]
        current = entry.node
        return entry.node
    }
}
