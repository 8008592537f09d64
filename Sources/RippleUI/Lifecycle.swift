import Foundation

// Lifecycle: a view appears when its node is inserted into the tree and disappears when the node
// is removed (its parent's `if` turned false, its row was deleted, its sheet was dismissed, its
// screen was popped). Tasks live exactly that long; `task(id:)` restarts when the id changes.

/// What a node does when it is removed from the tree, kept as its modifier state:
/// ``_NodeHandle/detach()`` cancels it, on the main actor. Unlike an `AnyCancellable`, releasing it
/// does nothing — a tree released as a whole (a test suite's deinit, maybe off the main actor)
/// removes no views, and the action does not run there.
final class OnRemoval: Cancellable {
    private var action: (@MainActor () -> Void)?

    init(_ action: @escaping @MainActor () -> Void) { self.action = action }

    func cancel() {
        guard let action else { return }
        self.action = nil
        MainActor.assumeIsolated(action)
    }
}

/// Keeps the newest action of a modifier between evaluations, for a removal that runs it later.
final class ActionBox {
    var action: (() -> Void)?
}

/// `.onAppear(perform:)`: runs after the pass that inserted the node.
public struct _OnAppear<Content: View>: _PrimitiveView {
    let content: Content
    let action: (() -> Void)?
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
    public func _update(node: _NodeHandle, previous: _OnAppear?) {
        guard previous == nil, let action else { return }
        node.reconciler.afterThisPass(action)
    }
}

/// `.onDisappear(perform:)`: runs after the pass that removed the node.
public struct _OnDisappear<Content: View>: _PrimitiveView {
    let content: Content
    let action: (() -> Void)?
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
    public func _update(node: _NodeHandle, previous: _OnDisappear?) {
        let box = node.storage(at: -1) { ActionBox() }
        box.action = action
        guard previous == nil else { return }
        // Weakly: the reconciler holds this node (a strong capture would keep the tree alive).
        node.modifierState = OnRemoval { [weak reconciler = node.reconciler] in
            if let action = box.action { reconciler?.afterThisPass(action) }
        }
    }
}

/// The running task of a `.task` modifier and the id it was started for.
final class TaskSlot {
    var task: Task<Void, Never>?
    var id: AnyHashable?

    // A tree released as a whole (on any thread) cancels its tasks too.
    deinit { task?.cancel() }
}

/// `.task(id:priority:_:)`: starts a task when the node is inserted and again when the id
/// changes (cancelling the previous one), and cancels it when the node is removed.
public struct _TaskModifier<Content: View, ID: Equatable>: _PrimitiveView {
    let content: Content
    let id: ID
    let priority: TaskPriority
    let action: @MainActor () async -> Void

    public func _children() -> [_Child] { [_Child(content, key: 0)] }

    public func _update(node: _NodeHandle, previous: _TaskModifier?) {
        let slot = node.storage(at: -1) { TaskSlot() }
        if let previous {
            guard previous.id != id else { return }
            slot.task?.cancel()
        } else {
            node.modifierState = OnRemoval { slot.task?.cancel() }
        }
        let action = self.action
        let task = Task(priority: priority) { @MainActor in await action() }
        slot.task = task
        node.reconciler.started(task)
    }
}

extension View {
    /// Runs `action` after the view is inserted into the tree.
    public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        _OnAppear(content: self, action: action)
    }

    /// Runs `action` after the view is removed from the tree.
    public func onDisappear(perform action: (() -> Void)? = nil) -> some View {
        _OnDisappear(content: self, action: action)
    }

    /// Starts `action` on the main actor when the view is inserted, and cancels it when the view
    /// is removed. ``RenderTree/waitForTasks()`` waits for it.
    public func task(
        priority: TaskPriority = .userInitiated, _ action: @escaping @MainActor @Sendable () async -> Void
    ) -> some View {
        _TaskModifier(content: self, id: 0, priority: priority, action: action)
    }

    /// Starts `action` when the view is inserted and again whenever `id` changes, cancelling the
    /// previous run; cancels it when the view is removed.
    public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated, _ action: @escaping @MainActor @Sendable () async -> Void
    ) -> some View {
        _TaskModifier(content: self, id: value, priority: priority, action: action)
    }

    /// Performs `action` when `value` changes (and once on insertion when `initial` is true),
    /// after the update (SwiftUI's iOS 17 form without parameters).
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View {
        _OnChange(content: self, value: value, initial: initial) { _, _ in action() }
    }
}

// MARK: Scene phase

/// Whether the app's scene is in the foreground and interactive (``RenderTree/scenePhase``).
public enum ScenePhase: Comparable, Hashable, Sendable {
    /// In the background.
    case background
    /// In the foreground, not receiving events.
    case inactive
    /// In the foreground and interactive.
    case active
}

private struct ScenePhaseKey: EnvironmentKey {
    static let defaultValue = ScenePhase.active
}

extension EnvironmentValues {
    /// The scene's phase: `.active` unless a test sets ``RenderTree/scenePhase``.
    public var scenePhase: ScenePhase {
        get { self[ScenePhaseKey.self] }
        set { self[ScenePhaseKey.self] = newValue }
    }
}

extension RenderTree {
    /// The phase of the scene the tree hosts. Setting it re-evaluates the views that read
    /// `@Environment(\.scenePhase)`, so `onChange(of: scenePhase)` runs, as when an app goes to
    /// the background.
    public var scenePhase: ScenePhase {
        get { rootEnvironment.scenePhase }
        set { updateEnvironment { $0.scenePhase = newValue } }
    }
}

// MARK: Animation (run the change, animate nothing)

/// An animation curve (inert: changes apply at once).
public struct Animation: Sendable, Hashable {
    let name: String

    /// The default animation.
    public static let `default` = Animation(name: "default")
    /// Linear.
    public static let linear = Animation(name: "linear")
    /// Ease in.
    public static let easeIn = Animation(name: "easeIn")
    /// Ease out.
    public static let easeOut = Animation(name: "easeOut")
    /// Ease in and out.
    public static let easeInOut = Animation(name: "easeInOut")
    /// A spring.
    public static let spring = Animation(name: "spring")
    /// A bouncy spring.
    public static let bouncy = Animation(name: "bouncy")
    /// A smooth spring.
    public static let smooth = Animation(name: "smooth")
    /// A snappy spring.
    public static let snappy = Animation(name: "snappy")
    /// An interactive spring.
    public static let interactiveSpring = Animation(name: "interactiveSpring")

    /// Linear over a duration.
    public static func linear(duration: Double) -> Animation { Animation(name: "linear(\(duration))") }
    /// Ease in over a duration.
    public static func easeIn(duration: Double) -> Animation { Animation(name: "easeIn(\(duration))") }
    /// Ease out over a duration.
    public static func easeOut(duration: Double) -> Animation { Animation(name: "easeOut(\(duration))") }
    /// Ease in and out over a duration.
    public static func easeInOut(duration: Double) -> Animation { Animation(name: "easeInOut(\(duration))") }
    /// A spring.
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0)
        -> Animation
    { Animation(name: "spring") }
    /// A spring of a duration and bounce.
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) -> Animation {
        Animation(name: "spring")
    }
    /// This animation after a delay.
    public func delay(_ delay: Double) -> Animation { self }
    /// This animation at a speed.
    public func speed(_ speed: Double) -> Animation { self }
    /// This animation repeated.
    public func repeatCount(_ repeatCount: Int, autoreverses: Bool = true) -> Animation { self }
    /// This animation repeated forever.
    public func repeatForever(autoreverses: Bool = true) -> Animation { self }
}

/// The context of a state change (inert: nothing animates).
public struct Transaction: Sendable {
    /// The animation, if any.
    public var animation: Animation?
    /// Whether animations are disabled.
    public var disablesAnimations = false
    /// Creates a transaction.
    public init(animation: Animation? = nil) { self.animation = animation }
}

/// Runs `body` — the change happens at once; nothing is animated.
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

/// Runs `body` in `transaction` — the change happens at once; nothing is animated.
public func withTransaction<Result>(_ transaction: Transaction, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

/// How a view enters and leaves (inert).
public struct AnyTransition: Sendable {
    let name: String
    /// Fades.
    public static let opacity = AnyTransition(name: "opacity")
    /// Slides.
    public static let slide = AnyTransition(name: "slide")
    /// Scales.
    public static let scale = AnyTransition(name: "scale")
    /// No transition.
    public static let identity = AnyTransition(name: "identity")
    /// Moves from an edge.
    public static func move(edge: Edge) -> AnyTransition { AnyTransition(name: "move") }
    /// Different insertion and removal.
    public static func asymmetric(insertion: AnyTransition, removal: AnyTransition) -> AnyTransition {
        AnyTransition(name: "asymmetric")
    }
    /// Both transitions.
    public func combined(with other: AnyTransition) -> AnyTransition { self }
    /// This transition with an animation.
    public func animation(_ animation: Animation?) -> AnyTransition { self }
}

extension View {
    /// Animates changes of `value` (inert: changes apply at once).
    public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View { self }
    /// Animates changes (inert).
    public func animation(_ animation: Animation?) -> some View { self }
    /// Changes the transaction of changes here (inert: `transform` is not called, nothing animates).
    public func transaction(_ transform: @escaping (inout Transaction) -> Void) -> some View { self }
    /// Sets how the view enters and leaves (inert).
    public func transition(_ transition: AnyTransition) -> some View { self }
}
