import Foundation

// The test API: what a user reaches. Every interaction looks only at the top screen — the last
// presented sheet, and in it the top screen of each navigation stack — finds the control by what
// a user or VoiceOver sees (its label's texts, its images' names, its accessibility label or
// identifier, a field's title), does what the user's gesture does, and flushes. A control that
// is not there is an error naming what is there, which a throwing test reports as a failure.

/// What the test API needs to know about a view type, computed once per type (``ValueLayout``)
/// instead of casting every node's view on every query.
struct ViewRoles: OptionSet, Sendable {
    let rawValue: UInt16
    static let tappable = ViewRoles(rawValue: 1 << 0)
    static let labeledControl = ViewRoles(rawValue: 1 << 1)
    static let textInput = ViewRoles(rawValue: 1 << 2)
    static let navigationContainer = ViewRoles(rawValue: 1 << 3)
    static let accessibilityNamed = ViewRoles(rawValue: 1 << 4)
    static let image = ViewRoles(rawValue: 1 << 5)
    /// A primitive view (it may show a text of its own).
    static let primitive = ViewRoles(rawValue: 1 << 6)
    /// A tab of a tab view (on screen only while selected).
    static let tabScreen = ViewRoles(rawValue: 1 << 7)
    /// A `.focusedValue` writer (``RenderTree`` keeps track of them, so that a tap in a tree
    /// without any does not look for the focused field).
    static let focusedValueWriter = ViewRoles(rawValue: 1 << 8)
    /// Any of the controls the test API finds by name: their names are their own.
    static let control: ViewRoles = [.tappable, .labeledControl, .textInput]

    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The roles of views of type `type`.
    init(of type: Any.Type) {
        var roles: ViewRoles = []
        if type is any _Tappable.Type { roles.insert(.tappable) }
        if type is any _LabeledControl.Type { roles.insert(.labeledControl) }
        if type is any _TextInput.Type { roles.insert(.textInput) }
        if type is any _NavigationContainer.Type { roles.insert(.navigationContainer) }
        if type is any _AccessibilityNamed.Type { roles.insert(.accessibilityNamed) }
        if type == Image.self { roles.insert(.image) }
        if type is any _PrimitiveView.Type { roles.insert(.primitive) }
        if type is any _TabScreenView.Type { roles.insert(.tabScreen) }
        if type is any _FocusedValuePublisher.Type { roles.insert(.focusedValueWriter) }
        self = roles
    }
}

/// The key of a control's label among its children.
nonisolated(unsafe) let labelKey = ChildKey.any("label")  // unsafe: an immutable key around a String (AnyHashable is not Sendable)
/// The key of a picker's options among its children.
nonisolated(unsafe) let optionsKey = ChildKey.any("options")  // unsafe: as labelKey

/// A control that taps (``Button``, ``NavigationLink``).
@MainActor protocol _Tappable {
    func _tap(node: _NodeHandle)
}

extension Button: _Tappable {
    func _tap(node: _NodeHandle) { action() }
}

/// A control that shows a value next to its label in ``RenderTree/texts`` (`[Muted: on]`).
@MainActor protocol _LabeledControl {
    func _display(label: String, node: _NodeHandle) -> String?
}

/// How the test API matches a name a test gives against the names a control is found by.
///
/// Every gesture and query matches exactly unless asked otherwise: `try tree.tap("Star")` does not
/// tap a button titled "Starred" (a prefix used to find one, and a test could pass while tapping
/// the wrong control). Pass `.prefix` where a name's end changes and does not matter:
/// `try tree.tap("Tap 49", matching: .prefix)` taps "Tap 49: 3".
public enum NameMatching: Sendable, Hashable {
    /// The whole name (the default).
    case exact
    /// The start of a name. An exact match anywhere on screen still wins; otherwise the first
    /// control on screen with a name that starts with it.
    case prefix

    /// Whether `candidate` is matched by `name`.
    func matches(_ name: String, _ candidate: String) -> Bool {
        switch self {
        case .exact: candidate == name
        case .prefix: candidate.hasPrefix(name)
        }
    }
}

/// The test API found no control by that name on the current screen.
///
/// Its description names what is there instead, so a mistyped title reads as:
/// `no button "Ad" on screen; buttons: "Add", "Cancel"; texts: "Notes", "Add", "Cancel"`.
public struct RenderTreeLookupError: Error, CustomStringConvertible, Equatable {
    /// What was looked for: `"button"`, `"text field"`, `"toggle"`…
    public let kind: String
    /// The name that was not found.
    public let name: String
    /// The names of the controls of that kind on screen.
    public let available: [String]
    /// The texts on screen.
    public let texts: [String]

    /// What was missing and what is there.
    public var description: String {
        let quoted = { (names: [String]) in names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", ") }
        return "no \(kind) \"\(name)\" on screen; \(kind)s: \(quoted(available)); texts: \(quoted(texts))"
    }
}

extension RenderTree {
    // MARK: What is on screen

    /// The root of what is on screen: the last presented sheet (recursively), or the root.
    func topLayer() -> _NodeHandle {
        // Nothing presented anywhere (the common case): no walk.
        if !hasPresentedNodes { return root }
        var layer: _NodeHandle = root
        while true {
            var next: _NodeHandle?
            visit(layer) { _ in true } presented: { next = $0 }
            guard let next else { return layer }
            layer = next
        }
    }

    /// Visits `node` and what is on screen below it, depth first, while `body` returns `true`;
    /// presented sheets are handed to `presented` instead of being visited.
    func visit(
        _ node: _NodeHandle, _ body: (_NodeHandle) -> Bool, presented: (_NodeHandle) -> Void = { _ in }
    ) {
        node.visitOnScreen(body, presented: presented)
    }

    /// The texts on screen at or below `node` (the top screen when `nil`).
    func visibleTexts(below node: _NodeHandle? = nil) -> [String] {
        (node ?? topLayer()).textsOnScreen()
    }

    /// The names a control is found by: accessibility names around and in it, a field's title,
    /// its label's texts, its images' names.
    private func names(of node: _NodeHandle, inherited: [String]) -> [String] {
        inherited + ownNames(of: node)
    }

    /// The names a control is found by that come from itself and what it contains. A control
    /// that shows no live value (a button, a link) keeps them until something below it is
    /// evaluated again: finding a control among a thousand rows does not read every row's texts
    /// anew.
    func ownNames(of node: _NodeHandle) -> [String] {
        if let cached = node.cachedNames { return cached }
        var names: [String] = []
        if node.roles.contains(.textInput), let input = node.view as? any _TextInput, !input.title.isEmpty {
            names.append(input.title)
        }
        var images: [String] = []
        visit(node) { inner in
            if inner.roles.contains(.accessibilityNamed), let named = inner.view as? any _AccessibilityNamed {
                names.append(named.name)
            }
            if inner.roles.contains(.image), let image = inner.view as? Image { images.append(image.name) }
            if inner.key == optionsKey { return false }
            return true
        }
        let labelNode = node.children.first { $0.key == labelKey }
        let isInput = node.roles.contains(.textInput)
        let texts = visibleTexts(below: labelNode ?? node).filter { !$0.hasPrefix("[") || isInput }
        let label = texts.joined(separator: " ")
        names += texts
        if texts.count > 1 { names.append(label) }
        names += images
        // A button or a link keeps its names; a field or a control that shows a value reads it
        // live.
        if node.roles.contains(.tappable), node.roles.isDisjoint(with: [.labeledControl, .textInput]) {
            cacheNames(names, on: node)
        }
        return names
    }

    /// Visits the controls of type `T` on screen, in order, with the names they are found by,
    /// while `body` returns `true`.
    private func forEachControl<T>(_ type: T.Type, _ body: (_NodeHandle, T, [String]) -> Bool) {
        var going = true
        func walk(_ node: _NodeHandle, inherited: [String]) {
            var inherited = inherited
            let roles = node.roles
            if roles.contains(.accessibilityNamed), let named = node.view as? any _AccessibilityNamed {
                inherited.append(named.name)
            }
            if !roles.isDisjoint(with: .control) {
                if let control = node.view as? T {
                    going = body(node, control, names(of: node, inherited: inherited))
                    if !going { return }
                }
                inherited = []
            }
            if roles.contains(.navigationContainer) {
                if let top = node.children.last { walk(top, inherited: inherited) }
                return
            }
            for child in node.children where !child.isPresentedChild && !child.isHiddenTab {
                walk(child, inherited: inherited)
                if !going { return }
            }
        }
        walk(topLayer(), inherited: [])
    }

    /// The controls of type `T` on screen, with the names they are found by.
    private func controls<T>(_ type: T.Type) -> [(node: _NodeHandle, control: T, names: [String])] {
        var found: [(_NodeHandle, T, [String])] = []
        forEachControl(type) { node, control, names in
            found.append((node, control, names))
            return true
        }
        return found
    }

    /// The control of type `T` named `name`: exactly, or — with `.prefix` — exactly, else as a
    /// prefix of one of its names. The walk stops at the first exact match.
    func control<T>(
        _ type: T.Type, kind: String, named name: String, matching: NameMatching = .exact
    ) throws -> (_NodeHandle, T) {
        var exact: (_NodeHandle, T)?
        var prefixed: (_NodeHandle, T)?
        forEachControl(type) { node, control, names in
            if names.contains(name) {
                exact = (node, control)
                return false
            }
            if matching == .prefix, prefixed == nil, names.contains(where: { $0.hasPrefix(name) }) {
                prefixed = (node, control)
            }
            return true
        }
        if let match = exact ?? prefixed { return match }
        let all = controls(type)
        var available: [String] = []
        for entry in all {
            if let first = entry.names.first, !available.contains(first) { available.append(first) }
        }
        throw RenderTreeLookupError(kind: kind, name: name, available: available, texts: texts)
    }

    /// Runs a user's action on `node`, unless a ``View/disabled(_:)`` above it disables it; closes
    /// an alert or dialog the control is in; then flushes.
    func interact(_ node: _NodeHandle, _ action: () -> Void) {
        guard node.environment.isEnabled else { return }
        action()
        var ancestor = node.parent
        while let current = ancestor {
            if let screen = current.view as? any _PresentedScreenView, screen.closesOnTap {
                flush()
                screen.dismiss()
                break
            }
            ancestor = current.parent
        }
        flush()
        if refreshFocusedValues() { flush() }
    }

    // MARK: Gestures

    /// Taps the button or navigation link named `title` (its label's text, its image's name, or
    /// its accessibility label; exactly unless `matching` is `.prefix`), then flushes. A link
    /// pushes its destination. A disabled control ignores the tap, as it ignores a user's.
    ///
    /// - Throws: ``RenderTreeLookupError`` naming the buttons and texts on screen.
    public func tap(_ title: String, matching: NameMatching = .exact) throws {
        let indexed = matching == .exact ? indexedTappable(named: title) : nil
        let (node, control) =
            try indexed ?? control((any _Tappable).self, kind: "button", named: title, matching: matching)
        interact(node) { control._tap(node: node) }
    }

    /// The one button or link on screen whose own names include `name`, found through the
    /// index — or `nil` when the walk must decide (see ``ControlIndex``).
    private func indexedTappable(named name: String) -> (_NodeHandle, any _Tappable)? {
        guard let candidates = controlIndex.candidates(named: name, naming: { _ = ownNames(of: $0) }) else { return nil }
        var found: (_NodeHandle, any _Tappable)?
        for node in candidates where isOnScreen(node) {
            guard let control = node.view as? any _Tappable else { continue }
            if found != nil { return nil }
            found = (node, control)
        }
        return found
    }

    /// Whether `node` is on the screen on top: inside the top layer, and in the top screen of
    /// each navigation stack above it.
    private func isOnScreen(_ node: _NodeHandle) -> Bool {
        let top = topLayer()
        var child = node
        while let parent = child.parent {
            if child === top { return true }
            if parent.roles.contains(.navigationContainer) {
                if parent.children.last !== child { return false }
            } else if child.isPresentedChild || child.isHiddenTab {
                return false
            }
            child = parent
        }
        return child === top
    }

    /// Flips the toggle named `title` (exactly unless `matching` is `.prefix`).
    public func toggle(_ title: String, matching: NameMatching = .exact) throws {
        let (node, toggle) = try control((any _Toggling).self, kind: "toggle", named: title, matching: matching)
        interact(node) { toggle.flip() }
    }

    /// Focuses the text field named `title` (exactly unless `matching` is `.prefix`). Like
    /// SwiftUI's, the field writes its current text back through its binding; a
    /// ``View/focused(_:)`` binding above it becomes true.
    public func focus(_ title: String, matching: NameMatching = .exact) throws {
        let (node, field) = try control((any _TextInput).self, kind: "text field", named: title, matching: matching)
        interact(node) {
            field.text.wrappedValue = field.text.wrappedValue
            moveFocus(to: node)
        }
    }

    /// Types `text` into the text field named `title` (the whole new content; the name exactly
    /// unless `matching` is `.prefix`). Like SwiftUI's, the field writes the edit through its
    /// binding twice.
    public func type(_ text: String, into title: String, matching: NameMatching = .exact) throws {
        let (node, field) = try control((any _TextInput).self, kind: "text field", named: title, matching: matching)
        interact(node) {
            field.text.wrappedValue = text
            field.text.wrappedValue = text
        }
    }

    /// Submits the text field named `title` (the return key; the name exactly unless `matching` is
    /// `.prefix`): runs the ``View/onSubmit(of:_:)`` actions above it.
    public func submit(_ title: String, matching: NameMatching = .exact) throws {
        let (node, _) = try control((any _TextInput).self, kind: "text field", named: title, matching: matching)
        interact(node) {
            var ancestor = node.parent
            while let current = ancestor {
                (current.view as? any _SubmitHandler)?.action()
                ancestor = current.parent
            }
        }
    }

    /// Drags the slider named `title` to `value` (clamped to its range, rounded to its step; the
    /// name exactly unless `matching` is `.prefix`).
    public func slide(_ title: String, to value: Double, matching: NameMatching = .exact) throws {
        let (node, slider) = try control((any _Sliding).self, kind: "slider", named: title, matching: matching)
        interact(node) { slider.slide(to: value) }
    }

    /// Taps the + of the stepper named `title` (exactly unless `matching` is `.prefix`).
    public func increment(_ title: String, matching: NameMatching = .exact) throws {
        let (node, stepper) = try control((any _Stepping).self, kind: "stepper", named: title, matching: matching)
        interact(node) { stepper.step(up: true) }
    }

    /// Taps the − of the stepper named `title` (exactly unless `matching` is `.prefix`).
    public func decrement(_ title: String, matching: NameMatching = .exact) throws {
        let (node, stepper) = try control((any _Stepping).self, kind: "stepper", named: title, matching: matching)
        interact(node) { stepper.step(up: false) }
    }

    /// Chooses the option showing `option` in the picker named `picker` (both exactly unless
    /// `matching` is `.prefix`).
    public func select(_ option: String, in picker: String, matching: NameMatching = .exact) throws {
        let (node, chooser) = try control((any _Chooser).self, kind: "picker", named: picker, matching: matching)
        let options = node.pickerOptions()
        guard
            let chosen = options.first(where: { $0.text == option })
                ?? options.first(where: { matching.matches(option, $0.text) })
        else {
            throw RenderTreeLookupError(kind: "option", name: option, available: options.map(\.text), texts: texts)
        }
        interact(node) { _ = chooser.choose(chosen.tag) }
    }

    /// Swipes to delete the row showing `row` (one of its texts, exactly unless `matching` is
    /// `.prefix`) in a list with ``ForEach/onDelete(perform:)``.
    public func delete(_ row: String, matching: NameMatching = .exact) throws {
        let (offset, editor) = try editableRow(row, matching: matching) { $0.deleteAction != nil }
        interact(editor.node) { editor.rows.deleteAction?(IndexSet(integer: offset)) }
    }

    /// Drags the row showing `row` (one of its texts, exactly unless `matching` is `.prefix`) to
    /// `offset` in a list with ``ForEach/onMove(perform:)``.
    public func move(_ row: String, to offset: Int, matching: NameMatching = .exact) throws {
        let (from, editor) = try editableRow(row, matching: matching) { $0.moveAction != nil }
        interact(editor.node) { editor.rows.moveAction?(IndexSet(integer: from), offset) }
    }

    private func editableRow(
        _ row: String, matching: NameMatching, where accepts: (any _RowEditing) -> Bool
    ) throws -> (Int, (node: _NodeHandle, rows: any _RowEditing)) {
        var editors: [(node: _NodeHandle, rows: any _RowEditing)] = []
        visit(topLayer()) { node in
            if let editing = node.view as? any _RowEditing, accepts(editing) { editors.append((node, editing)) }
            return true
        }
        var rows: [String] = []
        for editor in editors {
            // The editor's child is the ForEach; its children are the rows.
            guard let forEach = editor.node.children.first else { continue }
            for (offset, rowNode) in forEach.children.enumerated() {
                let texts = visibleTexts(below: rowNode)
                rows.append(texts.joined(separator: " "))
                if texts.contains(where: { matching.matches(row, $0) }) { return (offset, editor) }
            }
        }
        throw RenderTreeLookupError(kind: "editable row", name: row, available: rows, texts: texts)
    }

    /// Goes back: pops the top screen of the navigation stack on screen (the back button).
    ///
    /// - Throws: ``RenderTreeLookupError`` when no stack on screen has a screen to pop.
    public func back() throws {
        var stack: _NodeHandle?
        visit(topLayer()) { node in
            if node.view is any _NavigationContainer, node.children.count > 1 { stack = node }
            return true
        }
        guard let stack, let screen = stack.children.last?.view as? any _PresentedScreenView else {
            throw RenderTreeLookupError(kind: "back button", name: "Back", available: [], texts: texts)
        }
        screen.dismiss()
        flush()
    }

    /// Dismisses the sheet on top (the user's swipe down): its binding is reset, its state
    /// discarded, its `onDismiss` runs.
    ///
    /// - Throws: ``RenderTreeLookupError`` when no sheet is presented.
    public func dismissSheet() throws {
        let layer = topLayer()
        guard layer !== root, let screen = layer.view as? any _PresentedScreenView else {
            throw RenderTreeLookupError(kind: "sheet", name: "presented sheet", available: [], texts: texts)
        }
        screen.dismiss()
        flush()
    }

    // MARK: Queries

    /// The images on screen that are not part of a control (a button's image names the button),
    /// each by the name a UI test finds it by (`app.images["with transcription"]`): its
    /// accessibility label, else its identifier, else the image's name.
    public var images: [String] { imageEntries().map { $0[0] } }

    /// Whether an image that is not part of a control is on screen, found by its accessibility
    /// label or identifier or its image's name (`Image(systemName: "mic")` is found by `"mic"`).
    public func hasImage(_ name: String) -> Bool { imageEntries().contains { $0.contains(name) } }

    /// The accessibility labels on screen (``View/accessibilityLabel(_:)-(S)``), depth first,
    /// including the labels of controls.
    public var accessibilityLabels: [String] {
        var labels: [String] = []
        visit(topLayer()) { node in
            if let named = node.view as? any _AccessibilityNamed, !named.isIdentifier { labels.append(named.name) }
            return true
        }
        return labels
    }

    /// The names of each image on screen outside controls: the label first, then the
    /// identifier, then the image's name.
    private func imageEntries() -> [[String]] {
        var result: [[String]] = []
        func walk(_ node: _NodeHandle, labels: [String], identifiers: [String]) {
            var labels = labels
            var identifiers = identifiers
            if node.roles.contains(.accessibilityNamed), let named = node.view as? any _AccessibilityNamed {
                if named.isIdentifier { identifiers.insert(named.name, at: 0) } else { labels.insert(named.name, at: 0) }
            }
            if node.roles.contains(.image), let image = node.view as? Image {
                result.append(labels + identifiers + [image.name])
            }
            if !node.roles.isDisjoint(with: .control) { return }
            if node.roles.contains(.navigationContainer) {
                if let top = node.children.last { walk(top, labels: labels, identifiers: identifiers) }
                return
            }
            for child in node.children where !child.isPresentedChild && !child.isHiddenTab {
                walk(child, labels: labels, identifiers: identifiers)
            }
        }
        walk(topLayer(), labels: [], identifiers: [])
        return result
    }

    /// Whether something named `name` is on screen: a text, a control found by that name (its
    /// label's texts, images, accessibility names, a field's title), or an image outside controls.
    /// The match is exact. It only looks: nothing is tapped or flushed, and a name that is not
    /// there is `false`, not an error.
    public func exists(_ name: String) -> Bool {
        if visibleTexts().contains(name) { return true }
        if imageEntries().contains(where: { $0.contains(name) }) { return true }
        if accessibilityLabels.contains(name) { return true }
        var found = false
        forEachControl(Any.self) { _, _, names in
            found = names.contains(name)
            return !found
        }
        return found
    }

    /// Whether a sheet (or alert, or dialog) is presented.
    public var isPresentingSheet: Bool { topLayer() !== root }

    /// The title of the screen on top (``View/navigationTitle(_:)-(S)``), if it has one.
    public var navigationTitle: String? {
        var title: String?
        visit(topLayer()) { node in
            if title == nil, let titled = node.view as? any _TitleView { title = titled.title }
            return title == nil
        }
        return title
    }

    /// The titles of the screens of the navigation stack on screen, root first; the last is on
    /// top. Screens without a title are `""`.
    public var navigationTitles: [String] {
        var stack: _NodeHandle?
        visit(topLayer()) { node in
            if stack == nil, node.view is any _NavigationContainer { stack = node }
            return stack == nil
        }
        guard let stack else { return [] }
        return stack.children.map { screen in
            var title = ""
            visit(screen) { node in
                if title.isEmpty, let titled = node.view as? any _TitleView { title = titled.title }
                return title.isEmpty && !(node.view is any _NavigationContainer)
            }
            return title
        }
    }

    /// Whether the control named `title` (exactly unless `matching` is `.prefix`) responds to the
    /// user (no ``View/disabled(_:)`` with `true` above it).
    public func isEnabled(_ title: String, matching: NameMatching = .exact) throws -> Bool {
        let (node, _) = try control((any _UserControl).self, kind: "control", named: title, matching: matching)
        return node.environment.isEnabled
    }

    /// The title of the field that has focus, as the ``FocusState`` bindings say.
    public var focusedField: String? {
        for (node, field, _) in controls((any _TextInput).self) {
            var ancestor = node.parent
            while let current = ancestor {
                if let site = current.view as? any _FocusSite, site.isFocused() { return field.title }
                ancestor = current.parent
            }
        }
        return nil
    }

    /// The text field that has focus: the one a focus binding above says is focused, else the
    /// field the test focused last when no focus binding is above it.
    func focusedFieldNode() -> _NodeHandle? {
        func site(above node: _NodeHandle) -> (any _FocusSite)? {
            var ancestor = node.parent
            while let current = ancestor {
                if let site = current.view as? any _FocusSite { return site }
                ancestor = current.parent
            }
            return nil
        }
        for (node, _, _) in controls((any _TextInput).self) {
            var ancestor = node.parent
            while let current = ancestor {
                if let site = current.view as? any _FocusSite, site.isFocused() { return node }
                ancestor = current.parent
            }
        }
        if let node = lastFocused.node, node.attached, site(above: node) == nil { return node }
        return nil
    }

    /// Moves ``FocusState`` focus to the field at `node`: the bindings above it focus, the others
    /// that are focused let go.
    private func moveFocus(to node: _NodeHandle) {
        lastFocused = WeakNode(node: node)
        var mine: [ObjectIdentifier] = []
        var ancestor = node.parent
        while let current = ancestor {
            if let site = current.view as? any _FocusSite {
                mine.append(ObjectIdentifier(current))
                site.focus()
            }
            ancestor = current.parent
        }
        visit(root) { other in
            if !mine.contains(ObjectIdentifier(other)), let site = other.view as? any _FocusSite, site.isFocused() {
                site.unfocus()
            }
            return true
        }
    }
}

/// Any control a user operates, for ``RenderTree/isEnabled(_:matching:)``.
@MainActor protocol _UserControl {}
extension Button: _UserControl {}
extension NavigationLink: _UserControl {}
extension Toggle: _UserControl {}
extension TextField: _UserControl {}
extension SecureField: _UserControl {}
extension TextEditor: _UserControl {}
extension Slider: _UserControl {}
extension Stepper: _UserControl {}
extension Picker: _UserControl {}

/// A toggle, for ``RenderTree/toggle(_:matching:)``.
@MainActor protocol _Toggling {
    func flip()
}

extension Toggle: _Toggling {
    func flip() { isOn.wrappedValue.toggle() }
}

/// A slider, for ``RenderTree/slide(_:to:matching:)``.
@MainActor protocol _Sliding {
    func slide(to value: Double)
}

extension Slider: _Sliding {}

/// A stepper, for ``RenderTree/increment(_:matching:)``.
@MainActor protocol _Stepping {
    func step(up: Bool)
}

extension Stepper: _Stepping {
    func step(up: Bool) { (up ? onIncrement : onDecrement)?() }
}

// MARK: Reading nodes

extension _NodeHandle {
    /// Visits this node and what is on screen below it, depth first, while `body` returns `true`;
    /// presented sheets are handed to `presented` instead of being visited.
    @MainActor func visitOnScreen(_ body: (_NodeHandle) -> Bool, presented: (_NodeHandle) -> Void = { _ in }) {
        guard body(self) else { return }
        if roles.contains(.navigationContainer) {
            if let top = children.last { top.visitOnScreen(body, presented: presented) }
            return
        }
        for child in children {
            if child.isPresentedChild {
                presented(child)
            } else if child.isHiddenTab {
                continue
            } else {
                child.visitOnScreen(body, presented: presented)
            }
        }
    }

    /// Whether this node is a tab of a tab view that is not the selected one (off screen).
    @MainActor var isHiddenTab: Bool {
        roles.contains(.tabScreen) && (view as? any _TabScreenView)?.isSelected == false
    }

    /// The texts on screen at or below this node, depth first: texts, and `[title: value]` for
    /// controls that show a value.
    @MainActor func textsOnScreen() -> [String] {
        var result: [String] = []
        visitOnScreen { node in
            if node.roles.contains(.labeledControl), !node.isStyled, let control = node.view as? any _LabeledControl {
                let labelNode = node.children.first { $0.key == labelKey }
                let label = labelNode.map { $0.textsOnScreen().joined(separator: " ") } ?? ""
                if let shown = control._display(label: label, node: node) { result.append(shown) }
                return false
            }
            if node.roles.contains(.primitive), let text = (node.view as? any _PrimitiveView)?._text { result.append(text) }
            return true
        }
        return result
    }

    /// The options of the picker at this node: each tag with its texts.
    @MainActor func pickerOptions() -> [(tag: AnyHashable, text: String, node: _NodeHandle)] {
        guard let optionsNode = children.first(where: { $0.key == optionsKey }) else { return [] }
        var result: [(AnyHashable, String, _NodeHandle)] = []
        optionsNode.visitOnScreen { node in
            guard let tagged = node.view as? any _TaggedView else { return true }
            result.append((tagged.tag, node.textsOnScreen().joined(separator: " "), node))
            return false
        }
        return result
    }
}
