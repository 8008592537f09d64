import Foundation

// Queries scoped to a part of the screen: one row of a list (`tree.row(containing: "Rock")`), so
// a test checks the star on that row without reading the whole screen.

/// A part of the screen a test looks into: a row of a list (``RenderTree/row(containing:)``).
/// Its queries see only what is on screen inside it, controls' contents included (a button's
/// image, a link's label).
@MainActor public struct RenderTreeScope {
    let tree: RenderTree
    let node: _NodeHandle

    /// The texts in this part, depth first (as ``RenderTree/texts``).
    public var texts: [String] { node.textsOnScreen() }

    /// The images in this part, inside controls too, each by the name a UI test finds it by: its
    /// accessibility label, else its identifier, else the image's name.
    public var images: [String] { imageNames().map { $0[0] } }

    /// The accessibility labels in this part, controls' included.
    public var accessibilityLabels: [String] {
        var labels: [String] = []
        node.visitOnScreen { inner in
            if let named = inner.view as? any _AccessibilityNamed, !named.isIdentifier { labels.append(named.name) }
            return true
        }
        return labels
    }

    /// Whether `name` is in this part: a text, an image (by any of its names) or an accessibility
    /// label — exactly. It only looks.
    public func exists(_ name: String) -> Bool {
        texts.contains(name) || imageNames().contains { $0.contains(name) } || accessibilityLabels.contains(name)
    }

    /// Taps the button or link in this part named `title` (its label's texts, its images' names,
    /// its accessibility names; exactly unless `matching` is `.prefix`), then flushes.
    ///
    /// - Throws: ``RenderTreeLookupError`` naming the buttons in this part.
    public func tap(_ title: String, matching: NameMatching = .exact) throws {
        var found: (_NodeHandle, any _Tappable)?
        var prefixed: (_NodeHandle, any _Tappable)?
        var available: [String] = []
        node.visitOnScreen { inner in
            guard found == nil else { return false }
            if inner.roles.contains(.tappable), let control = inner.view as? any _Tappable {
                let names = tree.ownNames(of: inner)
                if names.contains(title) {
                    found = (inner, control)
                } else {
                    if matching == .prefix, prefixed == nil, names.contains(where: { $0.hasPrefix(title) }) {
                        prefixed = (inner, control)
                    }
                    if let first = names.first { available.append(first) }
                }
            }
            return true
        }
        guard let (control, tappable) = found ?? prefixed else {
            throw RenderTreeLookupError(kind: "button", name: title, available: available, texts: texts)
        }
        tree.interact(control) { tappable._tap(node: control) }
    }

    private func imageNames() -> [[String]] {
        var result: [[String]] = []
        func walk(_ node: _NodeHandle, labels: [String], identifiers: [String]) {
            var labels = labels
            var identifiers = identifiers
            if let named = node.view as? any _AccessibilityNamed {
                if named.isIdentifier { identifiers.insert(named.name, at: 0) } else { labels.insert(named.name, at: 0) }
            }
            // The role, not a cast: an `if` around an image (an Optional) would cast to it too.
            if node.roles.contains(.image), let image = node.view as? Image { result.append(labels + identifiers + [image.name]) }
            if node.roles.contains(.navigationContainer) {
                if let top = node.children.last { walk(top, labels: labels, identifiers: identifiers) }
                return
            }
            for child in node.children where !child.isPresentedChild && !child.isHiddenTab {
                walk(child, labels: labels, identifiers: identifiers)
            }
        }
        walk(node, labels: [], identifiers: [])
        return result
    }
}

extension RenderTreeScope: CustomStringConvertible {
    /// The part's texts, as a test's failure message shows it: `row ["Dune", "Frank Herbert"]`.
    /// Read it on the main actor, as the tree (it traps elsewhere).
    public nonisolated var description: String {
        MainActor.assumeIsolated { "row \(texts)" }
    }
}

/// `ForEach`, for the test API's rows.
@MainActor protocol _RowsView {}
extension ForEach: _RowsView {}

extension RenderTree {
    /// The rows on screen: the views a `ForEach` (or a `List` of data) made, in order.
    public var rows: [RenderTreeScope] {
        var found: [RenderTreeScope] = []
        visit(topLayer()) { node in
            if node.view is any _RowsView {
                for row in node.children where !row.isPresentedChild { found.append(RenderTreeScope(tree: self, node: row)) }
            }
            return true
        }
        return found
    }

    /// The first row on screen that shows `text` (exactly, as a text or an image's name), to look
    /// into: `try tree.row(containing: "Turtle Rock").images`.
    ///
    /// - Throws: ``RenderTreeLookupError`` naming the rows on screen.
    public func row(containing text: String) throws -> RenderTreeScope {
        let all = rows
        if let row = all.first(where: { $0.exists(text) }) { return row }
        throw RenderTreeLookupError(
            kind: "row", name: text, available: all.map { $0.texts.joined(separator: " ") }, texts: texts)
    }
}
