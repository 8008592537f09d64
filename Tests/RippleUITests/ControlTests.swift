import Foundation
import RippleUI
import Testing

@Suite @MainActor struct ControlTests {
    @Test func aDisabledButtonIgnoresTaps() throws {
        struct Adder: View {
            @State var name = ""
            @State var items: [String] = []
            var body: some View {
                VStack {
                    TextField("Name", text: $name)
                    Button(action: {
                        items.append(name)
                        name = ""
                    }) {
                        Image(systemName: "plus.circle.fill")
                            .accessibilityLabel("Add attendee")
                    }
                    .disabled(name.isEmpty)
                    Text("\(items.count) items")
                }
            }
        }
        let tree = RenderTree(Adder())
        #expect(try tree.isEnabled("Add attendee") == false)
        try tree.tap("Add attendee")
        #expect(tree.texts.last == "0 items")
        try tree.type("Ann", into: "Name")
        #expect(try tree.isEnabled("Add attendee"))
        try tree.tap("plus.circle.fill")
        #expect(tree.texts == ["[Name: ]", "1 items"])
    }

    @Test func slidersSteppersPickersAndToggles() throws {
        enum Theme: String, CaseIterable, Identifiable {
            case sky, sun
            var id: Self { self }
        }
        struct Settings: View {
            @State var minutes = 5.0
            @State var rounds = 1
            @State var theme = Theme.sky
            @State var sound = false
            var body: some View {
                Form {
                    Slider(value: $minutes, in: 5...30, step: 1) { Text("Length") }
                    Stepper("Rounds", value: $rounds, in: 1...3)
                    Picker("Theme", selection: $theme) {
                        ForEach(Theme.allCases) { theme in
                            Label(theme.rawValue.capitalized, systemImage: "paintpalette").tag(theme)
                        }
                    }
                    Toggle(isOn: $sound) { Text("Sound") }
                    ProgressView(value: minutes, total: 30)
                }
            }
        }
        let tree = RenderTree(Settings())
        #expect(tree.texts == ["[Length: 5]", "[Rounds: 1]", "[Theme: Sky]", "[Sound: off]", "[progress: 17%]"])
        try tree.slide("Length", to: 12.4)
        try tree.increment("Rounds")
        try tree.increment("Rounds")
        try tree.increment("Rounds")
        try tree.select("Sun", in: "Theme")
        try tree.toggle("Sound")
        #expect(tree.texts == ["[Length: 12]", "[Rounds: 3]", "[Theme: Sun]", "[Sound: on]", "[progress: 40%]"])
        try tree.slide("Length", to: 99)
        try tree.decrement("Rounds")
        #expect(tree.texts.prefix(2) == ["[Length: 30]", "[Rounds: 2]"])
        let error = #expect(throws: RenderTreeLookupError.self) { try tree.select("Moon", in: "Theme") }
        #expect(error?.available == ["Sky", "Sun"])
    }

    @Test func focusStateFollowsTheFocusedField() throws {
        enum Field: Hashable { case title, body }
        struct Compose: View {
            @State var title = ""
            @State var text = ""
            @FocusState var focus: Field?
            @State var submitted = 0
            var body: some View {
                VStack {
                    TextField("Title", text: $title).focused($focus, equals: .title)
                        .onSubmit { focus = .body }
                    TextField("Body", text: $text).focused($focus, equals: .body)
                        .onSubmit { submitted += 1 }
                    Text("focus: \(focus.map { "\($0)" } ?? "none") submitted: \(submitted)")
                }
            }
        }
        let tree = RenderTree(Compose())
        #expect(tree.focusedField == nil)
        try tree.focus("Title")
        #expect(tree.focusedField == "Title")
        try tree.submit("Title")
        #expect(tree.focusedField == "Body")
        try tree.submit("Body")
        #expect(tree.texts.last == "focus: body submitted: 1")
    }

    @Test func textsOfDatesLabelsAndImages() throws {
        // Noon UTC on 1 January 1970: the same date in every time zone from -11 to +11 hours.
        let date = Date(timeIntervalSince1970: 43_200)
        struct Card: View {
            let date: Date
            var body: some View {
                HStack(alignment: .top, spacing: 4) {
                    Label("Meetings", systemImage: "calendar")
                    Spacer()
                    Text(date, style: .date).font(.caption).foregroundStyle(.secondary)
                    Divider()
                    ZStack {
                        RoundedRectangle(cornerRadius: 16).fill(Color.blue)
                        Circle().strokeBorder(lineWidth: 24)
                        Text("in a ") + Text("circle").bold()
                    }
                }
                .padding()
                .frame(maxWidth: .infinity)
                .background(Color.yellow)
                .clipShape(Capsule())
                .tint(.red)
            }
        }
        let tree = RenderTree(Card(date: date))
        #expect(tree.texts == ["Meetings", "January 1, 1970", "in a circle"])
    }
}
