import Foundation

// Sheets, full-screen covers, alerts and confirmation dialogs: presentation is state. A presented
// sheet is a child of the view that presents it, with an identity of its own: dismissing it
// removes its node (its `@State` is gone; the next presentation starts fresh), and while it is up
// it covers the rest of the screen for the test API (``RenderTree/texts``, ``RenderTree/tap(_:matching:)``).

/// An action that dismisses the current presentation (SwiftUI's `DismissAction`): read it with
/// `@Environment(\.dismiss)` and call it, `dismiss()`. In a sheet it dismisses the sheet; in a
/// pushed screen it pops back to the screen below; elsewhere it does nothing.
public struct DismissAction: Equatable, @unchecked Sendable {
    let id: AnyHashable?
    let action: @MainActor () -> Void

    init(id: AnyHashable?, action: @escaping @MainActor () -> Void) {
        self.id = id
        self.action = action
    }

    /// Dismisses the current presentation.
    @MainActor public func callAsFunction() { action() }

    /// Two actions are equal when they dismiss the same presentation.
    public static func == (lhs: DismissAction, rhs: DismissAction) -> Bool { lhs.id == rhs.id }
}

private struct DismissKey: EnvironmentKey {
    static let defaultValue = DismissAction(id: nil) {}
}

private struct IsPresentedKey: EnvironmentKey {
    static let defaultValue = false
}

extension EnvironmentValues {
    /// Dismisses the current presentation: the sheet, or the pushed screen, this view is in.
    public var dismiss: DismissAction {
        get { self[DismissKey.self] }
        set { self[DismissKey.self] = newValue }
    }

    /// Whether this view is in a presentation (a sheet or a pushed screen).
    public var isPresented: Bool {
        get { self[IsPresentedKey.self] }
        set { self[IsPresentedKey.self] = newValue }
    }
}

/// The key of a presented child: what tells the tree that a sheet, not the content, is there.
struct PresentedKey: Hashable {
    let id: AnyHashable
}

/// A presented screen: gives its content the ``DismissAction`` that closes it.
public struct _PresentedScreen<Content: View>: _PrimitiveView {
    let content: Content
    let dismiss: DismissAction
    /// Alerts and dialogs close after any of their buttons runs.
    let closesOnTap: Bool
    /// A sheet is a hosting controller of its own: it gives its content an edit mode of its own.
    var providesEditMode = false
    let box = EditModeHolder()
    public func _children(in node: _NodeHandle) -> [_Child] {
        if providesEditMode { box.binding = node.storage(at: -2) { EditModeBox() }.binding }
        return [_Child(content, key: 0)]
    }
    public func _applyEnvironment(to environment: inout EnvironmentValues) {
        environment.dismiss = dismiss
        environment.isPresented = true
        if let binding = box.binding { environment.editMode = binding }
    }
}

/// Holds a sheet's edit mode between its `_children(in:)` and its `_applyEnvironment(to:)`.
final class EditModeHolder {
    var binding: Binding<EditMode>?
}

/// A presented screen, for the test API.
@MainActor protocol _PresentedScreenView {
    var dismiss: DismissAction { get }
    var closesOnTap: Bool { get }
}

extension _PresentedScreen: _PresentedScreenView {}

/// Remembers, between evaluations, what a presenter showed.
final class PresentationMemory {
    var shown: AnyHashable?
}

/// `.sheet`, `.fullScreenCover`, `.alert`, `.confirmationDialog`: the content, and the presented
/// view when there is one.
public struct _Presentation<Content: View, Presented: View>: _PrimitiveView {
    let content: Content
    /// The presented view and its identity, or `nil`.
    let presented: () -> (id: AnyHashable, view: Presented)?
    let close: @MainActor () -> Void
    let onDismiss: (() -> Void)?
    let closesOnTap: Bool

    public func _children(in node: _NodeHandle) -> [_Child] {
        var children = [_Child(content, key: 0)]
        if let (id, view) = presented() {
            let dismiss = DismissAction(id: AnyHashable(PresentedKey(id: ObjectIdentifier(node))), action: close)
            var screen = _PresentedScreen(content: view, dismiss: dismiss, closesOnTap: closesOnTap)
            screen.providesEditMode = !closesOnTap
            children.append(_Child(screen, key: PresentedKey(id: id)))
        }
        return children
    }

    public func _update(node: _NodeHandle, previous: _Presentation?) {
        let memory = node.storage(at: -1) { PresentationMemory() }
        let now = presented()?.id
        let before = memory.shown
        memory.shown = now
        if let before, before != now, let onDismiss {
            node.reconciler.afterThisPass(onDismiss)
        }
    }
}

extension View {
    /// Presents the sheet `content` builds while `isPresented` is true. Setting it to false, or
    /// calling the sheet's `dismiss` action, dismisses the sheet (its state is discarded) and
    /// then runs `onDismiss`.
    public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        _Presentation(
            content: self, presented: { isPresented.wrappedValue ? ("sheet", content()) : nil },
            close: { isPresented.wrappedValue = false }, onDismiss: onDismiss, closesOnTap: false)
    }

    /// Presents a sheet for `item` while it is not `nil`. A different item (by id) is a different
    /// sheet, with fresh state. Dismissing sets `item` to `nil`, then runs `onDismiss`.
    public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View {
        _Presentation(
            content: self, presented: { item.wrappedValue.map { (AnyHashable($0.id), content($0)) } },
            close: { item.wrappedValue = nil }, onDismiss: onDismiss, closesOnTap: false)
    }

    /// Presents a full-screen cover while `isPresented` is true (a sheet, for the tree).
    public func fullScreenCover<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        sheet(isPresented: isPresented, onDismiss: onDismiss, content: content)
    }

    /// Presents a full-screen cover for `item` while it is not `nil` (a sheet, for the tree).
    public func fullScreenCover<Item: Identifiable, Content: View>(
        item: Binding<Item?>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View {
        sheet(item: item, onDismiss: onDismiss, content: content)
    }

    /// Presents a popover while `isPresented` is true (a sheet, for the tree: it covers the screen
    /// for the test API; the arrow edge is inert).
    public func popover<Content: View>(
        isPresented: Binding<Bool>, arrowEdge: Edge? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        sheet(isPresented: isPresented, content: content)
    }

    /// Presents a popover for `item` while it is not `nil` (a sheet, for the tree).
    public func popover<Item: Identifiable, Content: View>(
        item: Binding<Item?>, arrowEdge: Edge? = nil, @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View {
        sheet(item: item, content: content)
    }

    /// Presents an alert titled `title` with the buttons `actions` builds while `isPresented` is
    /// true; tapping any of its buttons runs it and closes the alert.
    public func alert<S: StringProtocol, A: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: @escaping () -> A
    ) -> some View {
        let title = String(title)
        return _Presentation(
            content: self,
            presented: { isPresented.wrappedValue ? ("alert", VStack { Text(title); actions() }) : nil },
            close: { isPresented.wrappedValue = false }, onDismiss: nil, closesOnTap: true)
    }

    /// Presents an alert with a message while `isPresented` is true.
    public func alert<S: StringProtocol, A: View, M: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: @escaping () -> A,
        @ViewBuilder message: @escaping () -> M
    ) -> some View {
        let title = String(title)
        return _Presentation(
            content: self,
            presented: { isPresented.wrappedValue ? ("alert", VStack { Text(title); message(); actions() }) : nil },
            close: { isPresented.wrappedValue = false }, onDismiss: nil, closesOnTap: true)
    }

    /// Presents a confirmation dialog while `isPresented` is true; tapping any of its buttons
    /// runs it and closes the dialog.
    public func confirmationDialog<S: StringProtocol, A: View>(
        _ title: S, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
        @ViewBuilder actions: @escaping () -> A
    ) -> some View {
        let title = String(title)
        return _Presentation(
            content: self,
            presented: { isPresented.wrappedValue ? ("dialog", VStack { Text(title); actions() }) : nil },
            close: { isPresented.wrappedValue = false }, onDismiss: nil, closesOnTap: true)
    }

    /// Sets the sheet's detents (inert).
    public func presentationDetents(_ detents: Set<PresentationDetent>) -> some View { self }
    /// Prevents interactive dismissal (inert: the test API's ``RenderTree/dismissSheet()`` still
    /// dismisses, as the code's own `dismiss` does).
    public func interactiveDismissDisabled(_ isDisabled: Bool = true) -> some View { self }
}

/// A sheet height (inert).
public struct PresentationDetent: Sendable, Hashable {
    let name: String
    /// Medium.
    public static let medium = PresentationDetent(name: "medium")
    /// Large.
    public static let large = PresentationDetent(name: "large")
    /// A fraction of the screen.
    public static func fraction(_ fraction: CGFloat) -> PresentationDetent { .init(name: "fraction(\(fraction))") }
    /// A height.
    public static func height(_ height: CGFloat) -> PresentationDetent { .init(name: "height(\(height))") }
}

/// A button's role (inert, except that alert buttons close the alert).
public struct ButtonRole: Sendable, Hashable {
    let name: String
    /// Destructive.
    public static let destructive = ButtonRole(name: "destructive")
    /// Cancel.
    public static let cancel = ButtonRole(name: "cancel")
}

extension Button {
    /// Creates a button with a role (inert) that runs `action`.
    public init(role: ButtonRole?, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.init(action: action, label: label)
    }
}

extension Button where Label == Text {
    /// Creates a button with a text label and a role (inert).
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping () -> Void) {
        self.init(action: action) { Text(String(title)) }
    }

    /// Creates a button with a string-like title.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {
        self.init(action: action) { Text(String(title)) }
    }
}

extension Button where Label == SwiftUILabel {
    /// Creates a button whose label is a title and a system image.
    public init<S: StringProtocol>(_ title: S, systemImage: String, action: @escaping () -> Void) {
        self.init(action: action) { Label(title, systemImage: systemImage) }
    }
}

/// The label type of `Button(_:systemImage:action:)`.
public typealias SwiftUILabel = Label<Text, Image>
