import Foundation

// A navigation split view, compact (as on an iPhone): a navigation stack whose root is the
// sidebar. A `NavigationLink(value:)` in a column's `List(selection:)` writes the selection and
// pushes the next column (the content column of a three-column view, else the detail); going
// back pops the column and clears the selection of the list that pushed it, as SwiftUI's
// collapsed split view does. Links with a destination, and value links outside a list with a
// selection, push as in a stack.

/// A view of two or three columns — sidebar, optional content, detail — shown as a stack, the
/// compact presentation (SwiftUI's `NavigationSplitView` on an iPhone).
public struct NavigationSplitView<Sidebar: View, Content: View, Detail: View>: _PrimitiveView {
    let sidebar: Sidebar
    let content: Content?
    let detail: Detail
    let box = ContextBox()
    let splitBox = SplitBox()

    /// A split view of a sidebar and a detail column.
    public init(@ViewBuilder sidebar: () -> Sidebar, @ViewBuilder detail: () -> Detail) where Content == EmptyView {
        self.sidebar = sidebar()
        content = nil
        self.detail = detail()
    }

    /// A split view of a sidebar, a content column and a detail column.
    public init(
        @ViewBuilder sidebar: () -> Sidebar, @ViewBuilder content: () -> Content, @ViewBuilder detail: () -> Detail
    ) {
        self.sidebar = sidebar()
        self.content = content()
        self.detail = detail()
    }

    /// A split view whose column visibility is `columnVisibility` (inert in compact).
    public init(
        columnVisibility: Binding<NavigationSplitViewVisibility>, @ViewBuilder sidebar: () -> Sidebar,
        @ViewBuilder detail: () -> Detail
    ) where Content == EmptyView {
        self.init(sidebar: sidebar, detail: detail)
    }

    public func _children(in node: _NodeHandle) -> [_Child] {
        let context = node.storage(at: -1) { NavigationContext() }
        context.node = node
        box.context = context
        box.editMode = node.storage(at: -2) { EditModeBox() }.binding
        let split = node.storage(at: -3) { SplitContext() }
        split.context = context
        split.node = node
        splitBox.split = split
        return context.children(root: sidebar)
    }

    public func _applyEnvironment(to environment: inout EnvironmentValues) {
        environment.navigationContext = box.context
        environment.splitContext = splitBox.split
        if environment.editMode == nil { environment.editMode = box.editMode }
    }
}

/// The columns after the sidebar, for the split view's context.
@MainActor protocol _SplitColumns {
    /// The content column (three columns), then the detail column.
    var columns: [any View] { get }
}

extension NavigationSplitView: _SplitColumns {
    var columns: [any View] { (content.map { [$0 as any View] } ?? []) + [detail] }
}

extension NavigationSplitView: _NavigationContainer {}

/// Column visibility (inert in compact).
public enum NavigationSplitViewVisibility: Sendable, Hashable {
    /// `automatic`.
    case automatic
    /// `all`.
    case all
    /// `doubleColumn`.
    case doubleColumn
    /// `detailOnly`.
    case detailOnly
}

/// Holds the context between a split view's `_children(in:)` and its `_applyEnvironment(to:)`.
final class SplitBox {
    var split: SplitContext?
}

/// A split view's columns as a stack: which columns are pushed, and the selections that pushed them.
@MainActor final class SplitContext {
    weak var node: _NodeHandle?
    weak var context: NavigationContext?
    /// The selections that pushed the columns, by the column's depth (1: the first after the sidebar).
    private var clears: [Int: () -> Void] = [:]

    init() {}

    /// A link in the column at `depth` (0: the sidebar) selected a value in its list: the next
    /// column is shown, above it nothing.
    func selected(inColumn depth: Int, clear: @escaping @MainActor () -> Void) {
        guard let node, let context, let split = node.view as? any _SplitColumns, depth < split.columns.count else { return }
        context.onPop = { [weak self] remaining in self?.popped(toDepth: remaining) }
        let shown = context.entries.count
        if shown > depth + 1 { context.pop(toDepth: depth + 1) }
        clears[depth + 1] = clear
        if context.entries.count == depth {
            let column = depth
            context.push(link: ObjectIdentifier(self)) { [weak node] in
                guard let columns = (node?.view as? any _SplitColumns)?.columns, column < columns.count else {
                    return EmptyView()
                }
                return columns[column]
            }
        }
    }

    /// The stack was popped to `depth` screens: the lists that pushed the popped columns lose
    /// their selection.
    private func popped(toDepth depth: Int) {
        let popped = clears.filter { $0.key > depth }
        for key in popped.keys { clears[key] = nil }
        for (_, clear) in popped.sorted(by: { $0.key > $1.key }) { clear() }
    }

    /// The column `node` is in: 0 for the sidebar, else its pushed column's depth.
    func column(of node: _NodeHandle) -> Int {
        var child = node
        while let parent = child.parent {
            if parent === self.node { return parent.children.firstIndex { $0 === child } ?? 0 }
            child = parent
        }
        return 0
    }
}

private struct SplitContextKey: EnvironmentKey {
    static let defaultValue: SplitContext? = nil
}

extension EnvironmentValues {
    /// The innermost navigation split view.
    var splitContext: SplitContext? {
        get { self[SplitContextKey.self] }
        set { self[SplitContextKey.self] = newValue }
    }
}
