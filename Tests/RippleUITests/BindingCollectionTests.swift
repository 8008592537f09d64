import RippleUI
import Testing

// A binding to a collection is a collection of bindings, by position: `$items[i]`,
// `$model.items[i].flag`. Edits through them reach the source of truth and every reader of it.

struct Chore: Identifiable, Hashable {
    var id: Int
    var title: String
    var isDone = false
}

@Observable final class Shelf {
    var books = [Chore(id: 1, title: "Dune"), Chore(id: 2, title: "Emma")]
    var note = ""
}

struct ChoreBoard: View {
    @State private var chores = [Chore(id: 1, title: "Dishes"), Chore(id: 2, title: "Laundry")]
    var body: some View {
        VStack {
            Toggle("First done", isOn: $chores[0].isDone)
            TextField("Second title", text: $chores[1].title)
            ForEach(chores) { chore in Text("\(chore.title) \(chore.isDone ? "done" : "open")") }
        }
    }
}

struct ShelfRows: View {
    var shelf: Shelf
    var body: some View {
        NavigationStack {
            List {
                ForEach(shelf.books.indices, id: \.self) { index in
                    let book = shelf.books[index]
                    NavigationLink(book.isDone ? "★ \(book.title)" : book.title) {
                        ShelfDetail(shelf: shelf, index: index)
                    }
                }
            }
        }
    }
}

struct ShelfDetail: View {
    @Bindable var shelf: Shelf
    let index: Int
    var body: some View {
        Toggle("Favorite", isOn: $shelf.books[index].isDone)
    }
}

@Suite(.exitTestWatchdog) @MainActor struct BindingCollectionTests {
    @Test func anIndexBindingEditsTheStateAndTheList() throws {
        let tree = RenderTree(ChoreBoard())
        try tree.toggle("First done")
        #expect(tree.texts == ["[First done: on]", "[Second title: Laundry]", "Dishes done", "Laundry open"])
        try tree.type("Ironing", into: "Second title")
        #expect(tree.texts == ["[First done: on]", "[Second title: Ironing]", "Dishes done", "Ironing open"])
        #expect(tree.log == ["ChoreBoard: @identity", "ChoreBoard: _chores changed", "ChoreBoard: _chores changed"])
    }

    @Test func aModelsCollectionBindingReachesTheModelAndTheList() throws {
        let shelf = Shelf()
        let tree = RenderTree(ShelfRows(shelf: shelf))
        try tree.tap("Emma")
        tree.clearLog()
        try tree.toggle("Favorite")
        #expect(shelf.books[1].isDone)
        #expect(!shelf.books[0].isDone)
        #expect(tree.texts == ["[Favorite: on]"])
        // The list read the books; the detail only made a binding (the toggle reads it), as in
        // SwiftUI: it does not re-run.
        #expect(tree.log == ["ShelfRows: Shelf.books changed"])
        try tree.back()
        #expect(tree.texts == ["Dune", "★ Emma"])
    }

    @Test func aBindingOfAModelInTheEnvironmentIsACollectionToo() throws {
        struct Editor: View {
            @Environment(Shelf.self) private var shelf
            var body: some View {
                @Bindable var shelf = shelf
                VStack {
                    ForEach(shelf.books) { book in Text(book.title) }
                    TextField("First", text: $shelf.books[0].title)
                }
            }
        }
        let shelf = Shelf()
        let tree = RenderTree(Editor().environment(shelf))
        try tree.type("Dune Messiah", into: "First")
        #expect(shelf.books.map(\.title) == ["Dune Messiah", "Emma"])
        #expect(tree.texts == ["Dune Messiah", "Emma", "[First: Dune Messiah]"])
    }

    @Test func aCollectionBindingIsARandomAccessCollectionOfBindings() {
        var storage = [Chore(id: 1, title: "a"), Chore(id: 2, title: "b"), Chore(id: 3, title: "c")]
        let binding = Binding(get: { storage }, set: { storage = $0 })
        #expect(binding.count == 3)
        #expect(binding.map(\.wrappedValue.title) == ["a", "b", "c"])
        for element in binding where element.wrappedValue.id != 2 {
            element.wrappedValue.isDone = true
        }
        #expect(storage.map(\.isDone) == [true, false, true])
        binding[binding.index(before: binding.endIndex)].title.wrappedValue = "z"
        #expect(storage.map(\.title) == ["a", "b", "z"])
        // A write of an equal element is skipped.
        var writes = 0
        let counted = Binding(get: { storage }, set: { storage = $0; writes += 1 })
        counted[0].wrappedValue = storage[0]
        #expect(writes == 0)
    }

    @Test func twoIndexBindingsToTheSameStatePositionAreTheSameInput() throws {
        struct Row: View {
            @Binding var chore: Chore
            var body: some View { Text(chore.title) }
        }
        struct Board: View {
            @State private var chores = [Chore(id: 1, title: "Dishes")]
            @State private var other = 0
            var body: some View {
                VStack {
                    Row(chore: $chores[0])
                    Button("Other \(other)") { other += 1 }
                }
            }
        }
        let tree = RenderTree(Board())
        tree.clearLog()
        try tree.tap("Other 0")
        // The row's binding points at the same element with the same value: it does not re-run.
        #expect(tree.log == ["Board: _other changed"])
    }

    @Test func aPositionBindingPastTheEndTraps() async {
        await #expect(processExitsWith: .failure) {
            var storage = [1, 2]
            let binding = Binding(get: { storage }, set: { storage = $0 })
            let last = binding[1]
            storage = [1]
            _ = last.wrappedValue
        }
    }

    @Test func aRowBindingOfADeletedElementTraps() async {
        // SwiftUI's row binding goes by index: it would read another element, or crash. Ripple's goes
        // by id and traps, naming the element, rather than quietly showing its last value.
        await #expect(processExitsWith: .failure) { @MainActor in
            struct Rows: View {
                @State var chores = [Chore(id: 1, title: "a"), Chore(id: 2, title: "b")]
                @State var kept: Binding<Chore>?
                var body: some View {
                    VStack {
                        ForEach($chores) { $chore in
                            Button(chore.title) { kept = $chore }
                        }
                        Button("Delete a") { chores.removeFirst() }
                        if let kept { Text(kept.wrappedValue.title) }
                    }
                }
            }
            let tree = RenderTree(Rows())
            try? tree.tap("a")
            try? tree.tap("Delete a")
        }
    }
}
