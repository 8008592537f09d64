import Foundation

/// A headless render tree: it evaluates view bodies, keeps each view's state in a node identified
/// by the view's place in the tree, and re-evaluates exactly the bodies whose dependencies changed
/// — and it is what a test drives: what is on screen, the gestures, the log.
///
/// ```swift
/// struct Counter: View {
///     @State private var value = 0
///     var body: some View {
///         Button("Count: \(value)") { value += 1 }
///     }
/// }
/// let tree = RenderTree(Counter())
/// try tree.tap("Count: 0")
/// tree.texts            // ["Count: 1"]
/// tree.log              // ["Counter: @identity", "Counter: _value changed"]
/// ```
///
/// - Identity: a node is its parent's node plus the child's position (or its `ForEach`/`.id(_:)`
///   id, or its `if` branch) and its view type. A new identity inserts a new node (fresh state);
///   a removed one releases its state and `StateObject`s.
/// - Dependencies: `@State` and tracked properties (`@Published`, `TrackingRegistrar`) a body
///   reads, at property level; `@ObservedObject`/`@StateObject`/`@EnvironmentObject` at object
///   level (any `objectWillChange`); `@Environment` values; the view's own inputs (`@self`).
/// - Updates wait for ``flush()`` (the turn of the run loop SwiftUI waits for); the interactions
///   (``tap(_:matching:)``, ``type(_:into:matching:)``, ``focus(_:matching:)``, ``toggle(_:matching:)``) flush by themselves.
/// - Diagnostics, like SwiftUI's `Self._printChanges()`: every composite body evaluation is logged
///   with why (`@identity`, `@self`, the changed dependencies).
///
/// The tree is isolated to the main actor, as SwiftUI's views are; models may change on any
/// thread (a change only marks nodes, under a lock, for the next ``flush()``).
@MainActor
public final class RenderTree {
    /// Evaluates and reconciles the nodes; this class reads them (what is on screen, the
    /// gestures, the log) and indexes the controls.
    let reconciler = Reconciler()
    /// Whether some control keeps its names (``_NodeHandle/cachedNames``): evaluations then
    /// clear the names of the controls above them.
    private var namesCached = false
    /// The index of buttons and links by name.
    let controlIndex = ControlIndex()
    /// The field the test focused last (``focus(_:matching:)``), for focused values.
    var lastFocused = WeakNode()
    /// The `.focusedValue` writers inserted (removed ones are dropped when focused values are
    /// worked out).
    var focusedValueWriters: [WeakNode] = []

    /// The root node.
    var root: _NodeHandle { reconciler.root }

    /// Print each evaluation as it happens, like `Self._printChanges()`.
    public var printsChanges: Bool {
        get { reconciler.printsChanges }
        set { reconciler.printsChanges = newValue }
    }

    /// Inserts `view` as the root and evaluates everything below it.
    public init(_ view: some View, environment: EnvironmentValues = EnvironmentValues()) {
        reconciler.observer = self
        var environment = environment
        if environment.focusedValuesStore == nil { environment.focusedValuesStore = FocusedValuesStore() }
        reconciler.mount(view, environment: environment)
    }

    // MARK: Diagnostics

    /// Every composite body evaluation so far, as `"Counter: @identity"`,
    /// `"Counter: _value changed"`, `"CountView: @self changed"`.
    public var log: [String] { reconciler.log }

    /// Forgets the log (counts are kept).
    public func clearLog() { reconciler.clearLog() }

    /// How many times bodies of views of this type name were evaluated (the name the log shows:
    /// a generic view's name without its arguments).
    public func evaluations(of typeName: String) -> Int { reconciler.evaluations(of: typeName) }

    /// How many times bodies of views of type `type` were evaluated (`evaluations(of: Detail.self)`;
    /// a generic view's specializations count together, as in the log).
    public func evaluations<V: View>(of type: V.Type) -> Int { reconciler.evaluations(of: ValueLayout.of(V.self).typeName) }

    /// The texts the screen shows now, depth first: texts, and `[title: value]` for fields,
    /// toggles, sliders, steppers and pickers. Only the top screen counts: the pushed destination
    /// of a navigation stack, the presented sheet (see ``RenderTree/tap(_:matching:)``).
    public var texts: [String] { visibleTexts() }

    /// An indented outline of the tree: one line per node, with what it shows.
    public func dump() -> String {
        var lines: [String] = []
        func walk(_ node: _NodeHandle, _ depth: Int) {
            let text = (node.view as? any _PrimitiveView)?._text.map { " \"\($0)\"" } ?? ""
            lines.append(String(repeating: "  ", count: depth) + node.typeName + text)
            node.children.forEach { walk($0, depth + 1) }
        }
        walk(root, 0)
        return lines.joined(separator: "\n")
    }

    // MARK: Updates

    /// Replaces the root view (a parent handing new inputs to it): the root re-evaluates (`@self`)
    /// if the new view differs, and the tree is flushed.
    public func update(_ view: some View) { reconciler.update(view) }

    /// The environment the root view gets.
    var rootEnvironment: EnvironmentValues { reconciler.rootEnvironment }

    /// Waits until every task the views' `.task` modifiers have started has finished — run to its
    /// end, or stopped after being cancelled — flushing after each round (a finished task's
    /// changes may start new ones). A task that never ends must be cancelled first (by removing
    /// its view, or changing its id), or this never returns.
    public func waitForTasks() async {
        while true {
            let tasks = reconciler.takeStartedTasks()
            if tasks.isEmpty {
                flush()
                return
            }
            for task in tasks { await task.value }
            flush()
        }
    }

    /// Changes the root's environment (what the app's scene hands its views: ``scenePhase``, an
    /// app storage): readers of what changed re-evaluate, then the tree is flushed.
    public func updateEnvironment(_ transform: (inout EnvironmentValues) -> Void) {
        reconciler.updateEnvironment(transform)
    }

    /// Re-evaluates every node whose dependencies changed, parents before children, until nothing
    /// is left (at most 100 passes: a body that changes its own dependencies stops there).
    public func flush() { reconciler.flush() }

    /// Whether a sheet, an alert or a pushed screen is attached anywhere in the tree.
    var hasPresentedNodes: Bool { reconciler.hasPresentedNodes }

    /// Keeps the names the test API found a control by (see ``_NodeHandle/cachedNames``).
    func cacheNames(_ names: [String], on node: _NodeHandle) {
        node.cachedNames = names
        namesCached = true
        controlIndex.add(node, names: names)
    }
}

extension RenderTree: ReconcilerObserver {
    func inserted(_ node: _NodeHandle) {
        if node.roles.contains(.tappable) { controlIndex.markPending(node) }
        if node.roles.contains(.focusedValueWriter) { focusedValueWriters.append(WeakNode(node: node)) }
    }

    func evaluating(_ node: _NodeHandle) {
        if namesCached {
            // What this node shows may change: the controls around it are named anew.
            var current: _NodeHandle? = node
            while let ancestor = current {
                if let names = ancestor.cachedNames {
                    ancestor.cachedNames = nil
                    controlIndex.remove(ancestor, names: names)
                    controlIndex.markPending(ancestor)
                }
                current = ancestor.parent
            }
        }
        if node.roles.contains(.accessibilityNamed), let named = node.view as? any _AccessibilityNamed {
            controlIndex.noteAccessibilityName(named.name, of: node)
        }
    }

    func removing(_ node: _NodeHandle) {
        if !controlIndex.isEmpty { controlIndex.forget(subtree: node) }
    }
}
