import Foundation

// Lists and forms. Rows are identified by their element's id, so a row keeps its state when rows
// around it come and go; element bindings (`List($items) { $item in }`, `ForEach($items)`) find
// their element by id on every read and write, so a row edits the right element after inserts
// and deletes.

/// A container of rows (SwiftUI's `List`; headless, every row is evaluated).
public struct List<SelectionValue: Hashable, Content: View>: _PrimitiveView {
    /// The rows.
    public let content: Content

    /// The single selection, when the list has one (a navigation split view's links write it).
    let selection: ListSelection?

    /// A list of the rows `content` builds.
    public init(@ViewBuilder content: () -> Content) where SelectionValue == Never {
        self.content = content()
        selection = nil
    }

    /// A list with a selection of the rows `content` builds. In a ``NavigationSplitView``'s
    /// column, a ``NavigationLink`` with a value of the selection's type writes the selection and
    /// shows the next column (elsewhere the selection is inert).
    public init(selection: Binding<SelectionValue?>?, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.selection = selection.map { binding in
            ListSelection(
                select: { value in
                    guard let value = value.base as? SelectionValue else { return false }
                    binding.wrappedValue = value
                    return true
                }, clear: { binding.wrappedValue = nil })
        }
    }

    /// A list with a multiple selection (inert) of the rows `content` builds.
    public init(selection: Binding<Set<SelectionValue>>?, @ViewBuilder content: () -> Content) {
        self.content = content()
        self.selection = nil
    }

    public func _children() -> [_Child] { [_Child(content, key: 0)] }

    public func _applyEnvironment(to environment: inout EnvironmentValues) {
        if let selection { environment.listSelection = selection }
    }
}

/// What a list with a single selection gives its rows: a way to select a value, and to clear the
/// selection.
struct ListSelection {
    /// Writes `value` when it is of the selection's type (`false` otherwise).
    let select: @MainActor (AnyHashable) -> Bool
    let clear: @MainActor () -> Void
}

private struct ListSelectionKey: EnvironmentKey {
    static let defaultValue: ListSelection? = nil
}

extension EnvironmentValues {
    /// The selection of the innermost list that has one.
    var listSelection: ListSelection? {
        get { self[ListSelectionKey.self] }
        set { self[ListSelectionKey.self] = newValue }
    }
}

extension List where SelectionValue == Never {
    /// A row per element of `data`, identified by the element's id.
    public init<Data: RandomAccessCollection, RowContent: View>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, Data.Element.ID, RowContent>, Data.Element: Identifiable {
        content = ForEach(data, content: rowContent)
        selection = nil
    }

    /// A row per element of `data`, identified by the value at `id`.
    public init<Data: RandomAccessCollection, ID: Hashable, RowContent: View>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, ID, RowContent> {
        content = ForEach(data, id: id, content: rowContent)
        selection = nil
    }

    /// A row per element of the collection `data` binds, each given a binding to its element.
    public init<Data: MutableCollection & RandomAccessCollection, RowContent: View>(
        _ data: Binding<Data>, @ViewBuilder rowContent: @escaping (Binding<Data.Element>) -> RowContent
    ) where Content == ForEach<[Binding<Data.Element>], Data.Element.ID, RowContent>, Data.Element: Identifiable {
        content = ForEach(data, content: rowContent)
        selection = nil
    }

    /// A row per element of the collection `data` binds, identified by the value at `id`.
    public init<Data: MutableCollection & RandomAccessCollection, ID: Hashable, RowContent: View>(
        _ data: Binding<Data>, id: KeyPath<Data.Element, ID>,
        @ViewBuilder rowContent: @escaping (Binding<Data.Element>) -> RowContent
    ) where Content == ForEach<[Binding<Data.Element>], ID, RowContent> {
        content = ForEach(data, id: id, content: rowContent)
        selection = nil
    }
}

/// Where an element binding points: the collection's binding and the element's id.
struct ElementPath: Hashable {
    let parent: AnyHashable
    let id: AnyHashable
}

/// A binding to the element of `collection` whose id is `id`: reads and writes find the element
/// by id each time, so a row edits its own element after inserts, deletes and moves.
///
/// Using the binding of an element that is no longer in the collection traps, naming it: SwiftUI's
/// row bindings go by index, and there the same code reads or writes another element, or crashes
/// (index out of range) when the collection shrank below it — never quietly the right one.
func elementBinding<C: MutableCollection, ID: Hashable>(
    _ collection: Binding<C>, id: ID, idPath: KeyPath<C.Element, ID>, last: C.Element
) -> Binding<C.Element> {
    let gone = { (use: String) -> Never in
        fatalError(
            "ForEach/List over a binding: \(use) the binding of the element with id \(id), which is no longer in the collection (SwiftUI's by-index binding would use another element or crash here)")
    }
    return Binding(
        identity: collection.identity.map { AnyHashable(ElementPath(parent: $0, id: AnyHashable(id))) },
        snapshot: collection.snapshot == nil ? nil : last,
        get: {
            guard let element = collection.wrappedValue.first(where: { $0[keyPath: idPath] == id }) else { gone("read") }
            return element
        },
        set: { newValue in
            var elements = collection.wrappedValue
            guard let index = elements.firstIndex(where: { $0[keyPath: idPath] == id }) else { gone("wrote") }
            if isSame(elements[index], newValue) { return }
            elements[index] = newValue
            collection.wrappedValue = elements
        })
}

extension ForEach {
    /// A view per element of the collection `data` binds, each given a binding to its element,
    /// identified by the value at `id`.
    public init<C: MutableCollection & RandomAccessCollection>(
        _ data: Binding<C>, id: KeyPath<C.Element, ID>, @ViewBuilder content: @escaping (Binding<C.Element>) -> Content
    ) where Data == [Binding<C.Element>] {
        let elements = data.wrappedValue.map { elementBinding(data, id: $0[keyPath: id], idPath: id, last: $0) }
        self.init(elements, id: (\Binding<C.Element>.wrappedValue).appending(path: id), content: content)
    }

    /// A view per element of the collection `data` binds, each given a binding to its element,
    /// identified by the element's id.
    public init<C: MutableCollection & RandomAccessCollection>(
        _ data: Binding<C>, @ViewBuilder content: @escaping (Binding<C.Element>) -> Content
    ) where Data == [Binding<C.Element>], C.Element: Identifiable, ID == C.Element.ID {
        self.init(data, id: \C.Element.id, content: content)
    }
}

extension ForEach {
    /// Lets the user delete rows (``RenderTree/delete(_:matching:)``): `action` receives the offsets of
    /// the deleted rows, as in SwiftUI.
    public func onDelete(perform action: ((IndexSet) -> Void)?) -> some View {
        _OnDelete(content: self, action: action)
    }

    /// Lets the user move rows (``RenderTree/move(_:to:matching:)``): `action` receives the offsets of the
    /// moved rows and the destination offset, as in SwiftUI.
    public func onMove(perform action: ((IndexSet, Int) -> Void)?) -> some View {
        _OnMove(content: self, action: action)
    }
}

/// `.onDelete(perform:)`.
public struct _OnDelete<Content: View>: _PrimitiveView {
    let content: Content
    let action: ((IndexSet) -> Void)?
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// `.onMove(perform:)`.
public struct _OnMove<Content: View>: _PrimitiveView {
    let content: Content
    let action: ((IndexSet, Int) -> Void)?
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// Row editing, for the test API.
@MainActor protocol _RowEditing {
    var deleteAction: ((IndexSet) -> Void)? { get }
    var moveAction: ((IndexSet, Int) -> Void)? { get }
}

extension _OnDelete: _RowEditing {
    var deleteAction: ((IndexSet) -> Void)? { action }
    var moveAction: ((IndexSet, Int) -> Void)? { nil }
}

extension _OnMove: _RowEditing {
    var deleteAction: ((IndexSet) -> Void)? { nil }
    var moveAction: ((IndexSet, Int) -> Void)? { action }
}

extension MutableCollection where Self: RangeReplaceableCollection {
    /// Removes the elements at `offsets` (what an `onDelete` action usually does).
    public mutating func remove(atOffsets offsets: IndexSet) {
        for offset in offsets.reversed() where offset < count {
            remove(at: index(startIndex, offsetBy: offset))
        }
    }

    /// Moves the elements at `source` to before the element at `destination` (what an `onMove`
    /// action usually does), as SwiftUI's does.
    public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
        let moving = source.filter { $0 < count }.map { self[index(startIndex, offsetBy: $0)] }
        let before = source.filter { $0 < destination }.count
        remove(atOffsets: source)
        let target = Swift.max(0, Swift.min(destination - before, count))
        insert(contentsOf: moving, at: index(startIndex, offsetBy: target))
    }
}

/// A container for grouped controls (headless: a container).
public struct Form<Content: View>: _PrimitiveView {
    /// The form's content.
    public let content: Content
    /// A form of the views `content` builds.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A section of a list or form, with an optional header and footer.
public struct Section<Parent: View, Content: View, Footer: View>: _PrimitiveView {
    /// The header.
    public let header: Parent
    /// The content.
    public let content: Content
    /// The footer.
    public let footer: Footer

    /// A section with the content, header and footer the closures build.
    public init(
        @ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer
    ) {
        self.header = header()
        self.content = content()
        self.footer = footer()
    }

    /// A section with a header and a footer.
    public init(header: Parent, footer: Footer, @ViewBuilder content: () -> Content) {
        self.header = header
        self.content = content()
        self.footer = footer
    }

    public func _children() -> [_Child] {
        [_Child(header, key: "header"), _Child(content, key: "content"), _Child(footer, key: "footer")]
    }
}

extension Section where Footer == EmptyView {
    /// A section with a header.
    public init(header: Parent, @ViewBuilder content: () -> Content) {
        self.init(header: header, footer: EmptyView(), content: content)
    }

    /// A section with the content and header the closures build.
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {
        self.init(header: header(), footer: EmptyView(), content: content)
    }
}

extension Section where Parent == EmptyView {
    /// A section with a footer.
    public init(footer: Footer, @ViewBuilder content: () -> Content) {
        self.init(header: EmptyView(), footer: footer, content: content)
    }
}

extension Section where Parent == EmptyView, Footer == EmptyView {
    /// A section without a header or footer.
    public init(@ViewBuilder content: () -> Content) {
        self.init(header: EmptyView(), footer: EmptyView(), content: content)
    }
}

extension Section where Parent == Text, Footer == EmptyView {
    /// A section titled `title`.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.init(header: Text(String(title)), footer: EmptyView(), content: content)
    }
}
