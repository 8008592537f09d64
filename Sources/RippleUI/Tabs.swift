import Foundation

// A tab view is state: each tab is a child of its node, with an identity of its own (its tag, or
// its position), inserted the first time it is selected and kept while the tab view is there — a
// tab switched away from keeps its `@State` and its pushed screens, as in SwiftUI. Only the
// selected tab is on screen for the test API; the tab bar (one button per tab, titled by its
// `.tabItem` label) is on screen with it, after it: ``RenderTree/tap(_:matching:)`` on a tab's title selects
// it, as a user's tap on the tab bar does.

/// A view that switches between tabs (SwiftUI's `TabView`). Each top-level view of its content is
/// a tab, titled by its ``View/tabItem(_:)`` and identified by its ``View/tag(_:)`` (else by its
/// position).
public struct TabView<SelectionValue: Hashable, Content: View>: _PrimitiveView {
    let selection: Binding<SelectionValue>?
    let content: Content

    /// A tab view whose selected tab is the one tagged `selection`'s value (its own state when
    /// `nil`); a tap on a tab writes its tag (a tag of another type selects nothing, as in SwiftUI).
    public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {
        self.selection = selection
        self.content = content()
    }

    public func _children(in node: _NodeHandle) -> [_Child] {
        let memory = node.storage(at: -1) { TabMemory() }
        let tabs = tabList(of: content)
        let selected: AnyHashable?
        if let selection {
            selected = AnyHashable(selection.wrappedValue)
        } else {
            selected = memory.selected.value ?? tabs.first?.id
        }
        if let selected, tabs.contains(where: { $0.id == selected }) { memory.visited.insert(selected) }
        var children: [_Child] = []
        for tab in tabs where memory.visited.contains(tab.id) {
            children.append(_Child(_TabScreen(content: AnyView(erasing: tab.view), isSelected: tab.id == selected), key: TabKey(id: tab.id)))
        }
        let selection = self.selection
        let buttons = tabs.enumerated().map { offset, tab in
            _Child(
                _TabButton(label: AnyView(erasing: tab.label ?? EmptyView()), isSelected: tab.id == selected) {
                    [weak memory] in
                    if let selection {
                        if let value = tab.id.base as? SelectionValue { selection.wrappedValue = value }
                    } else {
                        memory?.selected.value = tab.id
                    }
                }, index: offset)
        }
        children.append(_Child(_TabBar(buttons: buttons), key: "tabBar"))
        return children
    }
}

extension TabView where SelectionValue == Int {
    /// A tab view that keeps its selection itself (the first tab, at first).
    public init(@ViewBuilder content: () -> Content) {
        self.init(selection: nil, content: content)
    }
}

/// One tab of a tab view's content: its tag (or its position), its view and its `.tabItem` label.
typealias TabEntry = (id: AnyHashable, view: any View, label: (any View)?)

/// The tabs of a tab view's content: the views of its blocks, groups, `if`s and `ForEach`es.
@MainActor func tabList(of content: any View) -> [TabEntry] {
    var tabs: [TabEntry] = []
    appendTabs(of: content, to: &tabs)
    return tabs
}

/// Appends the tabs `view` holds: the children of a list of views, or `view` itself as one tab.
@MainActor private func appendTabs(of view: any View, to tabs: inout [TabEntry]) {
    if view is any _ViewList, let primitive = view as? any _PrimitiveView {
        for child in primitive._children() { appendTabs(of: child.view, to: &tabs) }
        return
    }
    var tag: AnyHashable?
    var label: (any View)?
    var current: any View = view
    // `.tabItem {}` and `.tag(_:)`, in either order, around the tab's content.
    while true {
        if let tagged = current as? any _TaggedView, let wrapper = current as? any _PrimitiveView {
            if tag == nil { tag = tagged.tag }
            current = wrapper._children()[0].view
        } else if let item = current as? any _TabItemView, let wrapper = current as? any _PrimitiveView {
            if label == nil { label = item.tabLabel }
            current = wrapper._children()[0].view
        } else {
            break
        }
    }
    tabs.append((tag ?? AnyHashable(tabs.count), view, label))
}

/// Views whose children are a list of sibling views, for a tab view's tabs.
@MainActor protocol _ViewList {}
extension TupleView: _ViewList {}
extension Group: _ViewList {}
extension ForEach: _ViewList {}
extension Optional: _ViewList where Wrapped: View {}
extension _ConditionalContent: _ViewList {}

/// What a tab view keeps: the selection it keeps itself, and the tabs that were selected (their
/// nodes stay).
final class TabMemory {
    let selected = StateStorage<AnyHashable?>(nil)
    var visited: Set<AnyHashable> = []
}

/// A tab's key among its tab view's children.
struct TabKey: Hashable {
    let id: AnyHashable
}

/// One tab of a ``TabView``: on screen while it is the selected one.
public struct _TabScreen<Content: View>: _PrimitiveView {
    let content: Content
    let isSelected: Bool
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A tab, for the test API.
@MainActor protocol _TabScreenView {
    var isSelected: Bool { get }
}

extension _TabScreen: _TabScreenView {}

/// A tab view's tab bar: a button per tab.
public struct _TabBar: _PrimitiveView {
    let buttons: [_Child]
    public func _children() -> [_Child] { buttons }
}

/// A tab's button in the tab bar: a tap selects the tab.
public struct _TabButton: _PrimitiveView {
    let label: AnyView
    let isSelected: Bool
    let select: @MainActor () -> Void
    public func _children() -> [_Child] { [_Child(label, key: "label")] }
}

extension _TabButton: _Tappable {
    func _tap(node: _NodeHandle) { select() }
}

extension _TabButton: _UserControl {}

/// `.tabItem {}`: the tab's title in its tab view's tab bar.
public struct _TabItem<Content: View, Item: View>: _PrimitiveView {
    let content: Content
    let item: Item
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A tab item, for a tab view.
@MainActor protocol _TabItemView {
    var tabLabel: any View { get }
}

extension _TabItem: _TabItemView {
    var tabLabel: any View { item }
}

extension View {
    /// The title of this view's tab in the enclosing ``TabView``'s tab bar (a text, a label).
    public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View {
        _TabItem(content: self, item: label())
    }

    /// A badge on this view's tab (inert).
    public func badge(_ count: Int) -> some View { self }

    /// A badge on this view's tab (inert).
    public func badge<S: StringProtocol>(_ label: S?) -> some View { self }
}

extension RenderTree {
    /// The titles of the tabs of the tab view on screen, in order (empty when there is none).
    public var tabs: [String] {
        tabBar().map { bar in bar.children.map { $0.textsOnScreen().joined(separator: " ") } } ?? []
    }

    /// The title of the selected tab of the tab view on screen.
    public var selectedTab: String? {
        guard let bar = tabBar() else { return nil }
        return bar.children.first { ($0.view as? _TabButton)?.isSelected == true }?.textsOnScreen().joined(separator: " ")
    }

    /// Selects the tab titled `name` of the tab view on screen (a tap on the tab bar; the title
    /// exactly unless `matching` is `.prefix`), then flushes.
    ///
    /// - Throws: ``RenderTreeLookupError`` naming the tabs on screen.
    public func selectTab(_ name: String, matching: NameMatching = .exact) throws {
        let title = { (button: _NodeHandle) in button.textsOnScreen().joined(separator: " ") }
        guard let bar = tabBar(),
            let button = bar.children.first(where: { title($0) == name })
                ?? bar.children.first(where: { matching.matches(name, title($0)) }),
            let tab = button.view as? _TabButton
        else {
            throw RenderTreeLookupError(kind: "tab", name: name, available: tabs, texts: texts)
        }
        tab.select()
        flush()
    }

    /// The tab bar of the first tab view on screen.
    private func tabBar() -> _NodeHandle? {
        var bar: _NodeHandle?
        visit(topLayer()) { node in
            if bar == nil, node.view is _TabBar { bar = node }
            return bar == nil
        }
        return bar
    }
}
