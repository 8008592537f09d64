import Foundation
import RippleUI
import Testing

// What the README's table of control texts says: each control's form in `texts`, what
// `type(_:into:)` does to a field's text, which images `hasImage`, `exists` and a row's `images`
// see, what `evaluations(of:)` counts and what a row scope prints as.
@Suite @MainActor struct TextFormatTests {
    enum Flavor: Hashable { case vanilla, mint }

    struct Controls: View {
        @State private var on = true
        @State private var name = "Ada"
        @State private var secret = "abc"
        @State private var notes = "Hi"
        @State private var goal = 12
        @State private var volume = 0.5
        @State private var whole = 3.0
        @State private var flavor = Flavor.mint
        @State private var due = Date(timeIntervalSince1970: 0)
        var body: some View {
            VStack {
                Toggle("Wi-Fi", isOn: $on)
                TextField("Name", text: $name)
                SecureField("Password", text: $secret)
                TextEditor(text: $notes).accessibilityLabel("Notes")
                Stepper("Goal", value: $goal, in: 1...100)
                Stepper("Goal: \(goal) books", value: $goal, in: 1...100)
                Stepper("Count", onIncrement: {}, onDecrement: {})
                Slider(value: $volume) { Text("Volume") }
                Slider(value: $whole, in: 0...10) { Text("Level") }
                Slider(value: $volume)
                Picker("Flavor", selection: $flavor) {
                    Text("Vanilla").tag(Flavor.vanilla)
                    Text("Mint").tag(Flavor.mint)
                }
                DatePicker("Due", selection: $due, displayedComponents: .date)
                ProgressView("Upload", value: 0.25)
                Button("Save") {}
            }
        }
    }

    @Test func eachControlsTextIsWhatTheTableSays() throws {
        let tree = RenderTree(Controls())
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd"
        let day = formatter.string(from: Date(timeIntervalSince1970: 0))
        #expect(tree.texts == [
            "[Wi-Fi: on]", "[Name: Ada]", "[Password: •••]", "[Hi]", "[Goal: 12]", "[Goal: 12 books: 12]", "[Count]", "[Volume: 0.5]",
            "[Level: 3]", "[slider: 0.5]", "[Flavor: Mint]", "[Due: \(day)]", "[Upload: 25%]", "Save",
        ])
        // `type(_:into:)` replaces the whole text.
        try tree.type("Grace", into: "Name")
        #expect(tree.exists("[Name: Grace]"))
        try tree.toggle("Wi-Fi")
        try tree.increment("Goal")
        try tree.select("Vanilla", in: "Flavor")
        #expect(tree.texts.prefix(6) == ["[Wi-Fi: off]", "[Name: Grace]", "[Password: •••]", "[Hi]", "[Goal: 13]", "[Goal: 13 books: 13]"])
        #expect(tree.exists("[Flavor: Vanilla]"))
    }

    struct Rows: View {
        let names = ["Dune", "Emma"]
        var body: some View {
            List {
                Toggle("Starred only", isOn: .constant(false))
                ForEach(names, id: \.self) { name in
                    HStack {
                        Text(name)
                        Image(systemName: "book")
                        Button { } label: { Image(systemName: "star") }
                    }
                }
            }
        }
    }

    @Test func rowsAreForEachRowsAndImagesInsideControlsAreNotImages() throws {
        let tree = RenderTree(Rows())
        #expect(tree.rows.count == 2)  // the toggle is not a row
        let row = try tree.row(containing: "Dune")
        #expect(row.description == #"row ["Dune"]"#)
        #expect("\(tree.rows)" == #"[row ["Dune"], row ["Emma"]]"#)
        // The screen's `images` and `hasImage` see images outside controls; `exists` and a row's
        // `images` see those inside controls too.
        #expect(tree.images == ["book", "book"])
        #expect(tree.hasImage("book") && !tree.hasImage("star"))
        #expect(tree.exists("star"))
        #expect(row.images == ["book", "star"])
    }

    @Observable final class Counter {
        var value = 0
    }

    struct Shown: View {
        var counter: Counter
        var body: some View { Text("\(counter.value)") }
    }

    @Test func evaluationsAreCumulativeAndClearLogKeepsThem() {
        let counter = Counter()
        let tree = RenderTree(Shown(counter: counter))
        #expect(tree.evaluations(of: Shown.self) == 1)
        tree.clearLog()
        #expect(tree.evaluations(of: Shown.self) == 1)
        let before = tree.evaluations(of: Shown.self)
        counter.value += 1
        tree.flush()
        #expect(tree.evaluations(of: Shown.self) - before == 1)
        #expect(tree.evaluations(of: "Shown") == 2)
        #expect(tree.log == ["Shown: Counter.value changed"])
    }
}
