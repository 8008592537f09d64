import Foundation

/// A named value produced by a view and read by its ancestors (SwiftUI's `PreferenceKey`).
///
/// Views set it with ``View/preference(key:value:)``; an ancestor reads the combination of its
/// descendants' values (depth first, combined with ``reduce(value:nextValue:)``) with
/// ``View/onPreferenceChange(_:perform:)``, which runs after a pass in which the combined value
/// changed (and once after insertion with the first value).
public protocol PreferenceKey {
    /// The type of the value.
    associatedtype Value
    /// The value when no descendant sets one.
    static var defaultValue: Value { get }
    /// Combines the values so far with the next one.
    static func reduce(value: inout Value, nextValue: () -> Value)
}

/// `.preference(key:value:)`.
public struct _Preference<Content: View, Key: PreferenceKey>: _PrimitiveView {
    let content: Content
    let value: Key.Value
    public func _children() -> [_Child] { [_Child(content, key: 0)] }

    public func _update(node: _NodeHandle, previous: _Preference?) {
        node.reconciler.preferencesChanged(below: node)
        if previous == nil {
            // Removal changes the combined value too.
            node.modifierState = OnRemoval { [weak parent = node.parent, weak reconciler = node.reconciler] in
                if let parent { reconciler?.preferencesChanged(below: parent) }
            }
        }
    }
}

/// A preference writer, for the readers above it.
@MainActor protocol _PreferenceWriter {
    var keyType: ObjectIdentifier { get }
    var anyValue: Any { get }
}

extension _Preference: _PreferenceWriter {
    var keyType: ObjectIdentifier { ObjectIdentifier(Key.self) }
    var anyValue: Any { value }
}

/// What an `onPreferenceChange` reader saw last.
final class PreferenceMemory {
    var last: Any?
}

/// `.onPreferenceChange(_:perform:)`.
public struct _OnPreferenceChange<Content: View, Key: PreferenceKey>: _PrimitiveView where Key.Value: Equatable {
    let content: Content
    let action: (Key.Value) -> Void
    public func _children() -> [_Child] { [_Child(content, key: 0)] }

    public func _update(node: _NodeHandle, previous: _OnPreferenceChange?) {
        node.reconciler.preferencesChanged(below: node)
    }
}

/// A preference reader, for the tree.
@MainActor protocol _PreferenceReader {
    /// Recomputes the value below `node` and runs the action if it changed.
    func refresh(node: _NodeHandle)
    var keyType: ObjectIdentifier { get }
}

extension _OnPreferenceChange: _PreferenceReader {
    var keyType: ObjectIdentifier { ObjectIdentifier(Key.self) }

    func refresh(node: _NodeHandle) {
        var value = Key.defaultValue
        func collect(_ node: _NodeHandle) {
            if let writer = node.view as? any _PreferenceWriter, writer.keyType == keyType,
                let next = writer.anyValue as? Key.Value
            {
                Key.reduce(value: &value) { next }
            }
            node.children.forEach(collect)
        }
        node.children.forEach(collect)
        let memory = node.storage(at: -1) { PreferenceMemory() }
        if let last = memory.last as? Key.Value, last == value { return }
        memory.last = value
        action(value)
    }
}

extension View {
    /// Sets a preference value for ancestors to read.
    public func preference<K: PreferenceKey>(key: K.Type = K.self, value: K.Value) -> some View {
        _Preference<Self, K>(content: self, value: value)
    }

    /// Runs `action` when the combined value of preference `key` below this view changes.
    public func onPreferenceChange<K: PreferenceKey>(
        _ key: K.Type = K.self, perform action: @escaping (K.Value) -> Void
    ) -> some View where K.Value: Equatable {
        _OnPreferenceChange<Self, K>(content: self, action: action)
    }
}
