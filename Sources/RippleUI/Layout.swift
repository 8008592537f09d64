import Foundation

// Layout containers and their vocabulary. Nothing is laid out: alignment, spacing and sizes are
// kept as given and have no effect; the containers hold their children, which the tree evaluates.

extension VStack {
    /// Stacks the views `content` builds; alignment and spacing are inert.
    public init(alignment: HorizontalAlignment, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.init(content: content)
    }

    /// Stacks the views `content` builds; spacing is inert.
    public init(spacing: CGFloat?, @ViewBuilder content: () -> Content) {
        self.init(content: content)
    }
}

extension HStack {
    /// Stacks the views `content` builds; alignment and spacing are inert.
    public init(alignment: VerticalAlignment, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.init(content: content)
    }

    /// Stacks the views `content` builds; spacing is inert.
    public init(spacing: CGFloat?, @ViewBuilder content: () -> Content) {
        self.init(content: content)
    }
}

/// Views on top of each other (headless: a container).
public struct ZStack<Content: View>: _PrimitiveView {
    /// The stacked views.
    public let content: Content
    /// Stacks the views `content` builds; alignment is inert.
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) { self.content = content() }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A vertical stack that SwiftUI creates lazily; the headless tree evaluates every row.
public struct LazyVStack<Content: View>: _PrimitiveView {
    /// The stacked views.
    public let content: Content
    /// Stacks the views `content` builds; alignment and spacing are inert.
    public init(
        alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
    ) { self.content = content() }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A horizontal stack that SwiftUI creates lazily; the headless tree evaluates every column.
public struct LazyHStack<Content: View>: _PrimitiveView {
    /// The stacked views.
    public let content: Content
    /// Stacks the views `content` builds; alignment and spacing are inert.
    public init(
        alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
    ) { self.content = content() }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A scrollable container (headless: every child is on screen).
public struct ScrollView<Content: View>: _PrimitiveView {
    /// The scrolled views.
    public let content: Content
    /// Creates a scroll view of the views `content` builds; axes and indicators are inert.
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        self.content = content()
    }
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// Flexible space (inert).
public struct Spacer: _PrimitiveView, Equatable {
    /// The minimum length (inert).
    public let minLength: CGFloat?
    /// Creates a spacer.
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }
}

/// A separator line (inert).
public struct Divider: _PrimitiveView, Equatable {
    /// Creates a divider.
    public init() {}
}

/// A horizontal or vertical dimension.
public enum Axis: Sendable, Hashable, CaseIterable {
    /// Horizontal.
    case horizontal
    /// Vertical.
    case vertical

    /// A set of axes.
    public struct Set: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int8
        /// Creates a set from raw bits.
        public init(rawValue: Int8) { self.rawValue = rawValue }
        /// The horizontal axis.
        public static let horizontal = Set(rawValue: 1)
        /// The vertical axis.
        public static let vertical = Set(rawValue: 2)
    }
}

/// A horizontal alignment guide (inert).
public struct HorizontalAlignment: Sendable, Hashable {
    let name: String
    /// Leading edge.
    public static let leading = HorizontalAlignment(name: "leading")
    /// Center.
    public static let center = HorizontalAlignment(name: "center")
    /// Trailing edge.
    public static let trailing = HorizontalAlignment(name: "trailing")
    /// First text line's leading edge.
    public static let listRowSeparatorLeading = HorizontalAlignment(name: "listRowSeparatorLeading")
}

/// A vertical alignment guide (inert).
public struct VerticalAlignment: Sendable, Hashable {
    let name: String
    /// Top edge.
    public static let top = VerticalAlignment(name: "top")
    /// Center.
    public static let center = VerticalAlignment(name: "center")
    /// Bottom edge.
    public static let bottom = VerticalAlignment(name: "bottom")
    /// First text baseline.
    public static let firstTextBaseline = VerticalAlignment(name: "firstTextBaseline")
    /// Last text baseline.
    public static let lastTextBaseline = VerticalAlignment(name: "lastTextBaseline")
}

/// An alignment in both axes (inert).
public struct Alignment: Sendable, Hashable {
    /// The horizontal part.
    public var horizontal: HorizontalAlignment
    /// The vertical part.
    public var vertical: VerticalAlignment
    /// Creates an alignment.
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    /// Center.
    public static let center = Alignment(horizontal: .center, vertical: .center)
    /// Leading.
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    /// Trailing.
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    /// Top.
    public static let top = Alignment(horizontal: .center, vertical: .top)
    /// Bottom.
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    /// Top leading.
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    /// Top trailing.
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    /// Bottom leading.
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    /// Bottom trailing.
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

/// Edges of a rectangle (inert).
public enum Edge: Int8, Sendable, Hashable, CaseIterable {
    /// Top.
    case top
    /// Leading.
    case leading
    /// Bottom.
    case bottom
    /// Trailing.
    case trailing

    /// A set of edges.
    public struct Set: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int8
        /// Creates a set from raw bits.
        public init(rawValue: Int8) { self.rawValue = rawValue }
        /// The top edge.
        public static let top = Set(rawValue: 1)
        /// The leading edge.
        public static let leading = Set(rawValue: 2)
        /// The bottom edge.
        public static let bottom = Set(rawValue: 4)
        /// The trailing edge.
        public static let trailing = Set(rawValue: 8)
        /// Top and bottom.
        public static let vertical: Set = [.top, .bottom]
        /// Leading and trailing.
        public static let horizontal: Set = [.leading, .trailing]
        /// Every edge.
        public static let all: Set = [.top, .leading, .bottom, .trailing]
    }
}

/// Insets on each edge (inert).
public struct EdgeInsets: Sendable, Hashable {
    /// Top inset.
    public var top: CGFloat
    /// Leading inset.
    public var leading: CGFloat
    /// Bottom inset.
    public var bottom: CGFloat
    /// Trailing inset.
    public var trailing: CGFloat
    /// Creates insets.
    public init(top: CGFloat = 0, leading: CGFloat = 0, bottom: CGFloat = 0, trailing: CGFloat = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
}

/// A point in a unit square (inert: gradients' start and end points).
public struct UnitPoint: Sendable, Hashable {
    /// The x coordinate.
    public var x: CGFloat
    /// The y coordinate.
    public var y: CGFloat
    /// Creates a unit point.
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
    /// (0, 0).
    public static let topLeading = UnitPoint(x: 0, y: 0)
    /// (0.5, 0).
    public static let top = UnitPoint(x: 0.5, y: 0)
    /// (1, 0).
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    /// (0, 0.5).
    public static let leading = UnitPoint(x: 0, y: 0.5)
    /// (0.5, 0.5).
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    /// (1, 0.5).
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    /// (0, 1).
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    /// (0.5, 1).
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    /// (1, 1).
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}
