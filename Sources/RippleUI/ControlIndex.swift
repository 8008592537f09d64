// The test API's index of buttons and links by name, so that a tap among a thousand rows does not
// walk the whole tree and read every row's texts.
//
// A tappable control's own names (its label's texts, its images' names, the accessibility names
// inside it) change only when something in its subtree is evaluated again; the render tree then
// takes it out of the index and marks it pending, and the next lookup names it anew. Names that
// come from around a control (an accessibility label on an ancestor) are not indexed: a name that
// some accessibility label on screen carries, a name no control has (a prefix), or a name several
// controls share goes through the walk, which decides in screen order.

/// A node, held weakly.
struct WeakNode {
    weak var node: _NodeHandle?
}

/// Buttons and links by their own names, and the accessibility names in the tree.
@MainActor final class ControlIndex {
    /// Indexed controls by name.
    private var byName: [String: [ObjectIdentifier: WeakNode]] = [:]
    /// Tappable controls whose names have not been computed since they were inserted or since
    /// something below them was evaluated.
    private var pending: [ObjectIdentifier: WeakNode] = [:]
    /// The accessibility names in the tree, by node, and how many nodes carry each.
    private var accessibilityNames: [ObjectIdentifier: String] = [:]
    private var accessibilityNameCounts: [String: Int] = [:]

    /// A tappable control was inserted, or something below it was evaluated.
    func markPending(_ node: _NodeHandle) {
        pending[ObjectIdentifier(node)] = WeakNode(node: node)
    }

    /// Indexes `node` under `names` (its own names, just computed).
    func add(_ node: _NodeHandle, names: [String]) {
        let id = ObjectIdentifier(node)
        pending[id] = nil
        for name in names { byName[name, default: [:]][id] = WeakNode(node: node) }
    }

    /// Takes `node` out of the index (it was indexed under `names`).
    func remove(_ node: _NodeHandle, names: [String]) {
        let id = ObjectIdentifier(node)
        for name in names {
            byName[name]?[id] = nil
            if byName[name]?.isEmpty == true { byName[name] = nil }
        }
    }

    /// Records the accessibility name `node` carries now (it was just evaluated).
    func noteAccessibilityName(_ name: String, of node: _NodeHandle) {
        let id = ObjectIdentifier(node)
        if let old = accessibilityNames[id] {
            if old == name { return }
            decrement(old)
        }
        accessibilityNames[id] = name
        accessibilityNameCounts[name, default: 0] += 1
    }

    private func decrement(_ name: String) {
        accessibilityNameCounts[name, default: 0] -= 1
        if accessibilityNameCounts[name] == 0 { accessibilityNameCounts[name] = nil }
    }

    /// Forgets `node` and everything below it (they are leaving the tree).
    func forget(subtree node: _NodeHandle) {
        let id = ObjectIdentifier(node)
        pending[id] = nil
        if let names = node.cachedNames { remove(node, names: names) }
        if let name = accessibilityNames.removeValue(forKey: id) { decrement(name) }
        for child in node.children { forget(subtree: child) }
    }

    /// Whether nothing is indexed or pending (no tappable control was ever inserted).
    var isEmpty: Bool { byName.isEmpty && pending.isEmpty && accessibilityNames.isEmpty }

    /// Names the pending controls with `name` (which indexes them), then returns the attached
    /// controls indexed under `lookup` — or `nil` when an accessibility name on an ancestor could
    /// also name a control `lookup` (the walk decides then).
    func candidates(named lookup: String, naming: (_NodeHandle) -> Void) -> [_NodeHandle]? {
        let waiting = pending.values.compactMap(\.node)
        pending = [:]
        for node in waiting where node.attached { naming(node) }
        if accessibilityNameCounts[lookup] != nil { return nil }
        return byName[lookup]?.values.compactMap { $0.node.flatMap { $0.attached ? $0 : nil } } ?? []
    }
}
