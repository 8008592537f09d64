import RippleUI
import Testing

/// `View` is main-actor isolated, as in SwiftUI: bodies and actions call `@MainActor` models
/// directly, with no `await` and no `MainActor.assumeIsolated`.
@Suite @MainActor struct MainActorViewTests {
    @MainActor final class Library: ObservableObject {
        @Published private(set) var titles: [String] = []
        func add(_ title: String) { titles.append(title) }
        var summary: String { "\(titles.count) books" }
    }

    struct Shelf: View {
        @StateObject var library = Library()
        var body: some View {
            VStack {
                Text(library.summary)
                Button("Add") { library.add("Dune") }
            }
        }
    }

    @Test func bodiesAndActionsCallMainActorModels() throws {
        let tree = RenderTree(Shelf())
        #expect(tree.texts == ["0 books", "Add"])
        try tree.tap("Add")
        #expect(tree.texts == ["1 books", "Add"])
        #expect(tree.log == ["Shelf: @identity", "Shelf: _library changed"])
    }

    @Test func aModelChangedFromAnotherThreadOnlyMarksTheTree() async throws {
        final class Counter: ObservableObject, @unchecked Sendable {
            @Published var value = 0
        }
        struct Face: View {
            @ObservedObject var counter: Counter
            var body: some View { Text("\(counter.value)") }
        }
        let counter = Counter()
        let tree = RenderTree(Face(counter: counter))
        await Task.detached { counter.value = 1 }.value
        #expect(tree.texts == ["0"])
        tree.flush()
        #expect(tree.texts == ["1"])
    }
}
