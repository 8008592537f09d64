import Foundation
import RippleUI
import Testing

// Presented content owned by a view that leaves the hierarchy: a view link's pushed screen goes
// with its link (and every screen pushed above it), a sheet with its presenter. The screen that
// goes is not evaluated in the update that removes its owner (its inputs are stale), and its
// `onDisappear` runs once, as in SwiftUI.
@Suite @MainActor struct OwnerRemovalTests {
    struct Book: Identifiable, Hashable {
        var id: Int
        var title: String
        var isFavorite: Bool
    }

    @Observable final class Shelf {
        var books = [
            Book(id: 1, title: "Dune", isFavorite: false),
            Book(id: 2, title: "Neuromancer", isFavorite: true),
        ]
        var showsNotes = true
        /// What `onDisappear` actions saw, in order.
        var disappeared: [String] = []
    }

    struct Shelves: View {
        @Environment(Shelf.self) var shelf
        @State private var favoritesOnly = false

        var filtered: [Book] { shelf.books.filter { !favoritesOnly || $0.isFavorite } }

        var body: some View {
            NavigationStack {
                List {
                    Toggle("Favorites only", isOn: $favoritesOnly)
                    ForEach(filtered) { book in
                        NavigationLink { BookDetail(book: book) } label: { Text(book.title) }
                    }
                }
                .navigationTitle("Books")
            }
        }
    }

    struct BookDetail: View {
        @Environment(Shelf.self) var shelf
        var book: Book
        @State private var editing = false

        var index: Int { shelf.books.firstIndex { $0.id == book.id }! }

        var body: some View {
            @Bindable var shelf = shelf
            VStack {
                Toggle("Favorite", isOn: $shelf.books[index].isFavorite)
                Text(book.isFavorite ? "Status: favorite" : "Status: not favorite")
                if shelf.showsNotes {
                    NavigationLink("Notes") { Notes(book: book) }
                }
                Button("Edit") { editing = true }
            }
            .navigationTitle(book.title)
            .onDisappear { shelf.disappeared.append("detail \(book.title)") }
            .sheet(isPresented: $editing) { Editor(book: book) }
        }
    }

    struct Notes: View {
        @Environment(Shelf.self) var shelf
        var book: Book
        var body: some View {
            @Bindable var shelf = shelf
            let index = shelf.books.firstIndex { $0.id == book.id }!
            VStack {
                Text(book.isFavorite ? "Notes on a favorite" : "Notes")
                Toggle("Favorite here", isOn: $shelf.books[index].isFavorite)
                Button("Hide notes") { shelf.showsNotes = false }
            }
            .navigationTitle("Notes on \(book.title)")
            .onDisappear { shelf.disappeared.append("notes \(book.title)") }
        }
    }

    struct Editor: View {
        @Environment(Shelf.self) var shelf
        var book: Book
        var body: some View {
            @Bindable var shelf = shelf
            let index = shelf.books.firstIndex { $0.id == book.id }!
            VStack {
                Text(book.isFavorite ? "Editing a favorite" : "Editing")
                Toggle("Favorite in sheet", isOn: $shelf.books[index].isFavorite)
            }
            .onDisappear { shelf.disappeared.append("editor \(book.title)") }
        }
    }

    let shelf = Shelf()
    let tree: RenderTree
    init() { tree = RenderTree(Shelves().environment(shelf)) }

    @Test func unfavoritingOnTheDetailUnderTheFilterPopsTheDetail() throws {
        try tree.toggle("Favorites only")
        try tree.tap("Neuromancer")
        #expect(tree.navigationTitles == ["Books", "Neuromancer"])
        let detailRuns = tree.evaluations(of: BookDetail.self)
        tree.clearLog()

        try tree.toggle("Favorite")

        #expect(!shelf.books[1].isFavorite)
        // The link that pushed the detail left the filtered list: the detail went with it.
        #expect(tree.navigationTitles == ["Books"])
        #expect(tree.texts == ["[Favorites only: on]"])
        #expect(!tree.exists("Status: favorite"))
        // Its body did not run with the old book in that update.
        #expect(tree.evaluations(of: BookDetail.self) == detailRuns)
        #expect(tree.log == ["Shelves: Shelf.books changed"])
        #expect(shelf.disappeared == ["detail Neuromancer"])
        // Nothing was left behind: the list works, and pushing again shows the current book.
        try tree.toggle("Favorites only")
        try tree.tap("Neuromancer")
        #expect(tree.exists("Status: not favorite"))
    }

    @Test func removingTheLowerLinkPopsEveryScreenAboveIt() throws {
        try tree.toggle("Favorites only")
        try tree.tap("Neuromancer")
        try tree.tap("Notes")
        #expect(tree.navigationTitles == ["Books", "Neuromancer", "Notes on Neuromancer"])
        let detailRuns = tree.evaluations(of: BookDetail.self)
        let notesRuns = tree.evaluations(of: Notes.self)

        try tree.toggle("Favorite here")

        #expect(tree.navigationTitles == ["Books"])
        #expect(tree.evaluations(of: BookDetail.self) == detailRuns)
        #expect(tree.evaluations(of: Notes.self) == notesRuns)
        #expect(shelf.disappeared.sorted() == ["detail Neuromancer", "notes Neuromancer"])
    }

    @Test func removingTheUpperLinkPopsOnlyItsScreen() throws {
        try tree.tap("Dune")
        try tree.tap("Notes")
        let notesRuns = tree.evaluations(of: Notes.self)

        try tree.tap("Hide notes")

        // The detail's link to the notes is gone, the detail itself stays.
        #expect(tree.navigationTitles == ["Books", "Dune"])
        #expect(tree.evaluations(of: Notes.self) == notesRuns)
        #expect(shelf.disappeared == ["notes Dune"])
        #expect(!tree.exists("Notes"))
    }

    @Test func aSheetOverAPoppedScreenIsDismissedWithIt() throws {
        try tree.toggle("Favorites only")
        try tree.tap("Neuromancer")
        try tree.tap("Edit")
        #expect(tree.isPresentingSheet)
        let editorRuns = tree.evaluations(of: Editor.self)
        let detailRuns = tree.evaluations(of: BookDetail.self)

        try tree.toggle("Favorite in sheet")

        #expect(!tree.isPresentingSheet)
        #expect(tree.navigationTitles == ["Books"])
        #expect(tree.evaluations(of: Editor.self) == editorRuns)
        #expect(tree.evaluations(of: BookDetail.self) == detailRuns)
        #expect(shelf.disappeared.sorted() == ["detail Neuromancer", "editor Neuromancer"])
    }

    // A sheet presented by a row: the row leaves the list, the sheet goes with it.
    struct RowSheets: View {
        @Environment(Shelf.self) var shelf
        var body: some View {
            List {
                ForEach(shelf.books.filter(\.isFavorite)) { book in
                    EditableRow(book: book)
                }
            }
        }
    }

    struct EditableRow: View {
        var book: Book
        @State private var editing = false
        var body: some View {
            Button(book.title) { editing = true }
                .sheet(isPresented: $editing) { Editor(book: book) }
        }
    }

    @Test func aSheetWhosePresenterLeavesIsDismissedWithoutRunningItsBody() throws {
        let tree = RenderTree(RowSheets().environment(shelf))
        try tree.tap("Neuromancer")
        #expect(tree.isPresentingSheet)
        let editorRuns = tree.evaluations(of: Editor.self)

        try tree.toggle("Favorite in sheet")

        #expect(!tree.isPresentingSheet)
        #expect(tree.texts.isEmpty)
        #expect(tree.evaluations(of: Editor.self) == editorRuns)
        #expect(shelf.disappeared == ["editor Neuromancer"])
    }

    // `navigationDestination(isPresented:)`: pushed while the binding is true, which a pop sets
    // false; the screen goes when the modifier's view leaves.
    struct Settings: View {
        @Environment(Shelf.self) var shelf
        @State private var showsAbout = false
        var body: some View {
            NavigationStack {
                VStack {
                    Text(showsAbout ? "about shown" : "about hidden")
                    if shelf.showsNotes {
                        Button("About") { showsAbout = true }
                            .navigationDestination(isPresented: $showsAbout) { About() }
                    }
                }
                .navigationTitle("Settings")
            }
        }
    }

    struct About: View {
        @Environment(Shelf.self) var shelf
        var body: some View {
            VStack {
                Text(shelf.showsNotes ? "About, with notes" : "About")
                Button("Hide notes") { shelf.showsNotes = false }
            }
            .navigationTitle("About")
            .onDisappear { shelf.disappeared.append("about") }
        }
    }

    @Test func aPresentedDestinationPushesWhileItsBindingIsTrueAndPoppingSetsItFalse() throws {
        let tree = RenderTree(Settings().environment(shelf))
        try tree.tap("About")
        #expect(tree.navigationTitles == ["Settings", "About"])
        #expect(tree.texts == ["About, with notes", "Hide notes"])
        try tree.back()
        #expect(tree.navigationTitles == ["Settings"])
        #expect(tree.texts == ["about hidden", "About"])
        #expect(shelf.disappeared == ["about"])
        try tree.tap("About")
        #expect(tree.navigationTitle == "About")
    }

    @Test func aPresentedDestinationGoesWithTheViewThatPresentsIt() throws {
        let tree = RenderTree(Settings().environment(shelf))
        try tree.tap("About")
        let aboutRuns = tree.evaluations(of: About.self)

        try tree.tap("Hide notes")

        #expect(tree.navigationTitles == ["Settings"])
        #expect(tree.evaluations(of: About.self) == aboutRuns)
        #expect(shelf.disappeared == ["about"])
        // The owner left without a pop: its binding was not written.
        #expect(tree.texts == ["about shown"])
    }

    struct RowPopovers: View {
        @Environment(Shelf.self) var shelf
        var body: some View {
            List {
                ForEach(shelf.books.filter(\.isFavorite)) { book in
                    PopoverRow(book: book)
                }
            }
        }
    }

    struct PopoverRow: View {
        var book: Book
        @State private var editing = false
        var body: some View {
            Button(book.title) { editing = true }
                .popover(isPresented: $editing, arrowEdge: .top) { Editor(book: book) }
        }
    }

    @Test func aPopoverWhosePresenterLeavesIsDismissedWithoutRunningItsBody() throws {
        let tree = RenderTree(RowPopovers().environment(shelf))
        try tree.tap("Neuromancer")
        #expect(tree.isPresentingSheet)
        let editorRuns = tree.evaluations(of: Editor.self)

        try tree.toggle("Favorite in sheet")

        #expect(!tree.isPresentingSheet)
        #expect(tree.evaluations(of: Editor.self) == editorRuns)
        #expect(shelf.disappeared == ["editor Neuromancer"])
    }

    /// Holds a tree so that a detached task can release it.
    final class TreeHolder: @unchecked Sendable {
        var tree: RenderTree?
    }

    struct Plain: View {
        @State private var showsAbout = false
        var body: some View {
            NavigationStack {
                List {
                    NavigationLink("Open") { Text("Opened") }
                    Button("About") { showsAbout = true }
                        .navigationDestination(isPresented: $showsAbout) { Text("About") }
                }
            }
        }
    }

    @Test func aTreeReleasedOffTheMainActorAfterPushesDoesNotTrapAndIsNotKeptAlive() async throws {
        let plain = TreeHolder()
        plain.tree = RenderTree(Plain())
        try plain.tree?.tap("Open")
        try plain.tree?.back()
        try plain.tree?.tap("About")
        let list = TreeHolder()
        list.tree = RenderTree(Shelves().environment(shelf))
        try list.tree?.tap("Dune")  // a screen with an onDisappear action
        weak let releasedPlain = plain.tree
        weak let releasedList = list.tree
        // The last references go on another thread (as a suite's deinit may): the pushed screens
        // and their onDisappear stay untouched, and nothing keeps the trees alive.
        await Task.detached {
            plain.tree = nil
            list.tree = nil
        }.value
        #expect(releasedPlain == nil && releasedList == nil)
        #expect(shelf.disappeared.isEmpty)
    }

    /// Whether a task saw its cancellation.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    struct Waiting: View {
        let cancelled: Flag
        var body: some View {
            Text("waiting")
                .task {
                    try? await Task.sleep(for: .seconds(60))
                    if Task.isCancelled { cancelled.set() }
                }
        }
    }

    @Test func aTreeReleasedOffTheMainActorCancelsItsTasksWithoutTrapping() async throws {
        let cancelled = Flag()
        let holder = TreeHolder()
        holder.tree = RenderTree(Waiting(cancelled: cancelled))
        await Task.detached { holder.tree = nil }.value
        for _ in 0..<500 where !cancelled.isSet { try await Task.sleep(for: .milliseconds(10)) }
        #expect(cancelled.isSet)
    }
}
