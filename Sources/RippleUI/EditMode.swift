import Foundation

// Edit mode is state the container holds: a navigation stack (or a split view) gives its screens
// a binding to an edit mode of its own when none is in the environment yet, as SwiftUI's do; at
// the root there is none (`nil`) unless the test gives one, as a hosting controller would:
// `RenderTree(Screen().environment(\.editMode, $mode))` from a test's host view, or
// `RenderTree(Screen(), environment: EnvironmentValues.withEditMode(.inactive))`.

/// Whether the user can edit the content (SwiftUI's `EditMode`).
public enum EditMode: Sendable, Hashable {
    /// The content is not editable.
    case inactive
    /// Editing is temporary (a swipe to delete).
    case transient
    /// The content is editable.
    case active

    /// Whether the mode is `active` or `transient`.
    public var isEditing: Bool { self != .inactive }
}

private struct EditModeKey: EnvironmentKey {
    nonisolated(unsafe) static let defaultValue: Binding<EditMode>? = nil  // unsafe: a constant nil; Binding is not Sendable
}

extension EnvironmentValues {
    /// A binding to the edit mode of the views below a navigation stack (or of whatever a test
    /// gives the root); `nil` where nothing provides one.
    public var editMode: Binding<EditMode>? {
        get { self[EditModeKey.self] }
        set { self[EditModeKey.self] = newValue }
    }

    /// Environment values whose edit mode is a binding to a mode of their own, starting at
    /// `mode` — what a hosting controller gives its root view, for a ``RenderTree``.
    public static func withEditMode(_ mode: EditMode) -> EnvironmentValues {
        var values = EnvironmentValues()
        values.editMode = editModeBinding(StateStorage(mode))
        return values
    }
}

/// A binding to `storage`, the same input for every view that holds it (readers depend on the
/// mode by reading it).
func editModeBinding(_ storage: StateStorage<EditMode>) -> Binding<EditMode> {
    Binding(
        identity: AnyHashable(ObjectIdentifier(storage)), snapshot: nil,
        get: { storage.value }, set: { storage.value = $0 })
}

/// A button that toggles the edit mode in the environment: "Edit" while inactive, "Done" while
/// editing (SwiftUI's `EditButton`). Where there is no edit mode it does nothing.
public struct EditButton: _PrimitiveView {
    /// Creates an edit button.
    public init() {}

    public func _children(in node: _NodeHandle) -> [_Child] {
        let editing = node.environment.editMode?.wrappedValue.isEditing ?? false
        return [_Child(Text(editing ? "Done" : "Edit"), key: "label")]
    }
}

extension EditButton: _Tappable {
    func _tap(node: _NodeHandle) {
        guard let mode = node.environment.editMode else { return }
        mode.wrappedValue = mode.wrappedValue.isEditing ? .inactive : .active
    }
}

extension EditButton: _UserControl {}

/// What a navigation stack keeps for its screens' edit mode.
final class EditModeBox {
    let storage = StateStorage(EditMode.inactive)
    lazy var binding = editModeBinding(storage)
}
