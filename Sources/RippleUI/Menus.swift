import Foundation

// A menu is state: closed, it shows its label (a control the test API taps); open, its content is
// presented over the screen, like a popover, and any choice in it runs and closes it
// (``RenderTree/dismissSheet()`` closes it without a choice, as a tap outside does).

/// A control that presents its content as a menu of choices (SwiftUI's `Menu`).
public struct Menu<Label: View, Content: View>: _PrimitiveView {
    let label: Label
    let content: Content

    /// A menu of the choices `content` builds, labelled by what `label` builds.
    public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        self.label = label()
        self.content = content()
    }

    public func _children(in node: _NodeHandle) -> [_Child] {
        let memory = node.storage(at: -1) { MenuMemory() }
        var children = [_Child(label, key: "label")]
        if memory.isOpen.value {
            let dismiss = DismissAction(id: AnyHashable(PresentedKey(id: ObjectIdentifier(node)))) {
                [weak memory] in memory?.isOpen.value = false
            }
            children.append(
                _Child(_PresentedScreen(content: content, dismiss: dismiss, closesOnTap: true), key: PresentedKey(id: "menu")))
        }
        return children
    }
}

extension Menu where Label == Text {
    /// A menu titled `title`.
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {
        self.init(content: content) { Text(String(title)) }
    }
}

extension Menu where Label == SwiftUILabel {
    /// A menu titled `title` with a system image.
    public init<S: StringProtocol>(_ title: S, systemImage: String, @ViewBuilder content: () -> Content) {
        self.init(content: content) { SwiftUILabel(title, systemImage: systemImage) }
    }
}

/// Whether a menu is open.
final class MenuMemory {
    let isOpen = StateStorage(false)
}

extension Menu: _Tappable {
    func _tap(node: _NodeHandle) {
        node.storage(at: -1) { MenuMemory() }.isOpen.value = true
    }
}

extension Menu: _UserControl {}
