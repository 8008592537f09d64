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

/// A view with a modifier applied (SwiftUI's `ModifiedContent`). The modifier's dynamic
/// properties (its `@State`, `@Environment`…) live in this view's node, and its body is evaluated
/// with the node's dependency tracking, so a change of the modifier's state re-evaluates it.
public struct ModifiedContent<Content: View, Modifier: ViewModifier>: _PrimitiveView {
    /// The modified view.
    public var content: Content
    /// The modifier.
    public var modifier: Modifier

    /// Applies `modifier` to `content`.
    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }

    public func _children(in node: _NodeHandle) -> [_Child] {
        node.installDynamicProperties(of: modifier)
        return [_Child(modifier.body(content: _ViewModifier_Content(content: content)), key: 0)]
    }
}

extension _NodeHandle {
    /// Connects the dynamic properties stored in `value` (a modifier, an app) to this node, as the
    /// tree does for a view's own.
    func installDynamicProperties<T>(of value: T) {
        withUnsafePointer(to: value) { base in
            for field in ValueLayout.of(T.self).installables {
                installField(field.type, at: UnsafeRawPointer(base) + field.offset, slot: field.slot, label: field.label)
            }
        }
    }

    private func installField<F: NodeInstallable>(_: F.Type, at address: UnsafeRawPointer, slot: Int, label: String) {
        address.assumingMemoryBound(to: F.self).pointee.install(on: self, slot: slot, label: label)
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
