import RippleUI
import Testing

// Values that are inert on the tree but carry data: angles, gradients, paths; inert modifiers
// that compile and change nothing.

@Suite @MainActor struct SurfaceValueTests {
    @Test func anglesAdd() {
        var angle = Angle.degrees(90) + .degrees(45)
        #expect(abs(angle.degrees - 135) < 1e-9)
        angle -= .degrees(35)
        #expect(abs(angle.degrees - 100) < 1e-9)
        #expect(abs((-angle).degrees + 100) < 1e-9)
        #expect(abs((angle * 2).degrees - 200) < 1e-9)
        #expect(abs((angle / 4).degrees - 25) < 1e-9)
        #expect(Angle.degrees(10) < .degrees(20))
        #expect(Angle.zero == .radians(0))
    }

    @Test func aGradientSpreadsItsColors() {
        let gradient = Gradient(colors: [.red, .green, .blue])
        #expect(gradient.stops.map(\.location) == [0, 0.5, 1])
        let style: LinearGradient = .linearGradient(gradient, startPoint: .top, endPoint: .bottom)
        #expect(style.colors == [.red, .green, .blue])
        #expect(style.startPoint == .top)
    }

    @Test func pathsKeepTheirCurves() {
        var path = Path()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addQuadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 5))
        path.addCurve(to: CGPoint(x: 20, y: 0), control1: CGPoint(x: 12, y: 4), control2: CGPoint(x: 18, y: 4))
        #expect(path.elements.count == 3)
        #expect(path.elements[1] == .quadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 5)))
    }

    @Test func inertModifiersAndAnimatedBindingsChangeNothing() throws {
        struct Badge: View {
            @State private var isOn = false
            var body: some View {
                VStack {
                    Toggle("Glow", isOn: $isOn.animation(.easeIn))
                    Text(isOn ? "on" : "off")
                        .position(x: 10, y: 20)
                        .hueRotation(.degrees(30))
                        .grayscale(0.5)
                        .foregroundStyle(.linearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing))
                }
            }
        }
        let tree = RenderTree(Badge())
        try tree.toggle("Glow")
        #expect(tree.texts == ["[Glow: on]", "on"])
    }
}
