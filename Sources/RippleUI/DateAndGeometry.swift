import Foundation

// A date picker is a control the test API sets (``RenderTree/pick(_:in:matching:)``: the user's choice,
// kept in the picker's range); a geometry reader hands its content the size a test gives the
// screen (``RenderTree/screenSize``) — there is no layout, so every reader sees the whole screen.

/// Which parts of a date a ``DatePicker`` shows.
public struct DatePickerComponents: OptionSet, Sendable, Hashable {
    /// The raw value.
    public let rawValue: UInt
    /// Creates components from a raw value.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The hour and minute.
    public static let hourAndMinute = DatePickerComponents(rawValue: 1 << 0)
    /// The day, month and year.
    public static let date = DatePickerComponents(rawValue: 1 << 1)
}

/// A control that picks a date (SwiftUI's `DatePicker`): ``RenderTree/texts`` shows it as
/// `[title: 2026-03-14 09:30]` (the date and time parts it displays, in the current time zone);
/// ``RenderTree/pick(_:in:matching:)`` sets it.
public struct DatePicker<Label: View>: _PrimitiveView, _LabeledControl {
    /// The label.
    public let label: Label
    let selection: Binding<Date>
    let range: ClosedRange<Date>
    let components: DatePickerComponents

    /// A picker of `selection` within `range`, showing `displayedComponents`.
    public init(
        selection: Binding<Date>, in range: ClosedRange<Date> = .distantPast ... .distantFuture,
        displayedComponents: DatePickerComponents = [.hourAndMinute, .date], @ViewBuilder label: () -> Label
    ) {
        self.label = label()
        self.selection = selection
        self.range = range
        components = displayedComponents
    }

    public func _children() -> [_Child] { [_Child(label, key: "label")] }

    func _display(label: String, node: _NodeHandle) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        var parts: [String] = []
        if components.contains(.date) { parts.append("yyyy-MM-dd") }
        if components.contains(.hourAndMinute) { parts.append("HH:mm") }
        formatter.dateFormat = parts.joined(separator: " ")
        return "[\(label): \(formatter.string(from: selection.wrappedValue))]"
    }
}

extension DatePicker where Label == Text {
    /// A picker titled `title` of `selection`.
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, displayedComponents: DatePickerComponents = [.hourAndMinute, .date]
    ) {
        self.init(selection: selection, displayedComponents: displayedComponents) { Text(String(title)) }
    }

    /// A picker titled `title` of `selection` within `range`.
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, in range: ClosedRange<Date>,
        displayedComponents: DatePickerComponents = [.hourAndMinute, .date]
    ) {
        self.init(selection: selection, in: range, displayedComponents: displayedComponents) { Text(String(title)) }
    }

    /// A picker titled `title` of `selection`, from `range`'s lower bound on.
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, in range: PartialRangeFrom<Date>,
        displayedComponents: DatePickerComponents = [.hourAndMinute, .date]
    ) {
        self.init(selection: selection, in: range.lowerBound ... .distantFuture, displayedComponents: displayedComponents) {
            Text(String(title))
        }
    }

    /// A picker titled `title` of `selection`, up to `range`'s upper bound.
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, in range: PartialRangeThrough<Date>,
        displayedComponents: DatePickerComponents = [.hourAndMinute, .date]
    ) {
        self.init(selection: selection, in: .distantPast ... range.upperBound, displayedComponents: displayedComponents) {
            Text(String(title))
        }
    }
}

/// A date picker, for ``RenderTree/pick(_:in:matching:)``.
@MainActor protocol _DatePicking {
    func pick(_ date: Date)
}

extension DatePicker: _DatePicking {
    func pick(_ date: Date) {
        selection.wrappedValue = min(max(date, range.lowerBound), range.upperBound)
    }
}

extension DatePicker: _UserControl {}

extension RenderTree {
    /// Picks `date` in the date picker named `title` (exactly unless `matching` is `.prefix`; the
    /// date kept in the picker's range, as the wheel keeps it), then flushes.
    ///
    /// - Throws: ``RenderTreeLookupError`` naming the date pickers on screen.
    public func pick(_ date: Date, in title: String, matching: NameMatching = .exact) throws {
        let (node, picker) = try control(
            (any _DatePicking).self, kind: "date picker", named: title, matching: matching)
        interact(node) { picker.pick(date) }
    }

    /// The size of the screen the tree's geometry readers see (393 × 852 points unless a test
    /// sets it). Setting it re-evaluates the readers.
    public var screenSize: CGSize {
        get { rootEnvironment.screenSize }
        set { updateEnvironment { $0.screenSize = newValue } }
    }
}

private struct ScreenSizeKey: EnvironmentKey {
    static let defaultValue = CGSize(width: 393, height: 852)
}

extension EnvironmentValues {
    /// The size geometry readers see.
    var screenSize: CGSize {
        get { self[ScreenSizeKey.self] }
        set { self[ScreenSizeKey.self] = newValue }
    }
}

/// What a ``GeometryReader`` hands its content: the size it is offered.
public struct GeometryProxy: Sendable, Hashable {
    /// The size offered (the screen's: there is no layout).
    public let size: CGSize
    /// The safe area's insets (zero).
    public let safeAreaInsets: EdgeInsets

    /// The proxy's frame (at the origin, of its size, in every coordinate space).
    public func frame(in coordinateSpace: CoordinateSpace) -> CGRect { CGRect(origin: .zero, size: size) }
}

/// A coordinate space (inert: every frame is at the origin).
public enum CoordinateSpace: Hashable {
    /// The reader's own space.
    case local
    /// The screen's.
    case global
    /// A named space.
    case named(AnyHashable)
}

/// A container that builds its content from the size it is offered (SwiftUI's
/// `GeometryReader`): here the screen's, ``RenderTree/screenSize``; a change re-builds it.
public struct GeometryReader<Content: View>: _PrimitiveView {
    let content: (GeometryProxy) -> Content

    /// A reader whose content `content` builds from a proxy.
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }

    public func _children(in node: _NodeHandle) -> [_Child] {
        node.readsEnvironment(label: "screenSize") { $0.screenSize }
        let proxy = GeometryProxy(size: node.environment.screenSize, safeAreaInsets: EdgeInsets())
        return [_Child(content(proxy), key: 0)]
    }
}
