// Label and progress view styles, as in SwiftUI: a style's `makeBody(configuration:)` is a view
// the render tree evaluates like any other — its `@State` and `@Environment` properties live in
// the node of the styled control, its reads are dependencies, its body shows in the log under the
// style's name. Inside the body, the style no longer applies (a `ProgressView(configuration)` in a
// progress view style shows the plain indicator, not the style again).

// MARK: Label styles

/// A type that applies a custom appearance to all labels within a view (``View/labelStyle(_:)``).
///
/// ```swift
/// struct TrailingIconLabelStyle: LabelStyle {
///     func makeBody(configuration: Configuration) -> some View {
///         HStack {
///             configuration.title
///             configuration.icon
///         }
///     }
/// }
///
/// struct Attendees: View {
///     var body: some View {
///         Label("3 attendees", systemImage: "person.3")
///             .labelStyle(TrailingIconLabelStyle())
///     }
/// }
/// ```
@MainActor @preconcurrency
public protocol LabelStyle {
    /// A view that represents the body of a label.
    associatedtype Body: View
    /// The properties of a label.
    typealias Configuration = LabelStyleConfiguration
    /// Creates a view that represents the body of a label.
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
}

/// The properties of a label (``LabelStyle/makeBody(configuration:)``).
public struct LabelStyleConfiguration {
    /// The label's title.
    public struct Title: _PrimitiveView {
        let content: any View
        public func _children() -> [_Child] { [_Child(content, key: 0)] }
    }

    /// The label's icon.
    public struct Icon: _PrimitiveView {
        let content: any View
        public func _children() -> [_Child] { [_Child(content, key: 0)] }
    }

    /// A description of the labeled item.
    public let title: Title
    /// A symbolic representation of the labeled item.
    public let icon: Icon
}

/// The label styles SwiftUI offers: each shows the label as an unstyled one (the title and the
/// icon; which of them is drawn is inert).
public struct _BuiltInLabelStyle: LabelStyle {
    let name: String
    public func makeBody(configuration: Configuration) -> some View {
        TupleView([configuration.title, configuration.icon])
    }
}

extension LabelStyle where Self == _BuiltInLabelStyle {
    /// Automatic.
    public static var automatic: _BuiltInLabelStyle { .init(name: "automatic") }
    /// Title only.
    public static var titleOnly: _BuiltInLabelStyle { .init(name: "titleOnly") }
    /// Icon only.
    public static var iconOnly: _BuiltInLabelStyle { .init(name: "iconOnly") }
    /// Title and icon.
    public static var titleAndIcon: _BuiltInLabelStyle { .init(name: "titleAndIcon") }
}

// MARK: Progress view styles

/// A type that applies a custom appearance to all progress views within a view
/// (``View/progressViewStyle(_:)``).
///
/// ```swift
/// struct BarProgressStyle: ProgressViewStyle {
///     func makeBody(configuration: Configuration) -> some View {
///         let percent = Int((configuration.fractionCompleted ?? 0) * 100)
///         ZStack {
///             RoundedRectangle(cornerRadius: 10)
///                 .fill(Color.orange)
///             Text("\(percent)% done")
///         }
///     }
/// }
///
/// struct Meeting: View {
///     var body: some View {
///         ProgressView(value: 0.25)
///             .progressViewStyle(BarProgressStyle())
///     }
/// }
/// ```
@MainActor @preconcurrency
public protocol ProgressViewStyle {
    /// A view representing the body of a progress view.
    associatedtype Body: View
    /// The properties of a progress view.
    typealias Configuration = ProgressViewStyleConfiguration
    /// Creates a view representing the body of a progress view.
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
}

/// The properties of a progress view (``ProgressViewStyle/makeBody(configuration:)``).
public struct ProgressViewStyleConfiguration {
    /// The progress view's label.
    public struct Label: _PrimitiveView {
        let content: any View
        public func _children() -> [_Child] { [_Child(content, key: 0)] }
    }

    /// A view that describes the current value of a progress view.
    public struct CurrentValueLabel: _PrimitiveView {
        let content: any View
        public func _children() -> [_Child] { [_Child(content, key: 0)] }
    }

    /// The completed fraction of the task, from 0 to 1, or `nil` for an indeterminate one.
    public let fractionCompleted: Double?
    /// The progress view's label, if it has one.
    public var label: Label?
    /// A view that describes the current value, if there is one (none in Ripple's progress views).
    public var currentValueLabel: CurrentValueLabel?
}

/// The progress view styles SwiftUI offers: each shows the progress view unstyled.
public struct _BuiltInProgressViewStyle: ProgressViewStyle {
    let name: String
    public func makeBody(configuration: Configuration) -> some View { ProgressView(configuration) }
}

extension ProgressViewStyle where Self == _BuiltInProgressViewStyle {
    /// Automatic.
    public static var automatic: _BuiltInProgressViewStyle { .init(name: "automatic") }
    /// Linear.
    public static var linear: _BuiltInProgressViewStyle { .init(name: "linear") }
    /// Circular.
    public static var circular: _BuiltInProgressViewStyle { .init(name: "circular") }
}

extension ProgressView where Label == ProgressViewStyleConfiguration.Label {
    /// Creates a progress view from a style's configuration: inside
    /// ``ProgressViewStyle/makeBody(configuration:)``, the indicator the style decorates.
    public init(_ configuration: ProgressViewStyleConfiguration) {
        self.init(
            label: configuration.label ?? ProgressViewStyleConfiguration.Label(content: EmptyView()),
            fractionCompleted: configuration.fractionCompleted)
    }
}

// MARK: Applying a style

extension View {
    /// Sets the style of the labels in this view (a custom ``LabelStyle``'s body is evaluated
    /// like a view).
    public func labelStyle<S: LabelStyle>(_ style: S) -> some View {
        _EnvironmentWriter(content: self) { $0.labelStyle = style is _BuiltInLabelStyle ? nil : style }
    }

    /// Sets the style of the progress views in this view (a custom ``ProgressViewStyle``'s body is
    /// evaluated like a view).
    public func progressViewStyle<S: ProgressViewStyle>(_ style: S) -> some View {
        _EnvironmentWriter(content: self) { $0.progressViewStyle = style is _BuiltInProgressViewStyle ? nil : style }
    }
}

private struct LabelStyleKey: EnvironmentKey {
    nonisolated(unsafe) static let defaultValue: (any LabelStyle)? = nil  // unsafe: a constant nil; the style protocol is not Sendable, so the type is not
}

private struct ProgressViewStyleKey: EnvironmentKey {
    nonisolated(unsafe) static let defaultValue: (any ProgressViewStyle)? = nil  // unsafe: a constant nil; the style protocol is not Sendable, so the type is not
}

extension EnvironmentValues {
    /// The custom label style in effect, if any.
    var labelStyle: (any LabelStyle)? {
        get { self[LabelStyleKey.self] }
        set { self[LabelStyleKey.self] = newValue }
    }

    /// The custom progress view style in effect, if any.
    var progressViewStyle: (any ProgressViewStyle)? {
        get { self[ProgressViewStyleKey.self] }
        set { self[ProgressViewStyleKey.self] = newValue }
    }
}

/// A view whose node evaluates a style's body: the render tree looks into its `style` field for
/// dynamic properties and logs it under the style's name.
protocol StyleHosting {
    nonisolated static var styleName: String { get }
}

/// The body of a custom label style, for one label.
struct LabelStyleHost<Style: LabelStyle>: View, StyleHosting {
    let style: Style
    let configuration: LabelStyleConfiguration
    var body: Style.Body { style.makeBody(configuration: configuration) }
    nonisolated static var styleName: String { String(describing: Style.self) }
}

/// The body of a custom progress view style, for one progress view.
struct ProgressViewStyleHost<Style: ProgressViewStyle>: View, StyleHosting {
    let style: Style
    let configuration: ProgressViewStyleConfiguration
    var body: Style.Body { style.makeBody(configuration: configuration) }
    nonisolated static var styleName: String { String(describing: Style.self) }
}

/// The child a styled control shows instead of its own content: the style's body, with the style
/// removed from the environment below it.
@MainActor func styledChild(label style: any LabelStyle, configuration: LabelStyleConfiguration) -> _Child {
    func host<S: LabelStyle>(_ style: S) -> any View { LabelStyleHost(style: style, configuration: configuration) }
    return _Child(_EnvironmentWriter(content: AnyView(erasing: host(style))) { $0.labelStyle = nil }, key: AnyHashable(styledKey))
}

/// ``styledChild(label:configuration:)`` for a progress view.
@MainActor func styledChild(progress style: any ProgressViewStyle, configuration: ProgressViewStyleConfiguration) -> _Child {
    func host<S: ProgressViewStyle>(_ style: S) -> any View {
        ProgressViewStyleHost(style: style, configuration: configuration)
    }
    return _Child(_EnvironmentWriter(content: AnyView(erasing: host(style))) { $0.progressViewStyle = nil }, key: AnyHashable(styledKey))
}

/// The key of a styled control's child (the test API reads through it to the style's body).
let styledKey = "styled"

extension _NodeHandle {
    /// Whether this control shows a custom style's body.
    var isStyled: Bool { children.first?.key.hashable == AnyHashable(styledKey) }
}
