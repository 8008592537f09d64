import Foundation
import RippleUI
import Testing

/// Overlays and backgrounds made of views, shapes that stay shapes, and custom label and progress
/// view styles whose bodies are views like any other.
@Suite @MainActor struct DecorationTests {
    struct Timer: View {
        @State private var speaker = 1
        var body: some View {
            Circle()
                .strokeBorder(lineWidth: 24)
                .overlay {
                    VStack {
                        Text("Speaker \(speaker) of 3")
                        Button("Skip") { speaker += 1 }
                    }
                }
                .background(alignment: .top) { Text("behind") }
        }
    }

    @Test func anOverlaysViewsAreChildrenWithStateAndControls() throws {
        let tree = RenderTree(Timer())
        #expect(tree.texts == ["behind", "Speaker 1 of 3", "Skip"])
        try tree.tap("Skip")
        #expect(tree.texts == ["behind", "Speaker 2 of 3", "Skip"])
    }

    @Test func shapesRotateClipAndConvertColors() {
        struct Arc: Shape {
            func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
        }
        struct Card: View {
            let color = Color("sky")
            var body: some View {
                VStack {
                    Arc()
                        .rotation(Angle(degrees: -90))
                        .stroke(Color(color), lineWidth: 12)
                    Rectangle().rotation(.degrees(45), anchor: .topLeading).fill(Color.orange)
                    Text("card")
                        .background(Color(color))
                        .clipShape(.rect(cornerRadius: 4))
                        .clipShape(.rect)
                        .clipShape(.capsule)
                }
            }
        }
        let tree = RenderTree(Card())
        #expect(tree.texts == ["card"])
        #expect(Color(Color("sky")) == Color("sky"))
        let rotated = Arc().rotation(.degrees(30))
        #expect(rotated.angle == .degrees(30))
        #expect(rotated.path(in: .zero) == Arc().path(in: .zero))
    }

    // MARK: Label styles

    struct TrailingIconLabelStyle: LabelStyle {
        func makeBody(configuration: Configuration) -> some View {
            HStack {
                configuration.title
                configuration.icon
            }
        }
    }

    /// A style with state of its own: it lives in the styled label's node.
    struct CountingLabelStyle: LabelStyle {
        @State private var taps = 0
        func makeBody(configuration: Configuration) -> some View {
            VStack {
                configuration.title
                Button("Tapped \(taps)") { taps += 1 }
            }
        }
    }

    @Test func aCustomLabelStylesBodyIsRendered() throws {
        struct Attendees: View {
            var body: some View {
                VStack {
                    Label("3 attendees", systemImage: "person.3")
                        .labelStyle(TrailingIconLabelStyle())
                    Label("Plain", systemImage: "star")
                        .labelStyle(.titleOnly)
                    Label("Counted", systemImage: "number")
                        .labelStyle(CountingLabelStyle())
                }
            }
        }
        let tree = RenderTree(Attendees())
        #expect(tree.texts == ["3 attendees", "Plain", "Counted", "Tapped 0"])
        #expect(tree.log.contains("TrailingIconLabelStyle: @identity"))
        try tree.tap("Tapped 0")
        try tree.tap("Tapped 1")
        #expect(tree.texts == ["3 attendees", "Plain", "Counted", "Tapped 2"])
        #expect(tree.log.last == "CountingLabelStyle: _taps changed")
    }

    // MARK: Progress view styles

    struct BarProgressStyle: ProgressViewStyle {
        func makeBody(configuration: Configuration) -> some View {
            let percent = Int(((configuration.fractionCompleted ?? 0) * 100).rounded())
            ZStack {
                RoundedRectangle(cornerRadius: 10).fill(Color.orange)
                Text("\(percent)% done")
                ProgressView(configuration)
            }
        }
    }

    @Test func aCustomProgressViewStyleIsRenderedAndFollowsTheValue() throws {
        struct Meeting: View {
            @State private var elapsed = 1.0
            var body: some View {
                VStack {
                    ProgressView("Meeting", value: elapsed, total: 4)
                        .progressViewStyle(BarProgressStyle())
                    ProgressView(value: 0.5)
                        .progressViewStyle(.linear)
                    Button("Tick") { elapsed += 1 }
                }
            }
        }
        let tree = RenderTree(Meeting())
        // Inside the style's body, `ProgressView(configuration)` is the plain indicator.
        #expect(tree.texts == ["25% done", "[Meeting: 25%]", "[progress: 50%]", "Tick"])
        try tree.tap("Tick")
        #expect(tree.texts == ["50% done", "[Meeting: 50%]", "[progress: 50%]", "Tick"])
    }

    // MARK: Images

    @Test func imagesAndStaticAccessibilityLabelsAreQueryable() throws {
        struct Transcript: View {
            var body: some View {
                HStack {
                    Image(systemName: "mic")
                        .accessibilityLabel("with transcription")
                    Image(systemName: "clock")
                    Text("Notes")
                        .accessibilityLabel("Meeting notes")
                }
            }
        }
        let tree = RenderTree(Transcript())
        #expect(tree.images == ["with transcription", "clock"])
        #expect(tree.hasImage("with transcription"))
        #expect(tree.hasImage("clock"))
        #expect(!tree.hasImage("mic.slash"))
        #expect(tree.accessibilityLabels == ["with transcription", "Meeting notes"])
        #expect(tree.texts == ["Notes"])
    }
}
