import Foundation

// Controls beyond Button and TextField: what a user drives (toggles, steppers, sliders, pickers)
// and what shows content (labels, images, progress). Each is found by the test API by its label's
// texts, its images' names or its accessibility label (``RenderTree/tap(_:matching:)``).

/// A switch bound to a Boolean (``RenderTree/toggle(_:matching:)``).
public struct Toggle<Label: View>: _PrimitiveView, _LabeledControl {
    /// The binding the toggle reads and flips.
    public let isOn: Binding<Bool>
    /// The toggle's label (how tests find it).
    public let label: Label

    /// Creates a toggle bound to `isOn` with the label `label` builds.
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        self.label = label()
    }

    public func _children() -> [_Child] { [_Child(label, key: "label")] }
    func _display(label: String, node: _NodeHandle) -> String? { "[\(label): \(isOn.wrappedValue ? "on" : "off")]" }
}

extension Toggle where Label == Text {
    /// Creates a toggle titled `title` bound to `isOn`.
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {
        self.init(isOn: isOn) { Text(String(title)) }
    }
}

/// A text input for secrets; it behaves as ``TextField`` towards its binding.
public struct SecureField: _PrimitiveView, _TextInput {
    /// The field's title (how tests find it).
    public let title: String
    /// The binding the field reads and writes.
    public let text: Binding<String>

    /// Creates a secure field titled `title` that edits `text`.
    public init<S: StringProtocol>(_ title: S, text: Binding<String>, prompt: Text? = nil) {
        self.title = String(title)
        self.text = text
    }

    public var _text: String? { "[\(title): \(String(repeating: "•", count: text.wrappedValue.count))]" }
}

/// A multi-line text editor bound to a string; tests find it by its accessibility label.
public struct TextEditor: _PrimitiveView, _TextInput {
    /// The binding the editor reads and writes.
    public let text: Binding<String>
    /// Editors have no title; tests find them by accessibility label.
    public var title: String { "" }

    /// Creates an editor of `text`.
    public init(text: Binding<String>) { self.text = text }

    public var _text: String? { "[\(text.wrappedValue)]" }
}

extension TextField: _TextInput {
    /// Creates a text field titled `title` that edits `text`; the prompt and axis are inert.
    public init<S: StringProtocol>(_ title: S, text: Binding<String>, prompt: Text? = nil, axis: Axis = .horizontal) {
        self.init(String(title), text: text)
    }
}

/// A text input the test API types into.
@MainActor protocol _TextInput {
    var title: String { get }
    var text: Binding<String> { get }
}

// MARK: Stepper

/// A control that increments and decrements a value (``RenderTree/increment(_:matching:)``,
/// ``RenderTree/decrement(_:matching:)``). With a range, the value stays inside it, as in SwiftUI.
public struct Stepper<Label: View>: _PrimitiveView, _LabeledControl {
    /// The label (how tests find it).
    public let label: Label
    let onIncrement: (() -> Void)?
    let onDecrement: (() -> Void)?
    let value: (() -> String)?

    /// Creates a stepper that runs `onIncrement` and `onDecrement`.
    public init(
        @ViewBuilder label: () -> Label, onIncrement: (() -> Void)?, onDecrement: (() -> Void)?,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) {
        self.label = label()
        self.onIncrement = onIncrement
        self.onDecrement = onDecrement
        value = nil
    }

    /// Creates a stepper that changes `value` by `step`, within `bounds`.
    public init<V: Strideable>(
        value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1,
        @ViewBuilder label: () -> Label, onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) {
        self.label = label()
        onIncrement = {
            let next = value.wrappedValue.advanced(by: step)
            value.wrappedValue = min(next, bounds.upperBound)
        }
        onDecrement = {
            let next = value.wrappedValue.advanced(by: -step)
            value.wrappedValue = max(next, bounds.lowerBound)
        }
        self.value = { "\(value.wrappedValue)" }
    }

    /// Creates a stepper that changes `value` by `step`, unbounded.
    public init<V: Strideable>(
        value: Binding<V>, step: V.Stride = 1, @ViewBuilder label: () -> Label,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) {
        self.label = label()
        onIncrement = { value.wrappedValue = value.wrappedValue.advanced(by: step) }
        onDecrement = { value.wrappedValue = value.wrappedValue.advanced(by: -step) }
        self.value = { "\(value.wrappedValue)" }
    }

    public func _children() -> [_Child] { [_Child(label, key: "label")] }
    func _display(label: String, node: _NodeHandle) -> String? {
        value.map { "[\(label): \($0())]" } ?? "[\(label)]"
    }
}

extension Stepper where Label == Text {
    /// Creates a stepper titled `title` that changes `value` by `step`, within `bounds`.
    public init<S: StringProtocol, V: Strideable>(_ title: S, value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1) {
        self.init(value: value, in: bounds, step: step) { Text(String(title)) }
    }

    /// Creates a stepper titled `title` that changes `value` by `step`.
    public init<S: StringProtocol, V: Strideable>(_ title: S, value: Binding<V>, step: V.Stride = 1) {
        self.init(value: value, step: step) { Text(String(title)) }
    }

    /// Creates a stepper titled `title` that runs `onIncrement` and `onDecrement`.
    public init<S: StringProtocol>(_ title: S, onIncrement: (() -> Void)?, onDecrement: (() -> Void)?) {
        self.init(label: { Text(String(title)) }, onIncrement: onIncrement, onDecrement: onDecrement)
    }
}

// MARK: Slider

/// A control for a value in a range (``RenderTree/slide(_:to:matching:)``): the value is clamped to the
/// bounds and rounded to the step, and `onEditingChanged` hears the drag begin and end.
public struct Slider<Label: View>: _PrimitiveView, _LabeledControl {
    /// The label (how tests find it; SwiftUI uses it for accessibility).
    public let label: Label
    let get: () -> Double
    let set: (Double) -> Void
    let bounds: ClosedRange<Double>
    let step: Double?
    let onEditingChanged: (Bool) -> Void

    /// Creates a slider for `value` within `bounds`, moving by `step` (continuous when `nil`).
    init<V: BinaryFloatingPoint>(
        value: Binding<V>, bounds: ClosedRange<V>, step: V.Stride?, label: Label,
        onEditingChanged: @escaping (Bool) -> Void
    ) where V.Stride: BinaryFloatingPoint {
        self.label = label
        get = { Double(value.wrappedValue) }
        set = { value.wrappedValue = V($0) }
        self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.step = step.map { Double($0) }
        self.onEditingChanged = onEditingChanged
    }

    /// Creates a slider for `value` within `bounds` with the label `label` builds.
    public init<V: BinaryFloatingPoint>(
        value: Binding<V>, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) where V.Stride: BinaryFloatingPoint {
        self.init(value: value, bounds: bounds, step: nil, label: label(), onEditingChanged: onEditingChanged)
    }

    /// Creates a slider for `value` within `bounds`, moving by `step`, with the label `label` builds.
    public init<V: BinaryFloatingPoint>(
        value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1, @ViewBuilder label: () -> Label,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) where V.Stride: BinaryFloatingPoint {
        self.init(value: value, bounds: bounds, step: step, label: label(), onEditingChanged: onEditingChanged)
    }

    /// Creates a slider with minimum and maximum value labels (inert).
    public init<V: BinaryFloatingPoint, Minimum: View, Maximum: View>(
        value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1, @ViewBuilder label: () -> Label,
        @ViewBuilder minimumValueLabel: () -> Minimum, @ViewBuilder maximumValueLabel: () -> Maximum,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) where V.Stride: BinaryFloatingPoint {
        self.init(value: value, bounds: bounds, step: step, label: label(), onEditingChanged: onEditingChanged)
    }

    /// Moves the slider to `value`: clamped to the bounds, rounded to the step.
    func slide(to value: Double) {
        var target = min(max(value, bounds.lowerBound), bounds.upperBound)
        if let step, step > 0 {
            target = bounds.lowerBound + ((target - bounds.lowerBound) / step).rounded() * step
            target = min(target, bounds.upperBound)
        }
        onEditingChanged(true)
        set(target)
        onEditingChanged(false)
    }

    public func _children() -> [_Child] { [_Child(label, key: "label")] }
    func _display(label: String, node: _NodeHandle) -> String? {
        let value = get()
        let shown = value == value.rounded() ? String(Int(value)) : String(value)
        return label.isEmpty ? "[slider: \(shown)]" : "[\(label): \(shown)]"
    }
}

extension Slider where Label == EmptyView {
    /// Creates an unlabelled slider for `value` within `bounds` (find it by accessibility label).
    public init<V: BinaryFloatingPoint>(
        value: Binding<V>, in bounds: ClosedRange<V> = 0...1, onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) where V.Stride: BinaryFloatingPoint {
        self.init(value: value, bounds: bounds, step: nil, label: EmptyView(), onEditingChanged: onEditingChanged)
    }

    /// Creates an unlabelled slider for `value` within `bounds`, moving by `step`.
    public init<V: BinaryFloatingPoint>(
        value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1,
        onEditingChanged: @escaping (Bool) -> Void = { _ in }
    ) where V.Stride: BinaryFloatingPoint {
        self.init(value: value, bounds: bounds, step: step, label: EmptyView(), onEditingChanged: onEditingChanged)
    }
}

// MARK: Picker

/// A control for choosing one of several tagged options (``RenderTree/select(_:in:matching:)``): each
/// option is a view marked with ``View/tag(_:)``; choosing it writes its tag to `selection`.
public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: _PrimitiveView, _LabeledControl {
    /// The binding to the selected tag.
    public let selection: Binding<SelectionValue>
    /// The label (how tests find it).
    public let label: Label
    /// The options.
    public let content: Content

    /// Creates a picker of the options `content` builds, with the label `label` builds.
    public init(selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {
        self.selection = selection
        self.content = content()
        self.label = label()
    }

    /// Creates a picker with the label `label` builds (the older argument order).
    public init(selection: Binding<SelectionValue>, label: Label, @ViewBuilder content: () -> Content) {
        self.selection = selection
        self.content = content()
        self.label = label
    }

    public func _children() -> [_Child] { [_Child(label, key: "label"), _Child(content, key: "options")] }

    func _display(label: String, node: _NodeHandle) -> String? {
        let chosen = node.pickerOptions().first { $0.tag == AnyHashable(selection.wrappedValue) }
        return "[\(label): \(chosen?.text ?? "\(selection.wrappedValue)")]"
    }

    /// Writes `tag` to the selection if it has the selection's type.
    func choose(_ tag: AnyHashable) -> Bool {
        guard let value = tag.base as? SelectionValue else { return false }
        selection.wrappedValue = value
        return true
    }
}

extension Picker where Label == Text {
    /// Creates a picker titled `title` of the options `content` builds.
    public init<S: StringProtocol>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {
        self.init(selection: selection, content: content) { Text(String(title)) }
    }
}

/// A picker, for ``RenderTree/select(_:in:matching:)``.
@MainActor protocol _Chooser {
    func choose(_ tag: AnyHashable) -> Bool
}

extension Picker: _Chooser {}

extension View {
    /// Marks this view as the option `tag` of an enclosing ``Picker``.
    public func tag<V: Hashable>(_ tag: V) -> some View {
        _Tagged(content: self, tag: AnyHashable(tag))
    }
}

/// `.tag(_:)`.
public struct _Tagged<Content: View>: _PrimitiveView {
    let content: Content
    let tag: AnyHashable
    public func _children() -> [_Child] { [_Child(content, key: 0)] }
}

/// A tagged option, for pickers.
@MainActor protocol _TaggedView {
    var tag: AnyHashable { get }
}

extension _Tagged: _TaggedView {}

// MARK: Content

/// A title with an icon; the tree shows its title.
public struct Label<Title: View, Icon: View>: _PrimitiveView {
    /// The title.
    public let title: Title
    /// The icon (an image: inert, but tests can find a control by its name).
    public let icon: Icon

    /// Creates a label from the title and icon the closures build.
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }

    public func _children() -> [_Child] { [_Child(title, key: "title"), _Child(icon, key: "icon")] }

    public func _children(in node: _NodeHandle) -> [_Child] {
        guard let style = node.environment.labelStyle else { return _children() }
        return [styledChild(label: style, configuration: LabelStyleConfiguration(title: .init(content: title), icon: .init(content: icon)))]
    }
}

extension Label where Title == Text, Icon == Image {
    /// Creates a label titled `title` with a system image.
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.init(title: { Text(String(title)) }, icon: { Image(systemName: name) })
    }

    /// Creates a label titled `title` with an image from the app's assets.
    public init<S: StringProtocol>(_ title: S, image name: String) {
        self.init(title: { Text(String(title)) }, icon: { Image(name) })
    }
}

/// An image, by name (inert: nothing is drawn). Tests can find a control by the image's name
/// when it has no text or accessibility label (`tree.tap("plus")`).
public struct Image: _PrimitiveView, Equatable {
    /// The image's name (a system symbol's name, or an asset's).
    public let name: String
    /// Whether the name is a system symbol's.
    public let isSystemImage: Bool

    /// A system symbol (SF Symbols) image.
    public init(systemName: String) {
        name = systemName
        isSystemImage = true
    }

    /// An image from the app's assets.
    public init(_ name: String, bundle: Bundle? = nil) {
        self.name = name
        isSystemImage = false
    }

    /// The ways an image can be scaled relative to text (inert).
    public enum Scale: Sendable, Hashable {
        /// `small`.
        case small
        /// `medium`.
        case medium
        /// `large`.
        case large
    }

    /// The modes an image can be resized in (inert).
    public enum ResizingMode: Sendable, Hashable {
        /// `tile`.
        case tile
        /// `stretch`.
        case stretch
    }

    /// Makes the image resizable (inert).
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image { self }
    /// Renders the image as a template or original (inert).
    public func renderingMode(_ mode: TemplateRenderingMode?) -> Image { self }
    /// Interpolation quality (inert).
    public func interpolation(_ interpolation: Interpolation) -> Image { self }

    /// How an image's colors render (inert).
    public enum TemplateRenderingMode: Sendable, Hashable {
        /// `template`.
        case template
        /// `original`.
        case original
    }

    /// Image interpolation quality (inert).
    public enum Interpolation: Sendable, Hashable {
        /// `none`.
        case none
        /// `low`.
        case low
        /// `medium`.
        case medium
        /// `high`.
        case high
    }
}

/// A progress indicator; with a value, the tree shows it as a percentage (`[Uploading: 50%]`).
public struct ProgressView<Label: View>: _PrimitiveView, _LabeledControl {
    /// The label.
    public let label: Label
    /// The fraction completed, or `nil` for an indeterminate indicator.
    public let fractionCompleted: Double?

    /// Creates an indicator of `value` out of `total` with the label `label` builds.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        self.label = label()
        fractionCompleted = value.map { total > 0 ? Double(min(max($0, 0), total) / total) : 0 }
    }

    /// Creates an indeterminate indicator with the label `label` builds.
    public init(@ViewBuilder label: () -> Label) {
        self.label = label()
        fractionCompleted = nil
    }

    init(label: Label, fractionCompleted: Double?) {
        self.label = label
        self.fractionCompleted = fractionCompleted
    }

    public func _children() -> [_Child] { [_Child(label, key: "label")] }

    public func _children(in node: _NodeHandle) -> [_Child] {
        guard let style = node.environment.progressViewStyle else { return _children() }
        let configuration = ProgressViewStyleConfiguration(
            fractionCompleted: fractionCompleted,
            label: Label.self == EmptyView.self ? nil : ProgressViewStyleConfiguration.Label(content: label),
            currentValueLabel: nil)
        return [styledChild(progress: style, configuration: configuration)]
    }

    func _display(label: String, node: _NodeHandle) -> String? {
        guard let fractionCompleted else { return label.isEmpty ? nil : label }
        let percent = "\(Int((fractionCompleted * 100).rounded()))%"
        return label.isEmpty ? "[progress: \(percent)]" : "[\(label): \(percent)]"
    }
}

extension ProgressView where Label == EmptyView {
    /// Creates an indeterminate indicator.
    public init() { self.init(label: { EmptyView() }) }

    /// Creates an indicator of `value` out of `total`.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        self.init(value: value, total: total, label: { EmptyView() })
    }
}

extension ProgressView where Label == Text {
    /// Creates an indeterminate indicator titled `title`.
    public init<S: StringProtocol>(_ title: S) { self.init(label: { Text(String(title)) }) }

    /// Creates an indicator of `value` out of `total` titled `title`.
    public init<S: StringProtocol, V: BinaryFloatingPoint>(_ title: S, value: V?, total: V = 1.0) {
        self.init(value: value, total: total, label: { Text(String(title)) })
    }
}

// MARK: Text

extension Text {
    /// Creates a text view that displays `content` as is.
    public init(verbatim content: String) { self.init(content) }

    /// Creates a text view that displays a string-like value.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) { self.init(String(content)) }

    /// Creates a text view that displays `input` formatted by `format`.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatInput: Equatable, F.FormatOutput == String {
        self.init(format.format(input))
    }

    /// Creates a text view that displays a date in the given style. `.date` and `.time` are
    /// formatted in the current time zone (`"June 3, 2019"`, `"9:41 AM"`); `.relative`, `.offset`
    /// and `.timer` relative to the moment the text is created (the tree does not tick).
    public init(_ date: Date, style: DateStyle) {
        self.init(style.format(date))
    }

    /// How ``Text/init(_:style:)`` shows a date.
    public struct DateStyle: Sendable, Hashable {
        let kind: Int

        /// The date: `"June 3, 2019"`.
        public static let date = DateStyle(kind: 0)
        /// The time: `"9:41 AM"`.
        public static let time = DateStyle(kind: 1)
        /// The time from now: `"2 hours, 23 minutes"`.
        public static let relative = DateStyle(kind: 2)
        /// The offset from now: `"+2 hours"`.
        public static let offset = DateStyle(kind: 3)
        /// A timer from now: `"2:32"`.
        public static let timer = DateStyle(kind: 4)

        func format(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            switch kind {
            case 0:
                formatter.dateFormat = "MMMM d, y"
                return formatter.string(from: date)
            case 1:
                formatter.dateFormat = "h:mm a"
                return formatter.string(from: date)
            default:
                let seconds = Int(date.timeIntervalSinceNow.rounded())
                let magnitude = abs(seconds)
                let hours = magnitude / 3600, minutes = magnitude % 3600 / 60, rest = magnitude % 60
                switch kind {
                case 4:
                    return hours > 0
                        ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
                case 3:
                    let sign = seconds < 0 ? "-" : "+"
                    if hours > 0 { return "\(sign)\(hours) hour\(hours == 1 ? "" : "s")" }
                    if minutes > 0 { return "\(sign)\(minutes) minute\(minutes == 1 ? "" : "s")" }
                    return "\(sign)\(rest) second\(rest == 1 ? "" : "s")"
                default:
                    var parts: [String] = []
                    if hours > 0 { parts.append("\(hours) hour\(hours == 1 ? "" : "s")") }
                    if minutes > 0 { parts.append("\(minutes) minute\(minutes == 1 ? "" : "s")") }
                    if parts.isEmpty { parts.append("\(rest) second\(rest == 1 ? "" : "s")") }
                    return parts.joined(separator: ", ")
                }
            }
        }
    }

    /// Concatenates two texts.
    public static func + (lhs: Text, rhs: Text) -> Text { Text(lhs.content + rhs.content) }

    /// Sets the font (inert).
    public func font(_ font: Font?) -> Text { self }
    /// Sets the weight (inert).
    public func fontWeight(_ weight: Font.Weight?) -> Text { self }
    /// Bold (inert).
    public func bold(_ isActive: Bool = true) -> Text { self }
    /// Italic (inert).
    public func italic(_ isActive: Bool = true) -> Text { self }
    /// Underline (inert).
    public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text { self }
    /// Strikethrough (inert).
    public func strikethrough(_ isActive: Bool = true, color: Color? = nil) -> Text { self }
    /// Monospaced digits (inert).
    public func monospacedDigit() -> Text { self }
    /// Monospaced (inert).
    public func monospaced(_ isActive: Bool = true) -> Text { self }
    /// Sets the color (inert).
    public func foregroundColor(_ color: Color?) -> Text { self }
    /// Sets the style (inert).
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text { self }
    /// Kerning (inert).
    public func kerning(_ kerning: CGFloat) -> Text { self }
    /// Tracking (inert).
    public func tracking(_ tracking: CGFloat) -> Text { self }
    /// Baseline offset (inert).
    public func baselineOffset(_ baselineOffset: CGFloat) -> Text { self }
}

// MARK: Enabled

private struct IsEnabledKey: EnvironmentKey {
    static let defaultValue = true
}

extension EnvironmentValues {
    /// Whether controls here respond to the user: `false` below ``View/disabled(_:)`` with `true`.
    /// A disabled control ignores the test API's taps, toggles and edits, as a user's.
    public var isEnabled: Bool {
        get { self[IsEnabledKey.self] }
        set { self[IsEnabledKey.self] = newValue }
    }
}

extension View {
    /// Disables the controls in this view when `disabled` is true: they ignore taps and edits
    /// (a disabled "Add" button adds nothing).
    public func disabled(_ disabled: Bool) -> some View {
        _EnvironmentWriter(content: self) { $0.isEnabled = $0.isEnabled && !disabled }
    }
}
