import RippleUI
import Testing

struct NoteTitleKey: FocusedValueKey {
    typealias Value = Binding<String>
}

struct NoteCountKey: FocusedValueKey {
    typealias Value = Int
}

extension FocusedValues {
    var noteTitle: Binding<String>? {
        get { self[NoteTitleKey.self] }
        set { self[NoteTitleKey.self] = newValue }
    }

    var noteCount: Int? {
        get { self[NoteCountKey.self] }
        set { self[NoteCountKey.self] = newValue }
    }
}

struct TitleCommands: View {
    @FocusedBinding(\.noteTitle) private var title
    @FocusedValue(\.noteCount) private var count
    var body: some View {
        VStack {
            Text("Focused: \(title ?? "none") (\(count.map(String.init) ?? "-"))")
            Button("Uppercase") { title = title?.uppercased() }
        }
    }
}

struct TwoNotes: View {
    @State private var first = "groceries"
    @State private var second = "ideas"
    var body: some View {
        VStack {
            TitleCommands()
            TextField("First", text: $first).focusedValue(\.noteTitle, $first).focusedValue(\.noteCount, 1)
            VStack {
                TextField("Second", text: $second)
            }
            .focusedValue(\.noteTitle, $second)
            .focusedValue(\.noteCount, 2)
        }
    }
}

@Suite @MainActor struct FocusedValueTests {
    @Test func theFocusedViewsValuesReachTheirReaders() throws {
        let tree = RenderTree(TwoNotes())
        #expect(tree.texts.first == "Focused: none (-)")
        try tree.tap("Uppercase")
        #expect(tree.texts == ["Focused: none (-)", "Uppercase", "[First: groceries]", "[Second: ideas]"])
        try tree.focus("First")
        #expect(tree.texts.first == "Focused: groceries (1)")
        try tree.tap("Uppercase")
        #expect(tree.texts == ["Focused: GROCERIES (1)", "Uppercase", "[First: GROCERIES]", "[Second: ideas]"])
        try tree.focus("Second")
        #expect(tree.texts.first == "Focused: ideas (2)")
        try tree.type("plans", into: "Second")
        #expect(tree.texts.first == "Focused: plans (2)")
    }
}
