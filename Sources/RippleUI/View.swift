@_exported import Ripple
// As `import SwiftUI` does, `import RippleUI` makes Foundation's names available (`Date`, `URL`,
// `CGFloat`, `UUID`): a port changes its import line only.
@_exported import Foundation

/// A piece of user interface, described as a value: SwiftUI's `View`, headless.
///
/// A view's `body` describes its children. A ``RenderTree`` evaluates bodies, keeps each view's
/// state in a node identified by the view's place in the tree, and re-evaluates exactly the bodies
/// whose dependencies changed. Nothing is drawn: the tree records what each body produced, so
/// tests and the Playground can read texts, tap buttons and type into fields.
///
/// As in SwiftUI, `View` is isolated to the main actor: a body may call `@MainActor` models, and
/// the render tree that evaluates bodies is used from the main actor too (`@MainActor` tests,
/// the Playground's top-level code).
@MainActor @preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View

    /// The content and behavior of the view.
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
}

/// Views that the render tree handles itself (containers, controls, modifiers): they have no
/// body; they list their children and may do something when their node is evaluated.
public protocol _PrimitiveView: View where Body == Never {
    /// The views this view contains, each with the identity it has among its siblings.
    func _children() -> [_Child]
    /// The views this view contains, for views that keep state in their node (navigation stacks,
    /// presentations); the default lists ``_children()``.
    func _children(in node: _NodeHandle) -> [_Child]
    /// What this view shows, for the tree's text dump (`nil`: nothing of its own).
    var _text: String? { get }
    /// Called when the node is first inserted (`previous == nil`) and each time it is updated.
    func _update(node: _NodeHandle, previous: Self?)
    /// Changes the environment its children see (environment modifiers).
    func _applyEnvironment(to environment: inout EnvironmentValues)
}

extension _PrimitiveView {
    /// Primitive views have no body: the render tree handles them itself.
    public var body: Never { fatalError("\(Self.self) is a primitive view and has no body") }
    public func _children() -> [_Child] { [] }
    public func _children(in node: _NodeHandle) -> [_Child] { _children() }
    public var _text: String? { nil }
    public func _update(node: _NodeHandle, previous: Self?) {}
    public func _applyEnvironment(to environment: inout EnvironmentValues) {}
}

/// A child of a primitive view, with the identity component it has among its siblings.
public struct _Child {
    public var view: any View
    /// The identity component, kept as a plain integer for positions and integer ids (comparing and
    /// hashing `AnyHashable` integers is what a list's reconciliation spent most of its time on).
    var identityKey: ChildKey

    /// Structural position, or an explicit id (`ForEach`, `.id(_:)`), or a branch of an `if`.
    public var key: AnyHashable {
        get { identityKey.hashable }
        set { identityKey = .any(newValue) }
    }

    public init(_ view: any View, key: AnyHashable) {
        self.view = view
        identityKey = .any(key)
    }

    /// A child identified by a position or an integer id.
    init(_ view: any View, index: Int) {
        self.view = view
        identityKey = .index(index)
    }
}

/// A child's key among its siblings.
enum ChildKey: Hashable {
    case index(Int)
    case any(AnyHashable)

    var hashable: AnyHashable {
        switch self {
        case .index(let index): AnyHashable(index)
        case .any(let key): key
        }
    }
}

// MARK: Builders and structural views

/// SwiftUI's result builder for view bodies.
@MainActor @resultBuilder
public enum ViewBuilder {
    /// Passes a view through.
    public static func buildExpression<V: View>(_ view: V) -> V { view }
    /// An empty block builds an ``EmptyView``.
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// Builds a block of views: one view as itself, several as a ``TupleView``.
    public static func buildBlock<V: View>(_ view: V) -> V { view }
    /// Builds a block of views: one view as itself, several as a ``TupleView``.
    public static func buildBlock<each V: View>(_ views: repeat each V) -> TupleView {
        var children: [any View] = []
        repeat children.append(each views)
        return TupleView(children)
    }
    /// Builds an `if` without `else`: the view, or nothing.
    public static func buildOptional<V: View>(_ view: V?) -> V? { view }
    /// Builds the `if` branch of an `if`/`else`.
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { .init(.first(first)) }
    /// Builds the `else` branch of an `if`/`else`.
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { .init(.second(second)) }
    /// Passes an availability-limited view through.
    public static func buildLimitedAvailability<V: View>(_ view: V) -> V { view }
}

/// Several views in a row, each identified by its position.
public struct TupleView: _PrimitiveView {
    /// The views, in order.
    public let children: [any View]
    /// Creates a tuple of views.
    public init(_ children: [any View]) { self.children = children }
    public func _children() -> [_Child] {
        children.enumerated().map { _Child($1, index: $0) }
    }
}

/// The two branches of an `if`/`else`: each branch has an identity of its own, so switching
/// branches replaces the node (and its state), as in SwiftUI.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: _PrimitiveView {
    public enum Storage {
        case first(TrueContent)
        case second(FalseContent)
    }
    public let storage: Storage
    public init(_ storage: Storage) { self.storage = storage }
    public func _children() -> [_Child] {
        switch storage {
        case .first(let view): [_Child(view, key: "true")]
        case .second(let view): [_Child(view, key: "false")]
        }
    }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
}

extension Optional: _PrimitiveView where Wrapped: View {
    public func _children() -> [_Child] {
        map { [_Child($0, key: "some")] } ?? []
    }
}

/// A type-erased view (SwiftUI's `AnyView`). When the wrapped view's type changes, its node is
/// replaced.
public struct AnyView: _PrimitiveView {
    let content: any View
    /// Wraps `view`, erasing its type.
    public init<V: View>(_ view: V) { content = view }
    /// Wraps a view held as `any View`.
    public init(erasing view: any View) { content = view }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A view that shows nothing.
public struct EmptyView: _PrimitiveView {
    /// Creates a view that shows nothing.
    public init() {}
}

/// A container that groups views without adding structure of its own.
public struct Group<Content: View>: _PrimitiveView {
    /// The grouped views.
    public let content: Content
    /// Groups the views `content` builds.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A vertical stack (headless: a container).
public struct VStack<Content: View>: _PrimitiveView {
    /// The stacked views.
    public let content: Content
    /// Stacks the views `content` builds.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A horizontal stack (headless: a container).
public struct HStack<Content: View>: _PrimitiveView {
    /// The stacked views.
    public let content: Content
    /// Stacks the views `content` builds.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A view per element of a collection, each identified by its id (SwiftUI's `ForEach`).
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: _PrimitiveView {
    /// The collection of underlying identified data.
    public let data: Data
    /// The key path to each element's identity.
    public let id: KeyPath<Data.Element, ID>
    /// A function that creates the view for an element.
    public let content: (Data.Element) -> Content

    /// Creates a view per element of `data`, identified by the value at `id`.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.id = id
        self.content = content
    }

    public func _children() -> [_Child] {
        if ID.self == Int.self {
            return data.map { _Child(content($0), index: unsafeBitCast($0[keyPath: id], to: Int.self)) }
        }
        return data.map { _Child(content($0), key: AnyHashable($0[keyPath: id])) }
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// Creates a view per element of `data`, identified by the element's id (or the number itself, for a range).
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    /// Creates a view per element of `data`, identified by the element's id (or the number itself, for a range).
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.init(data, id: \.self, content: content)
    }
}

// MARK: Controls

/// Text. The tree's dump shows it; tests find views by it.
public struct Text: _PrimitiveView, Equatable {
    /// The text shown.
    public let content: String
    /// Creates a text view that displays `content`.
    public init(_ content: String) { self.content = content }
    public var _text: String? { content }
}

/// A control that performs an action when tapped (``RenderTree/tap(_:matching:)``).
public struct Button<Label: View>: _PrimitiveView {
    /// What a tap runs.
    public let action: () -> Void
    /// The button's label.
    public let label: Label

    /// Creates a button that runs `action` and shows the label `label` builds.
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    public func _children() -> [_Child] { [_Child(label, key: 0)] }
}

extension Button where Label == Text {
    /// Creates a button with a text label.
    public init(_ title: String, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

/// A text input bound to a string (``RenderTree/focus(_:matching:)`` and ``RenderTree/type(_:into:matching:)``).
///
/// It behaves as SwiftUI's does towards its binding: gaining focus writes the current text back
/// through the binding, and every edit is written twice (the text, then the same text again as
/// the field commits its marked text) — a setter that has side effects sees them all.
public struct TextField: _PrimitiveView {
    /// The field's title (how tests find it).
    public let title: String
    /// The binding the field reads and writes.
    public let text: Binding<String>

    /// Creates a text field titled `title` that edits `text`.
    public init(_ title: String, text: Binding<String>) {
        self.title = title
        self.text = text
    }

    public var _text: String? { "[\(title): \(text.wrappedValue)]" }
}
