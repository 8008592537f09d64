import Foundation

// Accessibility. Labels and identifiers are modelled — the test API finds a control by them, as
// VoiceOver and UI tests do; everything else (values, hints, traits, grouping) is inert.

/// `.accessibilityLabel(_:)`, `.accessibilityIdentifier(_:)`: names the test API finds the
/// control at or below this view by.
public struct _AccessibilityName<Content: View>: _PrimitiveView {
    let content: Content
    let name: String
    /// Whether the name is an identifier (`accessibilityIdentifier`) rather than a label.
    var isIdentifier = false
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// An accessibility name, for the test API.
@MainActor protocol _AccessibilityNamed {
    var name: String { get }
    var isIdentifier: Bool { get }
}

extension _AccessibilityName: _AccessibilityNamed {}

/// How an accessibility element treats its children (inert).
public struct AccessibilityChildBehavior: Sendable, Hashable {
    let name: String
    /// Ignore the children.
    public static let ignore = AccessibilityChildBehavior(name: "ignore")
    /// Contain them.
    public static let contain = AccessibilityChildBehavior(name: "contain")
    /// Combine them.
    public static let combine = AccessibilityChildBehavior(name: "combine")
}

/// Accessibility traits (inert).
public struct AccessibilityTraits: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates traits from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// A button.
    public static let isButton = AccessibilityTraits(rawValue: 1 << 0)
    /// A header.
    public static let isHeader = AccessibilityTraits(rawValue: 1 << 1)
    /// Selected.
    public static let isSelected = AccessibilityTraits(rawValue: 1 << 2)
    /// A link.
    public static let isLink = AccessibilityTraits(rawValue: 1 << 3)
    /// An image.
    public static let isImage = AccessibilityTraits(rawValue: 1 << 4)
    /// Static text.
    public static let isStaticText = AccessibilityTraits(rawValue: 1 << 5)
    /// Updates often.
    public static let updatesFrequently = AccessibilityTraits(rawValue: 1 << 6)
    /// A modal.
    public static let isModal = AccessibilityTraits(rawValue: 1 << 7)
}

extension View {
    /// Names this view for accessibility; the test API finds the control here by it.
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View {
        _AccessibilityName(content: self, name: String(label))
    }

    /// Names this view for accessibility; the test API finds the control here by it.
    public func accessibilityLabel(_ label: Text) -> some View {
        _AccessibilityName(content: self, name: label.content)
    }

    /// Identifies this view for UI tests; the test API finds the control here by it.
    public func accessibilityIdentifier(_ identifier: String) -> some View {
        _AccessibilityName(content: self, name: identifier, isIdentifier: true)
    }

    /// Describes the view's value (inert).
    public func accessibilityValue<S: StringProtocol>(_ value: S) -> some View { self }
    /// Describes the view's value (inert).
    public func accessibilityValue(_ value: Text) -> some View { self }
    /// Hints at what the view does (inert).
    public func accessibilityHint<S: StringProtocol>(_ hint: S) -> some View { self }
    /// Hints at what the view does (inert).
    public func accessibilityHint(_ hint: Text) -> some View { self }
    /// Hides the view from accessibility (inert: the test API still reaches it).
    public func accessibilityHidden(_ hidden: Bool) -> some View { self }
    /// Makes the view an accessibility element (inert).
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { self }
    /// Adds traits (inert).
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { self }
    /// Removes traits (inert).
    public func accessibilityRemoveTraits(_ traits: AccessibilityTraits) -> some View { self }
    /// Sets the sort priority (inert).
    public func accessibilitySortPriority(_ sortPriority: Double) -> some View { self }
}
