import Foundation

// Drawing and styling as inert values: colors, fonts, shapes and the modifiers that take them
// exist so real view code compiles and reads the same; they change nothing in the tree (a styled
// view is the view itself). What is modelled instead — state, presentation, lifecycle — is in the
// other files of this module.

/// A type that can fill or stroke a shape (inert).
public protocol ShapeStyle: Sendable {}

/// A color (inert: a value that can be compared; shown nowhere).
public struct Color: ShapeStyle, Hashable, CustomStringConvertible {
    /// How the color was made: `"red"`, `"rgb(1.0, 0.0, 0.0, 1.0)"`, an asset's name.
    public let description: String

    init(description: String) { self.description = description }

    /// A color from the app's assets, by name.
    public init(_ name: String, bundle: Bundle? = nil) { description = name }
    /// The same color (`Color(theme.mainColor)`).
    public init(_ color: Color) { self = color }
    /// A color from red, green and blue components.
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        description = "rgb(\(red), \(green), \(blue), \(opacity))"
    }
    /// A gray.
    public init(white: Double, opacity: Double = 1) { description = "white(\(white), \(opacity))" }
    /// A color from hue, saturation and brightness.
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        description = "hsb(\(hue), \(saturation), \(brightness), \(opacity))"
    }
    /// This color with an opacity.
    public func opacity(_ opacity: Double) -> Color { Color(description: "\(description).opacity(\(opacity))") }

    /// Red.
    public static let red = Color(description: "red")
    /// Orange.
    public static let orange = Color(description: "orange")
    /// Yellow.
    public static let yellow = Color(description: "yellow")
    /// Green.
    public static let green = Color(description: "green")
    /// Mint.
    public static let mint = Color(description: "mint")
    /// Teal.
    public static let teal = Color(description: "teal")
    /// Cyan.
    public static let cyan = Color(description: "cyan")
    /// Blue.
    public static let blue = Color(description: "blue")
    /// Indigo.
    public static let indigo = Color(description: "indigo")
    /// Purple.
    public static let purple = Color(description: "purple")
    /// Pink.
    public static let pink = Color(description: "pink")
    /// Brown.
    public static let brown = Color(description: "brown")
    /// White.
    public static let white = Color(description: "white")
    /// Gray.
    public static let gray = Color(description: "gray")
    /// Black.
    public static let black = Color(description: "black")
    /// Clear.
    public static let clear = Color(description: "clear")
    /// The primary content color.
    public static let primary = Color(description: "primary")
    /// The secondary content color.
    public static let secondary = Color(description: "secondary")
    /// The app's accent color.
    public static let accentColor = Color(description: "accentColor")
}

/// A color is a view that fills its space (inert).
extension Color: _PrimitiveView {}

/// A gradient is a view that fills its space (inert).
extension LinearGradient: _PrimitiveView {}

extension ShapeStyle where Self == Color {
    /// Red.
    public static var red: Color { Color.red }
    /// Orange.
    public static var orange: Color { Color.orange }
    /// Yellow.
    public static var yellow: Color { Color.yellow }
    /// Green.
    public static var green: Color { Color.green }
    /// Mint.
    public static var mint: Color { Color.mint }
    /// Teal.
    public static var teal: Color { Color.teal }
    /// Cyan.
    public static var cyan: Color { Color.cyan }
    /// Blue.
    public static var blue: Color { Color.blue }
    /// Indigo.
    public static var indigo: Color { Color.indigo }
    /// Purple.
    public static var purple: Color { Color.purple }
    /// Pink.
    public static var pink: Color { Color.pink }
    /// Brown.
    public static var brown: Color { Color.brown }
    /// White.
    public static var white: Color { Color.white }
    /// Gray.
    public static var gray: Color { Color.gray }
    /// Black.
    public static var black: Color { Color.black }
    /// Clear.
    public static var clear: Color { Color.clear }
    /// The app's accent color.
    public static var accentColor: Color { Color.accentColor }
}

/// The primary, secondary… levels of the current foreground style (inert).
public struct HierarchicalShapeStyle: ShapeStyle, Hashable {
    let level: Int
    /// The first level.
    public static let primary = HierarchicalShapeStyle(level: 0)
    /// The second level.
    public static let secondary = HierarchicalShapeStyle(level: 1)
    /// The third level.
    public static let tertiary = HierarchicalShapeStyle(level: 2)
    /// The fourth level.
    public static let quaternary = HierarchicalShapeStyle(level: 3)
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// The first level of the foreground style.
    public static var primary: HierarchicalShapeStyle { .primary }
    /// The second level of the foreground style.
    public static var secondary: HierarchicalShapeStyle { .secondary }
    /// The third level of the foreground style.
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    /// The fourth level of the foreground style.
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
}

/// The current tint (inert).
public struct TintShapeStyle: ShapeStyle, Hashable {
    /// Creates the tint style.
    public init() {}
}

extension ShapeStyle where Self == TintShapeStyle {
    /// The current tint.
    public static var tint: TintShapeStyle { TintShapeStyle() }
}

/// A color gradient: colors at locations from 0 to 1 (a value; drawing is inert).
public struct Gradient: Sendable, Hashable {
    /// One color at a location.
    public struct Stop: Sendable, Hashable {
        /// The color.
        public var color: Color
        /// Where the color is, from 0 to 1.
        public var location: CGFloat
        /// A stop of `color` at `location`.
        public init(color: Color, location: CGFloat) {
            self.color = color
            self.location = location
        }
    }

    /// The stops, in order.
    public var stops: [Stop]
    /// A gradient of `stops`.
    public init(stops: [Stop]) { self.stops = stops }
    /// A gradient of `colors`, spread evenly from 0 to 1.
    public init(colors: [Color]) {
        let last = CGFloat(max(colors.count - 1, 1))
        stops = colors.enumerated().map { Stop(color: $1, location: CGFloat($0) / last) }
    }
}

/// A linear gradient (inert: a value the view keeps).
public struct LinearGradient: ShapeStyle {
    /// The gradient.
    public let gradient: Gradient
    /// Where it starts.
    public let startPoint: UnitPoint
    /// Where it ends.
    public let endPoint: UnitPoint
    /// The colors, in order.
    public var colors: [Color] { gradient.stops.map(\.color) }
    /// Creates a gradient of `colors` from `startPoint` to `endPoint`.
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }
    /// Creates `gradient` from `startPoint` to `endPoint`.
    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient
        self.startPoint = startPoint
        self.endPoint = endPoint
    }
    /// Creates a gradient of `stops` from `startPoint` to `endPoint`.
    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }
}

extension ShapeStyle where Self == LinearGradient {
    /// A linear gradient of `gradient` as a shape style (`.fill(.linearGradient(…))`).
    public static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(gradient: gradient, startPoint: startPoint, endPoint: endPoint)
    }
    /// A linear gradient of `colors` as a shape style.
    public static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(colors: colors, startPoint: startPoint, endPoint: endPoint)
    }
}

/// A blur material (inert).
public struct Material: ShapeStyle, Hashable {
    let name: String
    /// Ultra-thin.
    public static let ultraThinMaterial = Material(name: "ultraThin")
    /// Thin.
    public static let thinMaterial = Material(name: "thin")
    /// Regular.
    public static let regularMaterial = Material(name: "regular")
    /// Thick.
    public static let thickMaterial = Material(name: "thick")
}

extension ShapeStyle where Self == Material {
    /// Ultra-thin material.
    public static var ultraThinMaterial: Material { .ultraThinMaterial }
    /// Thin material.
    public static var thinMaterial: Material { .thinMaterial }
    /// Regular material.
    public static var regularMaterial: Material { .regularMaterial }
    /// Thick material.
    public static var thickMaterial: Material { .thickMaterial }
}

/// A font (inert).
public struct Font: Sendable, Hashable {
    let description: String

    /// A large title.
    public static let largeTitle = Font(description: "largeTitle")
    /// A title.
    public static let title = Font(description: "title")
    /// A second-level title.
    public static let title2 = Font(description: "title2")
    /// A third-level title.
    public static let title3 = Font(description: "title3")
    /// A headline.
    public static let headline = Font(description: "headline")
    /// A subheadline.
    public static let subheadline = Font(description: "subheadline")
    /// Body text.
    public static let body = Font(description: "body")
    /// A callout.
    public static let callout = Font(description: "callout")
    /// A footnote.
    public static let footnote = Font(description: "footnote")
    /// A caption.
    public static let caption = Font(description: "caption")
    /// A second-level caption.
    public static let caption2 = Font(description: "caption2")

    /// A system font of a size.
    public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font {
        Font(description: "system(\(size))")
    }
    /// A system font of a text style.
    public static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        Font(description: "system(\(style))")
    }
    /// A custom font.
    public static func custom(_ name: String, size: CGFloat) -> Font { Font(description: "\(name)(\(size))") }
    /// This font, bold.
    public func bold() -> Font { Font(description: description + ".bold") }
    /// This font, italic.
    public func italic() -> Font { Font(description: description + ".italic") }
    /// This font with a weight.
    public func weight(_ weight: Weight) -> Font { Font(description: description + ".weight") }
    /// This font with monospaced digits.
    public func monospacedDigit() -> Font { Font(description: description + ".monospacedDigit") }

    /// A font weight (inert).
    public struct Weight: Sendable, Hashable {
        let value: Int
        /// Ultra light.
        public static let ultraLight = Weight(value: 1)
        /// Thin.
        public static let thin = Weight(value: 2)
        /// Light.
        public static let light = Weight(value: 3)
        /// Regular.
        public static let regular = Weight(value: 4)
        /// Medium.
        public static let medium = Weight(value: 5)
        /// Semibold.
        public static let semibold = Weight(value: 6)
        /// Bold.
        public static let bold = Weight(value: 7)
        /// Heavy.
        public static let heavy = Weight(value: 8)
        /// Black.
        public static let black = Weight(value: 9)
    }

    /// A font design (inert).
    public enum Design: Sendable, Hashable {
        /// `default`.
        case `default`
        /// `serif`.
        case serif
        /// `rounded`.
        case rounded
        /// `monospaced`.
        case monospaced
    }

    /// A dynamic text style (inert).
    public enum TextStyle: Sendable, Hashable, CaseIterable {
        /// `largeTitle`.
        case largeTitle
        /// `title`.
        case title
        /// `title2`.
        case title2
        /// `title3`.
        case title3
        /// `headline`.
        case headline
        /// `subheadline`.
        case subheadline
        /// `body`.
        case body
        /// `callout`.
        case callout
        /// `footnote`.
        case footnote
        /// `caption`.
        case caption
        /// `caption2`.
        case caption2
    }
}

/// An angle (inert: rotation effects).
public struct Angle: Sendable, Hashable {
    /// The angle in radians.
    public var radians: Double
    /// The angle in degrees.
    public var degrees: Double { radians * 180 / .pi }
    /// Creates an angle in radians.
    public init(radians: Double) { self.radians = radians }
    /// Creates an angle in degrees.
    public init(degrees: Double) { radians = degrees * .pi / 180 }
    /// An angle in degrees.
    public static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
    /// An angle in radians.
    public static func radians(_ radians: Double) -> Angle { Angle(radians: radians) }
    /// Zero.
    public static let zero = Angle(radians: 0)
}

extension Angle: Comparable, AdditiveArithmetic {
    /// Whether `lhs` is the smaller angle.
    public static func < (lhs: Angle, rhs: Angle) -> Bool { lhs.radians < rhs.radians }
    /// The sum.
    public static func + (lhs: Angle, rhs: Angle) -> Angle { Angle(radians: lhs.radians + rhs.radians) }
    /// The difference.
    public static func - (lhs: Angle, rhs: Angle) -> Angle { Angle(radians: lhs.radians - rhs.radians) }
    /// Adds `rhs` to `lhs`.
    public static func += (lhs: inout Angle, rhs: Angle) { lhs.radians += rhs.radians }
    /// Subtracts `rhs` from `lhs`.
    public static func -= (lhs: inout Angle, rhs: Angle) { lhs.radians -= rhs.radians }
    /// The opposite angle.
    public static prefix func - (angle: Angle) -> Angle { Angle(radians: -angle.radians) }
    /// The angle scaled by `rhs`.
    public static func * (lhs: Angle, rhs: Double) -> Angle { Angle(radians: lhs.radians * rhs) }
    /// The angle scaled by `lhs`.
    public static func * (lhs: Double, rhs: Angle) -> Angle { Angle(radians: lhs * rhs.radians) }
    /// The angle divided by `rhs`.
    public static func / (lhs: Angle, rhs: Double) -> Angle { Angle(radians: lhs.radians / rhs) }
}

// MARK: Shapes

/// A 2D shape (inert: a leaf of the tree that draws nothing). Conform your own shapes by
/// implementing ``path(in:)``, as in SwiftUI.
public protocol Shape: _PrimitiveView, Sendable {
    /// The outline of the shape in `rect`.
    func path(in rect: CGRect) -> Path
}

extension Shape {
    /// Fills the shape (inert).
    public func fill<S: ShapeStyle>(_ content: S = Color.primary, style: FillStyle = FillStyle()) -> some View { self }
    /// Strokes the shape (inert).
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> some View { self }
    /// Strokes the shape (inert).
    public func stroke(lineWidth: CGFloat = 1) -> some View { self }
    /// Strokes the shape with a style (inert).
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> some View { self }
    /// Strokes the shape's border inside it (inert).
    public func strokeBorder<S: ShapeStyle>(_ content: S = Color.primary, lineWidth: CGFloat = 1) -> some View { self }
    /// Strokes the shape's border inside it (inert).
    public func strokeBorder(lineWidth: CGFloat = 1) -> some View { self }
    /// Trims the shape (inert).
    public func trim(from startFraction: CGFloat = 0, to endFraction: CGFloat = 1) -> some Shape { self }
    /// The shape rotated by `angle` around `anchor` (inert): still a shape, to fill or stroke.
    ///
    /// ```swift
    /// Circle()
    ///     .rotation(Angle(degrees: -90))
    ///     .stroke(Color.orange, lineWidth: 12)
    /// ```
    public func rotation(_ angle: Angle, anchor: UnitPoint = .center) -> RotatedShape<Self> {
        RotatedShape(shape: self, angle: angle, anchor: anchor)
    }
}

/// A shape rotated by an angle (``Shape/rotation(_:anchor:)``; the rotation is inert).
public struct RotatedShape<Content: Shape>: Shape {
    /// The shape before the rotation.
    public var shape: Content
    /// The rotation.
    public var angle: Angle
    /// The point the shape turns around.
    public var anchor: UnitPoint

    /// Rotates `shape` by `angle` around `anchor`.
    public init(shape: Content, angle: Angle, anchor: UnitPoint = .center) {
        self.shape = shape
        self.angle = angle
        self.anchor = anchor
    }

    /// The shape's outline (the rotation is inert).
    public func path(in rect: CGRect) -> Path { shape.path(in: rect) }
}

extension Shape where Self == Rectangle {
    /// A rectangle.
    public static var rect: Rectangle { Rectangle() }
}

extension Shape where Self == RoundedRectangle {
    /// A rectangle with rounded corners (`.clipShape(.rect(cornerRadius: 10))`).
    public static func rect(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerRadius: cornerRadius, style: style)
    }
}

extension Shape where Self == Circle {
    /// A circle.
    public static var circle: Circle { Circle() }
}

extension Shape where Self == Capsule {
    /// A capsule.
    public static var capsule: Capsule { Capsule() }
}

extension Shape where Self == Ellipse {
    /// An ellipse.
    public static var ellipse: Ellipse { Ellipse() }
}

/// How a shape is filled (inert).
public struct FillStyle: Sendable, Hashable {
    /// Whether the even-odd rule is used.
    public var isEOFilled: Bool
    /// Creates a fill style.
    public init(eoFill: Bool = false, antialiased: Bool = true) { isEOFilled = eoFill }
}

/// How a shape is stroked (inert).
public struct StrokeStyle: Sendable, Hashable {
    /// The line width.
    public var lineWidth: CGFloat
    /// Creates a stroke style.
    public init(lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter, dash: [CGFloat] = []) {
        self.lineWidth = lineWidth
    }
}

/// Line caps (inert).
public enum CGLineCap: Sendable, Hashable {
    /// `butt`.
    case butt
    /// `round`.
    case round
    /// `square`.
    case square
}

/// Line joins (inert).
public enum CGLineJoin: Sendable, Hashable {
    /// `miter`.
    case miter
    /// `round`.
    case round
    /// `bevel`.
    case bevel
}

/// A circle.
public struct Circle: Shape, Hashable {
    /// Creates a circle.
    public init() {}
    /// The circle inscribed in `rect`.
    public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
}

/// A rectangle.
public struct Rectangle: Shape, Hashable {
    /// Creates a rectangle.
    public init() {}
    /// `rect`.
    public func path(in rect: CGRect) -> Path { Path(rect) }
}

/// A rectangle with rounded corners.
public struct RoundedRectangle: Shape, Hashable {
    /// The corner radius.
    public var cornerRadius: CGFloat
    /// Creates a rounded rectangle.
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) { self.cornerRadius = cornerRadius }
    /// `rect` (the corners are inert).
    public func path(in rect: CGRect) -> Path { Path(rect) }
}

/// A capsule.
public struct Capsule: Shape, Hashable {
    /// Creates a capsule.
    public init(style: RoundedCornerStyle = .continuous) {}
    /// `rect` (the ends are inert).
    public func path(in rect: CGRect) -> Path { Path(rect) }
}

/// An ellipse.
public struct Ellipse: Shape, Hashable {
    /// Creates an ellipse.
    public init() {}
    /// The ellipse inscribed in `rect`.
    public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
}

/// Corner styles (inert).
public enum RoundedCornerStyle: Sendable, Hashable {
    /// `circular`.
    case circular
    /// `continuous`.
    case continuous
}

/// An outline made of elements; kept as a list of what was added (inert: nothing is drawn).
public struct Path: Shape, Hashable {
    /// One element of a path.
    public enum Element: Sendable, Hashable {
        /// Starts a subpath.
        case move(to: CGPoint)
        /// A straight line.
        case line(to: CGPoint)
        /// An arc around `center`.
        case arc(center: CGPoint, radius: CGFloat, start: Double, end: Double, clockwise: Bool)
        /// An ellipse in a rectangle.
        case ellipse(CGRect)
        /// A rectangle.
        case rect(CGRect)
        /// A quadratic Bézier curve to `to`.
        case quadCurve(to: CGPoint, control: CGPoint)
        /// A cubic Bézier curve to `to`.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// Closes the subpath.
        case closeSubpath
    }

    /// The elements, in the order they were added.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}
    /// A path built by `callback`.
    public init(_ callback: (inout Path) -> Void) { callback(&self) }
    /// A rectangle.
    public init(_ rect: CGRect) { elements = [.rect(rect)] }
    /// An ellipse inscribed in `rect`.
    public init(ellipseIn rect: CGRect) { elements = [.ellipse(rect)] }
    /// A rounded rectangle (corners inert).
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat) { elements = [.rect(rect)] }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a subpath at `point`.
    public mutating func move(to point: CGPoint) { elements.append(.move(to: point)) }
    /// Adds a line to `point`.
    public mutating func addLine(to point: CGPoint) { elements.append(.line(to: point)) }
    /// Adds lines through `points`.
    public mutating func addLines(_ points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        points.dropFirst().forEach { addLine(to: $0) }
    }
    /// Adds an arc.
    public mutating func addArc(
        center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool
    ) {
        elements.append(
            .arc(center: center, radius: radius, start: startAngle.radians, end: endAngle.radians, clockwise: clockwise))
    }
    /// Adds a quadratic Bézier curve to `end`, bent towards `control`.
    public mutating func addQuadCurve(to end: CGPoint, control: CGPoint) {
        elements.append(.quadCurve(to: end, control: control))
    }
    /// Adds a cubic Bézier curve to `end`, bent towards `control1` then `control2`.
    public mutating func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        elements.append(.curve(to: end, control1: control1, control2: control2))
    }
    /// Adds a rectangle.
    public mutating func addRect(_ rect: CGRect) { elements.append(.rect(rect)) }
    /// Adds an ellipse.
    public mutating func addEllipse(in rect: CGRect) { elements.append(.ellipse(rect)) }
    /// Closes the current subpath.
    public mutating func closeSubpath() { elements.append(.closeSubpath) }
    /// This path.
    public func path(in rect: CGRect) -> Path { self }
}

// MARK: Inert modifiers

/// How content fits its frame (inert).
public enum ContentMode: Sendable, Hashable {
    /// `fit`.
    case fit
    /// `fill`.
    case fill
}

/// How multi-line text aligns (inert).
public enum TextAlignment: Sendable, Hashable, CaseIterable {
    /// `leading`.
    case leading
    /// `center`.
    case center
    /// `trailing`.
    case trailing
}

/// A color scheme (inert).
public enum ColorScheme: Sendable, Hashable, CaseIterable {
    /// `light`.
    case light
    /// `dark`.
    case dark
}

extension View {
    /// Places the view's center at `position` in its parent (inert).
    public func position(_ position: CGPoint) -> some View { self }
    /// Places the view's center at `x`, `y` in its parent (inert).
    public func position(x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    /// Shifts the view's hues by `angle` (inert).
    public func hueRotation(_ angle: Angle) -> some View { self }
    /// Removes `amount` (0 to 1) of the view's color saturation (inert).
    public func grayscale(_ amount: Double) -> some View { self }
    /// Pads the view (inert).
    public func padding(_ length: CGFloat? = nil) -> some View { self }
    /// Pads some edges (inert).
    public func padding(_ edges: Edge.Set, _ length: CGFloat? = nil) -> some View { self }
    /// Pads by insets (inert).
    public func padding(_ insets: EdgeInsets) -> some View { self }
    /// A fixed frame (inert).
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        self
    }
    /// A flexible frame (inert).
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { self }
    /// Sets the font of text here (inert).
    public func font(_ font: Font?) -> some View { self }
    /// Sets the font weight (inert).
    public func fontWeight(_ weight: Font.Weight?) -> some View { self }
    /// Bold text (inert).
    public func bold(_ isActive: Bool = true) -> some View { self }
    /// Sets the foreground style (inert).
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { self }
    /// Sets primary and secondary foreground styles (inert).
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> some View { self }
    /// Sets the foreground color (inert).
    public func foregroundColor(_ color: Color?) -> some View { self }
    /// Sets the tint (inert).
    public func tint(_ tint: Color?) -> some View { self }
    /// Sets the tint style (inert).
    public func tint<S: ShapeStyle>(_ tint: S?) -> some View { self }
    /// Sets the accent color (inert).
    public func accentColor(_ accentColor: Color?) -> some View { self }
    /// A style behind the view (inert).
    public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View {
        self
    }
    /// A style in a shape behind the view (inert).
    public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T) -> some View { self }
    /// A style over the view (inert).
    public func overlay<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View { self }
    /// Layers the views `content` builds over this view (the alignment is inert). The overlay is a
    /// child of this view's place in the tree: its texts follow the view's, its controls are
    /// reachable, its state lives as long as the view.
    ///
    /// ```swift
    /// Circle()
    ///     .strokeBorder(lineWidth: 24)
    ///     .overlay {
    ///         Text("Speaker 1 of 3")
    ///     }
    /// ```
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        _Layered(content: self, layer: content(), key: "overlay")
    }
    /// Layers the views `content` builds behind this view (the alignment is inert); like
    /// ``View/overlay(alignment:content:)``, the background is a child of this view's place.
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        _Layered(content: self, layer: content(), key: "background")
    }
    /// Clips to a shape (inert).
    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View { self }
    /// Clips to the frame (inert).
    public func clipped(antialiased: Bool = false) -> some View { self }
    /// Rounds the corners (inert).
    public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> some View { self }
    /// A shadow (inert).
    public func shadow(color: Color = .black, radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    /// Opacity (inert: the view stays in the tree and reachable).
    public func opacity(_ opacity: Double) -> some View { self }
    /// Scales the view (inert).
    public func scaleEffect(_ scale: CGFloat, anchor: UnitPoint = .center) -> some View { self }
    /// Rotates the view (inert).
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> some View { self }
    /// Offsets the view (inert).
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { self }
    /// Blurs the view (inert).
    public func blur(radius: CGFloat, opaque: Bool = false) -> some View { self }
    /// Limits the number of lines (inert).
    public func lineLimit(_ number: Int?) -> some View { self }
    /// Aligns multi-line text (inert).
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { self }
    /// Scales images relative to text (inert).
    public func imageScale(_ scale: Image.Scale) -> some View { self }
    /// Keeps an aspect ratio (inert).
    public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> some View { self }
    /// Scales to fit (inert).
    public func scaledToFit() -> some View { self }
    /// Scales to fill (inert).
    public func scaledToFill() -> some View { self }
    /// Extends into the safe area (inert).
    public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View { self }
    /// Extends into the safe area (inert).
    public func edgesIgnoringSafeArea(_ edges: Edge.Set) -> some View { self }
    /// Sets the preferred color scheme (inert).
    public func preferredColorScheme(_ colorScheme: ColorScheme?) -> some View { self }
    /// Sets a layout priority (inert).
    public func layoutPriority(_ value: Double) -> some View { self }
    /// Fixes the size (inert).
    public func fixedSize(horizontal: Bool = true, vertical: Bool = true) -> some View { self }
    /// Sets a row's background in a list (inert).
    public func listRowBackground<V: View>(_ view: V?) -> some View { self }
    /// Sets a row's insets in a list (inert).
    public func listRowInsets(_ insets: EdgeInsets?) -> some View { self }
    /// Hides a row's separator (inert).
    public func listRowSeparator(_ visibility: Visibility, edges: VerticalEdge.Set = .all) -> some View { self }
    /// Sets the keyboard type (inert).
    public func keyboardType(_ type: UIKeyboardType) -> some View { self }
    /// Sets autocapitalization (inert).
    public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View { self }
    /// Disables autocorrection (inert).
    public func autocorrectionDisabled(_ disable: Bool = true) -> some View { self }
    /// Sets the return key's label (inert).
    public func submitLabel(_ submitLabel: SubmitLabel) -> some View { self }
    /// Sets the content shape for hit testing (inert).
    public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> some View { self }
    /// Sets a z-index (inert).
    public func zIndex(_ value: Double) -> some View { self }
}

/// Regions of the safe area (inert).
public struct SafeAreaRegions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates regions from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The container's region.
    public static let container = SafeAreaRegions(rawValue: 1)
    /// The keyboard's region.
    public static let keyboard = SafeAreaRegions(rawValue: 2)
    /// Every region.
    public static let all: SafeAreaRegions = [.container, .keyboard]
}

/// Whether an element is visible (inert).
public enum Visibility: Sendable, Hashable, CaseIterable {
    /// `automatic`.
    case automatic
    /// `visible`.
    case visible
    /// `hidden`.
    case hidden
}

/// Top and bottom edges (inert).
public enum VerticalEdge: Int8, Sendable, Hashable, CaseIterable {
    /// `top`.
    case top
    /// `bottom`.
    case bottom

    /// A set of vertical edges.
    public struct Set: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int8
        /// Creates a set from raw bits.
        public init(rawValue: Int8) { self.rawValue = rawValue }
        /// The top edge.
        public static let top = Set(rawValue: 1)
        /// The bottom edge.
        public static let bottom = Set(rawValue: 2)
        /// Both edges.
        public static let all: Set = [.top, .bottom]
    }
}

/// Keyboard types (inert).
public enum UIKeyboardType: Sendable, Hashable {
    /// `default`.
    case `default`
    /// `asciiCapable`.
    case asciiCapable
    /// `numbersAndPunctuation`.
    case numbersAndPunctuation
    /// `URL`.
    case URL
    /// `numberPad`.
    case numberPad
    /// `phonePad`.
    case phonePad
    /// `namePhonePad`.
    case namePhonePad
    /// `emailAddress`.
    case emailAddress
    /// `decimalPad`.
    case decimalPad
    /// `twitter`.
    case twitter
    /// `webSearch`.
    case webSearch
    /// `asciiCapableNumberPad`.
    case asciiCapableNumberPad
}

/// Autocapitalization behaviours (inert).
public struct TextInputAutocapitalization: Sendable, Hashable {
    let name: String
    /// Never.
    public static let never = TextInputAutocapitalization(name: "never")
    /// Words.
    public static let words = TextInputAutocapitalization(name: "words")
    /// Sentences.
    public static let sentences = TextInputAutocapitalization(name: "sentences")
    /// Characters.
    public static let characters = TextInputAutocapitalization(name: "characters")
}

/// Return-key labels (inert).
public struct SubmitLabel: Sendable, Hashable {
    let name: String
    /// Done.
    public static let done = SubmitLabel(name: "done")
    /// Go.
    public static let go = SubmitLabel(name: "go")
    /// Send.
    public static let send = SubmitLabel(name: "send")
    /// Join.
    public static let join = SubmitLabel(name: "join")
    /// Route.
    public static let route = SubmitLabel(name: "route")
    /// Search.
    public static let search = SubmitLabel(name: "search")
    /// Return.
    public static let `return` = SubmitLabel(name: "return")
    /// Next.
    public static let next = SubmitLabel(name: "next")
    /// Continue.
    public static let `continue` = SubmitLabel(name: "continue")
}

// MARK: Styles (inert)

/// A list style (inert).
public protocol ListStyle: Sendable {}
/// The list styles SwiftUI offers (inert).
public struct _BuiltInListStyle: ListStyle { let name: String }
extension ListStyle where Self == _BuiltInListStyle {
    /// Automatic.
    public static var automatic: _BuiltInListStyle { .init(name: "automatic") }
    /// Plain.
    public static var plain: _BuiltInListStyle { .init(name: "plain") }
    /// Grouped.
    public static var grouped: _BuiltInListStyle { .init(name: "grouped") }
    /// Inset.
    public static var inset: _BuiltInListStyle { .init(name: "inset") }
    /// Inset grouped.
    public static var insetGrouped: _BuiltInListStyle { .init(name: "insetGrouped") }
    /// Sidebar.
    public static var sidebar: _BuiltInListStyle { .init(name: "sidebar") }
}

/// A picker style (inert).
public protocol PickerStyle: Sendable {}
/// The picker styles SwiftUI offers (inert).
public struct _BuiltInPickerStyle: PickerStyle { let name: String }
extension PickerStyle where Self == _BuiltInPickerStyle {
    /// Automatic.
    public static var automatic: _BuiltInPickerStyle { .init(name: "automatic") }
    /// Menu.
    public static var menu: _BuiltInPickerStyle { .init(name: "menu") }
    /// Segmented.
    public static var segmented: _BuiltInPickerStyle { .init(name: "segmented") }
    /// Wheel.
    public static var wheel: _BuiltInPickerStyle { .init(name: "wheel") }
    /// Inline.
    public static var inline: _BuiltInPickerStyle { .init(name: "inline") }
    /// Pushes a list of options.
    public static var navigationLink: _BuiltInPickerStyle { .init(name: "navigationLink") }
    /// Palette.
    public static var palette: _BuiltInPickerStyle { .init(name: "palette") }
}

/// A text field style (inert).
public protocol TextFieldStyle: Sendable {}
/// The text field styles SwiftUI offers (inert).
public struct _BuiltInTextFieldStyle: TextFieldStyle { let name: String }
extension TextFieldStyle where Self == _BuiltInTextFieldStyle {
    /// Automatic.
    public static var automatic: _BuiltInTextFieldStyle { .init(name: "automatic") }
    /// Plain.
    public static var plain: _BuiltInTextFieldStyle { .init(name: "plain") }
    /// Rounded border.
    public static var roundedBorder: _BuiltInTextFieldStyle { .init(name: "roundedBorder") }
}

/// A toggle style (inert).
public protocol ToggleStyle: Sendable {}
/// The toggle styles SwiftUI offers (inert).
public struct _BuiltInToggleStyle: ToggleStyle { let name: String }
extension ToggleStyle where Self == _BuiltInToggleStyle {
    /// Automatic.
    public static var automatic: _BuiltInToggleStyle { .init(name: "automatic") }
    /// A switch.
    public static var `switch`: _BuiltInToggleStyle { .init(name: "switch") }
    /// A button.
    public static var button: _BuiltInToggleStyle { .init(name: "button") }
}

/// A button style: SwiftUI's built-in ones (inert). Custom `ButtonStyle`s are not evaluated.
public protocol PrimitiveButtonStyle: Sendable {}
/// The button styles SwiftUI offers (inert).
public struct _BuiltInButtonStyle: PrimitiveButtonStyle { let name: String }
extension PrimitiveButtonStyle where Self == _BuiltInButtonStyle {
    /// Automatic.
    public static var automatic: _BuiltInButtonStyle { .init(name: "automatic") }
    /// Plain.
    public static var plain: _BuiltInButtonStyle { .init(name: "plain") }
    /// Bordered.
    public static var bordered: _BuiltInButtonStyle { .init(name: "bordered") }
    /// Bordered prominent.
    public static var borderedProminent: _BuiltInButtonStyle { .init(name: "borderedProminent") }
    /// Borderless.
    public static var borderless: _BuiltInButtonStyle { .init(name: "borderless") }
}

extension View {
    /// Sets the list style (inert).
    public func listStyle<S: ListStyle>(_ style: S) -> some View { self }
    /// Sets the picker style (inert).
    public func pickerStyle<S: PickerStyle>(_ style: S) -> some View { self }
    /// Sets the text field style (inert).
    public func textFieldStyle<S: TextFieldStyle>(_ style: S) -> some View { self }
    /// Sets the toggle style (inert).
    public func toggleStyle<S: ToggleStyle>(_ style: S) -> some View { self }
    /// Sets the button style (inert).
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { self }
}

/// A view with another layered over or behind it (``View/overlay(alignment:content:)``,
/// ``View/background(alignment:content:)``): both are children of its place in the tree.
public struct _Layered<Content: View, Layer: View>: _PrimitiveView {
    let content: Content
    let layer: Layer
    let key: String
    public func _children() -> [_Child] {
        key == "background"
            ? [_Child(layer, key: key), _Child(content, key: 0)] : [_Child(content, key: 0), _Child(layer, key: key)]
    }
}
