import RippleUI
import Testing

// `.environment(model)` and `@Environment(Model.self)`: the iOS 17 way to share an Observable model.

/// An `Observable` model written by hand with a registrar (property-level tracking).
final class Library: Observable, @unchecked Sendable {
    private let registrar = TrackingRegistrar()
    private var storedBooks = 0
    private var storedLoans = 0

    var books: Int {
        get { registrar.access(self, keyPath: \.books); return storedBooks }
        set { registrar.withMutation(of: self, keyPath: \.books) { storedBooks = newValue } }
    }

    var loans: Int {
        get { registrar.access(self, keyPath: \.loans); return storedLoans }
        set { registrar.withMutation(of: self, keyPath: \.loans) { storedLoans = newValue } }
    }
}

@MainActor @Suite(.exitTestWatchdog) struct ObservableEnvironmentTests {
    struct Shelf: View {
        @Environment(Library.self) private var library
        var body: some View { Text("books \(library.books)") }
    }

    struct Desk: View {
        @Environment(Library.self) private var library
        var body: some View { Text("loans \(library.loans)") }
    }

    struct Optional: View {
        @Environment(Library.self) private var library: Library?
        var body: some View { Text(library.map { "books \($0.books)" } ?? "no library") }
    }

    struct Building: View {
        @State var library = Library()
        var body: some View {
            VStack {
                Shelf()
                Desk()
                Button("Replace") {
                    let next = Library()
                    next.books = 10
                    library = next
                }
            }
            .environment(library)
        }
    }

    @Test func aReaderReRunsWhenAPropertyItReadChanges() throws {
        let library = Library()
        let tree = RenderTree(VStack { Shelf(); Desk() }.environment(library))
        tree.clearLog()
        library.books += 1
        tree.flush()
        #expect(tree.log == ["Shelf: Library.books changed"])
        #expect(tree.texts == ["books 1", "loans 0"])
    }

    @Test func aReaderDoesNotReRunWhenAPropertyItDidNotReadChanges() throws {
        let library = Library()
        let tree = RenderTree(VStack { Shelf(); Desk() }.environment(library))
        tree.clearLog()
        library.loans += 1
        tree.flush()
        #expect(tree.log == ["Desk: Library.loans changed"])
        #expect(tree.evaluations(of: "Shelf") == 1)
    }

    @Test func replacingTheObjectReRunsItsReaders() throws {
        let tree = RenderTree(Building())
        #expect(tree.texts.prefix(2) == ["books 0", "loans 0"])
        tree.clearLog()
        try tree.tap("Replace")
        #expect(tree.texts.prefix(2) == ["books 10", "loans 0"])
        #expect(tree.log == ["Building: _library changed", "Shelf: _library changed", "Desk: _library changed"])
    }

    @Test func theOptionalFormReadsNilWithoutAnAncestor() throws {
        let library = Library()
        library.books = 3
        let tree = RenderTree(VStack { Optional(); Optional().environment(library) })
        #expect(tree.texts == ["no library", "books 3"])
    }

    @Test func aMissingObjectTrapsNamingTheType() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run { _ = RenderTree(Shelf()) }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("No Observable object of type Library found"))
    }

    @Observable final class Flag {
        var on = false
    }

    struct FlagLabel: View {
        @Environment(Flag.self) private var flag
        var body: some View { Text(flag.on ? "is on" : "is off") }
    }

    struct FlagHolder: View {
        @State private var flag = Flag()
        var body: some View {
            VStack {
                Toggle("On", isOn: $flag.on)
                FlagLabel()
            }
            .environment(flag)
        }
    }

    /// `$flag.on` writes through the `@State` binding, which stores the same object back: no
    /// change of the state, so the holder (which reads `flag`, not `flag.on`) does not re-run.
    @Test func aBindingToAPropertyOfAStateModelDoesNotReRunTheHolder() throws {
        let tree = RenderTree(FlagHolder())
        tree.clearLog()
        try tree.toggle("On")
        tree.flush()
        #expect(!tree.log.contains { $0.hasPrefix("FlagHolder") })
        #expect(tree.log.contains { $0.hasPrefix("FlagLabel") })
        #expect(tree.texts.contains("is on"))
    }
}

