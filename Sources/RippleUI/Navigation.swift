import Foundation

// Navigation is state: a stack's pushed screens are children of its node, after the root, each
// with an identity of its own (popping removes the screen's node and its state). Only the top
// screen is on screen for the test API; ``RenderTree/back()`` pops it, a ``NavigationLink``'s tap
// pushes, and `@Environment(\.dismiss)` in a pushed screen pops back to the screen below it.

/// A list of values pushed on a ``NavigationStack`` (SwiftUI's `NavigationPath`).
public struct NavigationPath: Equatable {
    var elements: [AnyHashable]

    /// An empty path.
    public init() { elements = [] }
    /// A path of `elements`.
    public init<S: Sequence>(_ elements: S) where S.Element: Hashable { self.elements = elements.map { AnyHashable($0) } }

    /// The number of values.
    public var count: Int { elements.count }
    /// Whether the path is empty.
    public var isEmpty: Bool { elements.isEmpty }
    /// Pushes `value`.
    public mutating func append<V: Hashable>(_ value: V) { elements.append(AnyHashable(value)) }
    /// Pops `k` values.
    public mutating func removeLast(_ k: Int = 1) { elements.removeLast(Swift.min(k, elements.count)) }
}

/// One pushed screen.
struct PushedEntry {
    /// A value pushed by a value link, or `nil` for a view link's destination.
    let value: AnyHashable?
    /// For a view link: the link's node and its destination.
    let link: ObjectIdentifier?
    let destination: (() -> any View)?
    let serial: Int
    /// Run when the screen is popped (`navigationDestination(isPresented:)` sets its binding false).
    var popped: (@MainActor () -> Void)? = nil
}

/// The state of one navigation stack, kept in its node and handed to its descendants in the
/// environment (links push through it, pushed screens pop through it).
@MainActor final class NavigationContext {
    weak var node: _NodeHandle?
    /// Screens pushed by links (tracked: the stack re-evaluates when it changes).
    let pushed = StateStorage<[PushedEntry]>([])
    /// The bound path (`NavigationStack(path:)`), if any.
    var pathGet: (() -> [AnyHashable])?
    var pathSet: (([AnyHashable]) -> Void)?
    var destinations: [ObjectIdentifier: (Any) -> any View] = [:]
    private var serial = 0

    init() {}

    /// Every pushed screen, bottom first.
    var entries: [PushedEntry] {
        guard let pathGet else { return pushed.value }
        return pathGet().enumerated().map { PushedEntry(value: $1, link: nil, destination: nil, serial: -1 - $0) }
            + pushed.value
    }

    func push(_ value: AnyHashable) {
        if let pathGet, let pathSet, pushed.value.isEmpty {
            pathSet(pathGet() + [value])
        } else {
            serial += 1
            pushed.value.append(PushedEntry(value: value, link: nil, destination: nil, serial: serial))
        }
    }

    func push(link: ObjectIdentifier, destination: @escaping () -> any View, popped: (@MainActor () -> Void)? = nil) {
        serial += 1
        pushed.value.append(PushedEntry(value: nil, link: link, destination: destination, serial: serial, popped: popped))
    }

    /// Called after a pop with the number of screens left (a split view clears selections).
    var onPop: ((Int) -> Void)?

    /// The view link `link` left the tree (its node is being removed): the screen it pushed and
    /// every screen pushed above it are popped now, their nodes removed before anything evaluates
    /// them again with the inputs the link gave them last. SwiftUI ties a view link's destination
    /// to the link in the same way; a value pushed by a value link stays.
    func linkLeft(_ link: ObjectIdentifier) {
        // A stack that is leaving itself takes its screens with it.
        guard let node, node.attached, let depth = entries.firstIndex(where: { $0.link == link }) else { return }
        let screens = screenNodes().dropFirst(depth).map(\.node)
        pop(toDepth: depth, notifying: false)
        for screen in screens.reversed() { node.reconciler.removeNow(screen) }
    }

    /// Pops screens until `depth` are left (telling the owners of the popped screens, unless
    /// `notifying` is false: an owner that left the tree).
    func pop(toDepth depth: Int, notifying: Bool = true) {
        let pathCount = pathGet?().count ?? 0
        let keepPushed = max(0, depth - pathCount)
        var popped: [@MainActor () -> Void] = []
        if pushed.value.count > keepPushed {
            if notifying { popped = pushed.value[keepPushed...].compactMap(\.popped) }
            pushed.value.removeLast(pushed.value.count - keepPushed)
        }
        if let pathGet, let pathSet, depth < pathCount { pathSet(Array(pathGet().prefix(depth))) }
        onPop?(depth)
        for action in popped.reversed() { action() }
    }

    func view(for entry: PushedEntry) -> any View {
        if let destination = entry.destination { return destination() }
        guard let value = entry.value, let make = destinations[ObjectIdentifier(type(of: value.base))] else {
            return EmptyView()
        }
        return make(value.base)
    }

    func children(root: any View) -> [_Child] {
        var children = [_Child(root, key: "root")]
        for (depth, entry) in entries.enumerated() {
            let dismiss = DismissAction(id: AnyHashable([AnyHashable(ObjectIdentifier(self)), AnyHashable(depth)])) {
                [weak self] in self?.pop(toDepth: depth)
            }
            let key = entry.serial < 0 ? AnyHashable([AnyHashable(depth), entry.value]) : AnyHashable(entry.serial)
            // The screen is built when its node is evaluated — after the root and the screens below
            // it, where its link and its `navigationDestination` are: it sees what they build now.
            let content = _PushedContent { [weak self] in self?.view(for: entry) ?? EmptyView() }
            children.append(_Child(_PresentedScreen(content: content, dismiss: dismiss, closesOnTap: false), key: PresentedKey(id: key)))
        }
        return children
    }

    /// The attached node of each pushed screen, with its entry.
    func screenNodes() -> [(entry: PushedEntry, node: _NodeHandle)] {
        guard let node else { return [] }
        return Array(zip(entries, node.children.dropFirst()))
    }

    /// The pushed screens that show what `matches` says changed are built again.
    func rebuildScreens(cause: String, where matches: (PushedEntry) -> Bool) {
        for (entry, screen) in screenNodes() where matches(entry) {
            screen.reconciler.markDirty(screen, cause: cause)
        }
    }
}

private struct NavigationContextKey: EnvironmentKey {
    static let defaultValue: NavigationContext? = nil
}

extension EnvironmentValues {
    /// The innermost navigation stack.
    var navigationContext: NavigationContext? {
        get { self[NavigationContextKey.self] }
        set { self[NavigationContextKey.self] = newValue }
    }
}

/// Holds the context between a stack's `_children(in:)` and its `_applyEnvironment(to:)`.
final class ContextBox {
    var context: NavigationContext?
    /// The stack's own edit mode, for screens that have none from above.
    var editMode: Binding<EditMode>?
}

/// A view that shows a root view and the screens pushed on it (SwiftUI's `NavigationStack`).
public struct NavigationStack<Data, Root: View>: _PrimitiveView {
    let root: Root
    let pathGet: (() -> [AnyHashable])?
    let pathSet: (([AnyHashable]) -> Void)?
    let box = ContextBox()

    public func _children(in node: _NodeHandle) -> [_Child] {
        let context = node.storage(at: -1) { NavigationContext() }
        context.node = node
        context.pathGet = pathGet
        context.pathSet = pathSet
        box.context = context
        box.editMode = node.storage(at: -2) { EditModeBox() }.binding
        return context.children(root: root)
    }

    public func _applyEnvironment(to environment: inout EnvironmentValues) {
        environment.navigationContext = box.context
        if environment.editMode == nil { environment.editMode = box.editMode }
    }
}

extension NavigationStack where Data == NavigationPath {
    /// A stack that manages its own path.
    public init(@ViewBuilder root: () -> Root) {
        self.root = root()
        pathGet = nil
        pathSet = nil
    }

    /// A stack whose pushed values are `path`.
    public init(path: Binding<NavigationPath>, @ViewBuilder root: () -> Root) {
        self.root = root()
        pathGet = { path.wrappedValue.elements }
        pathSet = { path.wrappedValue.elements = $0 }
    }
}

extension NavigationStack where Data: MutableCollection & RandomAccessCollection & RangeReplaceableCollection, Data.Element: Hashable {
    /// A stack whose pushed values are the elements of `path`.
    public init(path: Binding<Data>, @ViewBuilder root: () -> Root) {
        self.root = root()
        pathGet = { path.wrappedValue.map { AnyHashable($0) } }
        pathSet = { path.wrappedValue = Data($0.compactMap { $0.base as? Data.Element }) }
    }
}

/// SwiftUI's older navigation container; here it behaves as a ``NavigationStack``.
public struct NavigationView<Content: View>: _PrimitiveView {
    let stack: NavigationStack<NavigationPath, Content>
    /// Creates a navigation view of the content `content` builds.
    public init(@ViewBuilder content: () -> Content) { stack = NavigationStack(root: content) }
    public func _children(in node: _NodeHandle) -> [_Child] { stack._children(in: node) }
    public func _applyEnvironment(to environment: inout EnvironmentValues) { stack._applyEnvironment(to: &environment) }
}

/// A stack, for the test API.
@MainActor protocol _NavigationContainer {}
extension NavigationStack: _NavigationContainer {}
extension NavigationView: _NavigationContainer {}

/// A control that pushes a screen on the enclosing ``NavigationStack`` when tapped
/// (``RenderTree/tap(_:matching:)``): a destination view, or a value that a
/// ``View/navigationDestination(for:destination:)`` turns into one.
public struct NavigationLink<Label: View, Destination: View>: _PrimitiveView {
    let label: Label
    let destination: Destination?
    let value: AnyHashable?

    /// A link to the destination `destination` builds.
    public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {
        self.label = label()
        self.destination = destination()
        value = nil
    }

    /// A link to `destination`.
    public init(destination: Destination, @ViewBuilder label: () -> Label) {
        self.label = label()
        self.destination = destination
        value = nil
    }

    public func _children() -> [_Child] { [_Child(label, key: "label")] }

    public func _update(node: _NodeHandle, previous: NavigationLink?) {
        // A pushed view link shows the destination its link builds now — when that differs from the
        // one it built before (re-evaluating the stack updates this link again: an unchanged
        // destination must not mark the stack once more).
        // The screen is built again after this link, in the same pass (``Reconciler/flush()``).
        guard let previous, let context = node.environment.navigationContext,
            context.pushed.value.contains(where: { $0.link == ObjectIdentifier(node) }),
            destinationDiffers(from: previous.destination)
        else { return }
        let link = ObjectIdentifier(node)
        context.rebuildScreens(cause: "destination changed") { $0.link == link }
    }

    /// Whether this link's destination differs from `old`.
    private func destinationDiffers(from old: Destination?) -> Bool { destinationsDiffer(old, destination) }
}

/// Whether two destinations differ (``ValueLayout``'s rules: `==`, or field by field).
@MainActor func destinationsDiffer<Destination: View>(_ old: Destination?, _ new: Destination?) -> Bool {
    guard let old, let new else { return (old == nil) != (new == nil) }
    let layout = ValueLayout.of(Destination.self)
    return withUnsafePointer(to: old) { old in
        withUnsafePointer(to: new) { new in !layout.same(UnsafeRawPointer(old), UnsafeRawPointer(new)) }
    }
}

/// `.navigationDestination(isPresented:destination:)`: while `isPresented` is true, the enclosing
/// stack shows the destination pushed on it. Popping it (``RenderTree/back()``, its `dismiss`)
/// sets `isPresented` to false; when this view leaves the tree, the screen goes with it (and every
/// screen above it), as a view link's does.
public struct _PresentedDestination<Content: View, Destination: View>: _PrimitiveView {
    let content: Content
    let isPresented: Binding<Bool>
    let destination: Destination

    public func _children(in node: _NodeHandle) -> [_Child] {
        // Read here, where reads are dependencies: a change re-evaluates this view.
        _ = isPresented.wrappedValue
        return [_Child(content, key: 0)]
    }

    public func _update(node: _NodeHandle, previous: _PresentedDestination?) {
        guard let context = node.environment.navigationContext else { return }
        let owner = ObjectIdentifier(node)
        let depth = context.entries.firstIndex { $0.link == owner }
        if isPresented.wrappedValue, depth == nil {
            let isPresented = self.isPresented
            let destination = self.destination
            context.push(
                link: owner,
                destination: { [weak node] in (node?.view as? _PresentedDestination)?.destination ?? destination },
                popped: { isPresented.wrappedValue = false })
            if node.modifierState == nil {
                node.modifierState = OnRemoval { [weak context] in context?.linkLeft(owner) }
            }
        } else if !isPresented.wrappedValue, let depth {
            context.pop(toDepth: depth)
        } else if depth != nil, destinationsDiffer(previous?.destination, destination) {
            context.rebuildScreens(cause: "destination changed") { $0.link == owner }
        }
    }
}

extension NavigationLink where Label == Text {
    /// A link titled `title` to the destination `destination` builds.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder destination: () -> Destination) {
        self.init(destination: destination) { Text(String(title)) }
    }

    /// A link titled `title` to `destination`.
    public init<S: StringProtocol>(_ title: S, destination: Destination) {
        self.init(destination: destination) { Text(String(title)) }
    }
}

extension NavigationLink where Destination == Never {
    /// A link that pushes `value` (nothing when `nil`).
    public init<P: Hashable>(value: P?, @ViewBuilder label: () -> Label) {
        self.label = label()
        destination = nil
        self.value = value.map { AnyHashable($0) }
    }
}

extension NavigationLink where Destination == Never, Label == Text {
    /// A link titled `title` that pushes `value`.
    public init<S: StringProtocol, P: Hashable>(_ title: S, value: P?) {
        self.init(value: value) { Text(String(title)) }
    }
}

/// A link, for ``RenderTree/tap(_:matching:)``.
extension NavigationLink: _Tappable {
    func _tap(node: _NodeHandle) {
        guard let context = node.environment.navigationContext else { return }
        if let value, let split = node.environment.splitContext, let selection = node.environment.listSelection,
            selection.select(value)
        {
            // In a split view's list with a selection: select, and show the next column.
            split.selected(inColumn: split.column(of: node), clear: selection.clear)
        } else if let value {
            context.push(value)
        } else if let destination {
            let link = ObjectIdentifier(node)
            context.push(link: link) { [weak node] in
                (node?.view as? NavigationLink)?.destination ?? destination
            }
            // The pushed screen goes when this link does (``NavigationContext/linkLeft(_:)``): the
            // node cancels its modifier state when it is removed.
            if node.modifierState == nil {
                node.modifierState = OnRemoval { [weak context] in context?.linkLeft(link) }
            }
        }
    }
}

/// `.navigationDestination(for:destination:)`: registers, with the enclosing stack, the screen
/// for values of a type.
public struct _NavigationDestination<Content: View, D: Hashable, Destination: View>: _PrimitiveView {
    let content: Content
    let make: (D) -> Destination
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
    public func _update(node: _NodeHandle, previous: _NavigationDestination?) {
        let make = self.make
        guard let context = node.environment.navigationContext else { return }
        context.destinations[ObjectIdentifier(D.self)] = { value in
            make(value as! D)
        }
        // A new closure may build a different screen: the screens it built are built again, after
        // this modifier, in the same pass (an unchanged screen's body does not run).
        if previous != nil {
            context.rebuildScreens(cause: "destination changed") { $0.value.map { $0.base is D } ?? false }
        }
    }
}

/// A pushed screen's content, built when its node is evaluated (``NavigationContext``).
public struct _PushedContent: _PrimitiveView {
    let make: @MainActor () -> any View
    public func _children() -> [_Child] { [_Child(make(), key: 0)] }
}

/// `.navigationTitle(_:)`: the screen's title (``RenderTree/navigationTitle``).
public struct _NavigationTitle<Content: View>: _PrimitiveView {
    let content: Content
    let title: String
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A title, for the test API.
@MainActor protocol _TitleView {
    var title: String { get }
}

extension _NavigationTitle: _TitleView {}

/// `.toolbar { }`: the content, and the toolbar's items (reachable by the test API on the
/// screen they belong to).
public struct _Toolbar<Content: View, Items: View>: _PrimitiveView {
    let content: Content
    let items: Items
    public func _children() -> [_Child] { [_Child(content, key: 0), _Child(items, key: "toolbar")] }
}

/// An item of a toolbar.
public struct ToolbarItem<ID, Content: View>: _PrimitiveView {
    /// Where the item goes (inert).
    public let placement: ToolbarItemPlacement
    /// The item's content.
    public let content: Content

    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

extension ToolbarItem where ID == () {
    /// Creates an item placed at `placement` (inert) with the content `content` builds.
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        self.placement = placement
        self.content = content()
    }
}

/// A group of toolbar items.
public struct ToolbarItemGroup<Content: View>: _PrimitiveView {
    /// Where the items go (inert).
    public let placement: ToolbarItemPlacement
    /// The items.
    public let content: Content

    /// Creates a group placed at `placement` (inert) of the items `content` builds.
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {
        self.placement = placement
        self.content = content()
    }

    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// Where a toolbar item goes (inert).
public struct ToolbarItemPlacement: Sendable, Hashable {
    let name: String
    /// Automatic.
    public static let automatic = ToolbarItemPlacement(name: "automatic")
    /// The primary action.
    public static let primaryAction = ToolbarItemPlacement(name: "primaryAction")
    /// A confirmation.
    public static let confirmationAction = ToolbarItemPlacement(name: "confirmationAction")
    /// A cancellation.
    public static let cancellationAction = ToolbarItemPlacement(name: "cancellationAction")
    /// A destructive action.
    public static let destructiveAction = ToolbarItemPlacement(name: "destructiveAction")
    /// The principal place.
    public static let principal = ToolbarItemPlacement(name: "principal")
    /// Status.
    public static let status = ToolbarItemPlacement(name: "status")
    /// The navigation bar's leading edge.
    public static let navigationBarLeading = ToolbarItemPlacement(name: "navigationBarLeading")
    /// The navigation bar's trailing edge.
    public static let navigationBarTrailing = ToolbarItemPlacement(name: "navigationBarTrailing")
    /// The top bar's leading edge.
    public static let topBarLeading = ToolbarItemPlacement(name: "topBarLeading")
    /// The top bar's trailing edge.
    public static let topBarTrailing = ToolbarItemPlacement(name: "topBarTrailing")
    /// The bottom bar.
    public static let bottomBar = ToolbarItemPlacement(name: "bottomBar")
    /// The keyboard bar.
    public static let keyboard = ToolbarItemPlacement(name: "keyboard")
}

/// How a navigation title is displayed (inert).
public enum NavigationBarItem {
    /// Title display modes (inert).
    public enum TitleDisplayMode: Sendable, Hashable {
        /// `automatic`.
        case automatic
        /// `inline`.
        case inline
        /// `large`.
        case large
    }
}

extension View {
    /// Sets the title of the screen this view is on (``RenderTree/navigationTitle``).
    public func navigationTitle<S: StringProtocol>(_ title: S) -> some View {
        _NavigationTitle(content: self, title: String(title))
    }

    /// Sets the title of the screen this view is on.
    public func navigationTitle(_ title: Text) -> some View {
        _NavigationTitle(content: self, title: title.content)
    }

    /// Sets the (editable) title of the screen this view is on.
    public func navigationTitle(_ title: Binding<String>) -> some View {
        _NavigationTitle(content: self, title: title.wrappedValue)
    }

    /// Registers the screen a stack pushes for values of type `data`.
    public func navigationDestination<D: Hashable, C: View>(
        for data: D.Type, @ViewBuilder destination: @escaping (D) -> C
    ) -> some View {
        _NavigationDestination(content: self, make: destination)
    }

    /// Pushes the screen `destination` builds on the enclosing stack while `isPresented` is true;
    /// popping it sets `isPresented` to false, and the screen goes when this view leaves the tree.
    public func navigationDestination<V: View>(
        isPresented: Binding<Bool>, @ViewBuilder destination: () -> V
    ) -> some View {
        _PresentedDestination(content: self, isPresented: isPresented, destination: destination())
    }

    /// Adds the toolbar items `content` builds (the test API reaches them on this screen).
    public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View {
        _Toolbar(content: self, items: content())
    }

    /// Shows or hides a bar (inert).
    public func toolbar(_ visibility: Visibility, for bars: ToolbarPlacement...) -> some View { self }
    /// Sets the title display mode (inert).
    public func navigationBarTitleDisplayMode(_ displayMode: NavigationBarItem.TitleDisplayMode) -> some View { self }
    /// Hides the back button (inert: ``RenderTree/back()`` still pops).
    public func navigationBarBackButtonHidden(_ hidesBackButton: Bool = true) -> some View { self }
}

/// Bars a toolbar can be shown in (inert).
public struct ToolbarPlacement: Sendable, Hashable {
    let name: String
    /// The navigation bar.
    public static let navigationBar = ToolbarPlacement(name: "navigationBar")
    /// The tab bar.
    public static let tabBar = ToolbarPlacement(name: "tabBar")
    /// The bottom bar.
    public static let bottomBar = ToolbarPlacement(name: "bottomBar")
    /// Automatic.
    public static let automatic = ToolbarPlacement(name: "automatic")
}
