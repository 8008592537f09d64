import Foundation

/// A modifier you apply to a view, producing a different version of it (SwiftUI's
/// `ViewModifier`). A modifier may hold state (`@State`, `@Environment`, …): it lives in the node
/// of the modified view, as in SwiftUI.
@MainActor @preconcurrency
public protocol ViewModifier {
    /// The type of view the modifier produces.
    associatedtype Body: View
    /// The content the modifier is applied to.
    typealias Content = _ViewModifier_Content<Self>
    /// The view the modifier makes of `content`.
    @ViewBuilder func body(content: Content) -> Body
}

/// The content a ``ViewModifier`` receives: the modified view.
public struct _ViewModifier_Content<Modifier: ViewModifier>: _PrimitiveView {
    let content: any View
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A view with a modifier applied (SwiftUI's `ModifiedContent`): its body is the modifier's, and
/// its stored properties are the modifier's (so its state lives in this node) and the content.
public struct ModifiedContent<Content: View, Modifier: ViewModifier>: View {
    /// The modified view.
    public var content: Content
    /// The modifier.
    public var modifier: Modifier

    /// Applies `modifier` to `content`.
    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }

    /// The modifier's body around the content.
    public var body: Modifier.Body {
        modifier.body(content: _ViewModifier_Content(content: content))
    }
}

extension ModifiedContent: @preconcurrency CustomReflectable {
    /// The modifier's properties (its state, environment readers…) and then the content: the
    /// tree installs the modifier's wrappers in this node.
    public var customMirror: Mirror {
        let fields = Mirror(reflecting: modifier).children.map { (label: $0.label, value: $0.value) }
        return Mirror(self, children: fields + [(label: "content", value: content as Any)], displayStyle: .struct)
    }
}

extension View {
    /// Applies `modifier` to this view.
    public func modifier<M: ViewModifier>(_ modifier: M) -> ModifiedContent<Self, M> {
        ModifiedContent(content: self, modifier: modifier)
    }

    /// Compares this view with its previous value with `==` to decide whether to re-evaluate its
    /// body (the tree already does for `Equatable` views; this keeps SwiftUI's spelling).
    public func equatable() -> EquatableView<Self> where Self: Equatable {
        EquatableView(content: self)
    }
}

/// A view that re-evaluates its content only when the content is not `==` to its previous value.
public struct EquatableView<Content: View & Equatable>: _PrimitiveView {
    /// The compared view.
    public var content: Content
    /// Wraps `content`.
    public init(content: Content) { self.content = content }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}
