import RippleUI
import Testing

@Suite @MainActor struct CompositionTests {
    @Test func appStorageIsSharedByKeyAndInjectable() throws {
        enum Sort: String { case title, date }
        struct Settings: View {
            @AppStorage("sort") var sort = Sort.title
            @AppStorage("fontSize") var size = 12
            var body: some View {
                VStack {
                    Button("Sort by date") { sort = .date }
                    Stepper("Size", value: $size, in: 8...20)
                }
            }
        }
        struct Badge: View {
            @AppStorage("sort") var sort = Sort.title
            var body: some View { Text("sorted by \(sort.rawValue)") }
        }
        let store = AppStorageStore(["fontSize": 14])
        let tree = RenderTree(VStack { Settings(); Badge() }.defaultAppStorage(store))
        #expect(tree.texts == ["Sort by date", "[Size: 14]", "sorted by title"])
        try tree.tap("Sort by date")
        #expect(tree.texts.last == "sorted by date")
        #expect(tree.log.last == "Badge: _sort changed")
        #expect(store.value(forKey: "sort") as? String == "date")
        // Another tree on the same store is the app launched again.
        let relaunched = RenderTree(Badge().defaultAppStorage(store))
        #expect(relaunched.texts == ["sorted by date"])
    }

    @Test func theLogNamesTheWrappersProperty() throws {
        struct Field: View {
            @Binding var text: String
            var body: some View {
                VStack {
                    TextField("Draft", text: $text)
                    Text("\(text.count) characters")
                }
            }
        }
        struct Composer: View {
            @State private var draft = ""
            var body: some View { Field(text: $draft) }
        }
        let tree = RenderTree(Composer())
        tree.clearLog()
        try tree.type("hi", into: "Draft")
        // The field reads the composer's state through its binding: the log names the state.
        #expect(tree.log == ["Field: _draft changed"])
    }

    @Test func viewModifiersKeepStateInTheModifiedViewsNode() throws {
        struct Counted: ViewModifier {
            let title: String
            @State private var count = 0
            func body(content: Content) -> some View {
                VStack {
                    content
                    Button("\(title) \(count)") { count += 1 }
                }
            }
        }
        struct Screen: View {
            @State var title = "taps"
            var body: some View {
                VStack {
                    Text("hello").modifier(Counted(title: title))
                    Button("Rename") { title = "hits" }
                }
            }
        }
        let tree = RenderTree(Screen())
        try tree.tap("taps 0")
        try tree.tap("Rename")
        #expect(tree.texts == ["hello", "hits 1", "Rename"])
    }

    @Test func preferencesFlowUpToTheirReaders() throws {
        struct TitleKey: PreferenceKey {
            static let defaultValue: [String] = []
            static func reduce(value: inout [String], nextValue: () -> [String]) { value += nextValue() }
        }
        struct Page: View {
            @State var second = "two"
            var body: some View {
                VStack {
                    Text("a").preference(key: TitleKey.self, value: ["one"])
                    Button("Rename") { second = "deux" }.preference(key: TitleKey.self, value: [second])
                }
            }
        }
        struct Host: View {
            @State var titles: [String] = []
            var body: some View {
                VStack {
                    Text(titles.joined(separator: ","))
                    Page()
                }
                .onPreferenceChange(TitleKey.self) { titles = $0 }
            }
        }
        let tree = RenderTree(Host())
        #expect(tree.texts.first == "one,two")
        try tree.tap("Rename")
        #expect(tree.texts.first == "one,deux")
    }

    @Test func equatableViewsSkipEqualInputs() throws {
        struct Price: View, Equatable {
            let cents: Int
            let note: String
            nonisolated static func == (a: Price, b: Price) -> Bool { a.cents == b.cents }
            var body: some View { Text("\(cents)¢ \(note)") }
        }
        struct Shop: View {
            @State var note = "a"
            var body: some View {
                VStack {
                    Price(cents: 5, note: note).equatable()
                    Button("Note") { note += "a" }
                }
            }
        }
        let tree = RenderTree(Shop())
        try tree.tap("Note")
        #expect(tree.evaluations(of: "Price") == 1)
        #expect(tree.texts.first == "5¢ a")
    }

    @Test func anAppIsARootTheTreeHosts() throws {
        @MainActor final class Library: ObservableObject {
            @Published var books = ["Dune"]
        }
        struct Shelf: View {
            @EnvironmentObject var library: Library
            var body: some View {
                NavigationStack {
                    List(library.books, id: \.self) { Text($0) }
                        .toolbar { Button("Add") { library.books.append("Emma") } }
                        .navigationTitle("Books")
                }
            }
        }
        struct BooksApp: App {
            @StateObject private var library = Library()
            @Environment(\.scenePhase) private var scenePhase
            var body: some Scene {
                WindowGroup { Shelf().environmentObject(library) }
                    .onChange(of: scenePhase) { library.books.append("saved") }
            }
        }
        let tree = RenderTree(BooksApp())
        try tree.tap("Add")
        #expect(tree.texts == ["Dune", "Emma", "Add"])
        tree.scenePhase = .background
        #expect(tree.texts == ["Dune", "Emma", "saved", "Add"])
        #expect(tree.navigationTitle == "Books")
    }
}

// Preview code compiles as written for SwiftUI, and its previews can be rendered.
private struct PreviewedGreeting: View {
    let name: String
    var body: some View { Text("Hello, \(name)") }
}

private struct PreviewedGreeting_Previews: PreviewProvider {
    static var previews: some View {
        PreviewedGreeting(name: "preview")
    }
}

@MainActor @Suite struct PreviewProviderTests {
    @Test func previewsRenderInATree() {
        let tree = RenderTree(PreviewedGreeting_Previews.previews)
        #expect(tree.texts == ["Hello, preview"])
    }
}
