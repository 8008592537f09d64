import Foundation
import RippleUI
import Testing

@Suite @MainActor struct PresentationTests {
    struct Item: Identifiable, Equatable {
        let id: Int
        var title: String
    }

    struct Editor: View {
        @Environment(\.dismiss) private var dismiss
        @State private var draft = ""
        var body: some View {
            VStack {
                TextField("Draft", text: $draft)
                Button("Done") { dismiss() }
            }
        }
    }

    struct Home: View {
        @State private var isEditing = false
        let dismissed: Recorder
        var body: some View {
            VStack {
                Text("Home")
                Button("Edit") { isEditing = true }
            }
            .sheet(isPresented: $isEditing, onDismiss: { dismissed.append("dismissed") }) { Editor() }
        }
    }

    @Test func aDismissedSheetsStateResetsOnTheNextPresentation() throws {
        let dismissed = Recorder()
        let tree = RenderTree(Home(dismissed: dismissed))
        try tree.tap("Edit")
        #expect(tree.isPresentingSheet)
        // The sheet covers the screen: only its content is reachable.
        #expect(tree.texts == ["[Draft: ]", "Done"])
        try tree.type("half-written", into: "Draft")
        #expect(tree.texts == ["[Draft: half-written]", "Done"])
        try tree.tap("Done")
        #expect(!tree.isPresentingSheet)
        #expect(tree.texts == ["Home", "Edit"])
        #expect(dismissed.entries == ["dismissed"])
        try tree.tap("Edit")
        #expect(tree.texts == ["[Draft: ]", "Done"])
        try tree.dismissSheet()
        #expect(dismissed.entries == ["dismissed", "dismissed"])
        #expect(tree.texts == ["Home", "Edit"])
    }

    @Test func aSheetForAnItemIsFreshForEachItem() throws {
        struct Detail: View {
            let item: Item
            @State var taps = 0
            var body: some View { Button("\(item.title) \(taps)") { taps += 1 } }
        }
        struct Lister: View {
            @State var selected: Item?
            let closed: Recorder
            var body: some View {
                VStack {
                    Button("Open A") { selected = Item(id: 1, title: "A") }
                    Button("Open B") { selected = Item(id: 2, title: "B") }
                }
                .sheet(item: $selected, onDismiss: { closed.append("closed") }) { Detail(item: $0) }
            }
        }
        let closed = Recorder()
        let tree = RenderTree(Lister(closed: closed))
        try tree.tap("Open A")
        try tree.tap("A 0")
        #expect(tree.texts == ["A 1"])
        try tree.dismissSheet()
        try tree.tap("Open B")
        #expect(tree.texts == ["B 0"])
        #expect(closed.entries == ["closed"])
    }

    @Test func aMistypedTitleThrowsNamingWhatIsThere() throws {
        let tree = RenderTree(Home(dismissed: Recorder()))
        let error = #expect(throws: RenderTreeLookupError.self) { try tree.tap("Edti") }
        #expect(error?.available == ["Edit"])
        #expect(error?.description == #"no button "Edti" on screen; buttons: "Edit"; texts: "Home", "Edit""#)
        #expect(throws: RenderTreeLookupError.self) { try tree.dismissSheet() }
    }

    @Test func anAlertClosesAfterItsButtonRuns() throws {
        struct Deleter: View {
            @State var asking = false
            @State var deleted = false
            var body: some View {
                Button(deleted ? "Deleted" : "Delete") { asking = true }
                    .alert("Delete the note?", isPresented: $asking) {
                        Button("Delete", role: .destructive) { deleted = true }
                        Button("Cancel", role: .cancel) {}
                    }
            }
        }
        let tree = RenderTree(Deleter())
        try tree.tap("Delete")
        #expect(tree.texts == ["Delete the note?", "Delete", "Cancel"])
        try tree.tap("Delete")
        #expect(!tree.isPresentingSheet)
        #expect(tree.texts == ["Deleted"])
    }
}

/// A list of strings closures can append to; a test can wait for an entry.
@MainActor final class Recorder {
    private(set) var entries: [String] = []
    private var waiters: [(entry: String, continuation: CheckedContinuation<Void, Never>)] = []

    func append(_ entry: String) {
        entries.append(entry)
        let ready = waiters.filter { $0.entry == entry }
        waiters.removeAll { $0.entry == entry }
        ready.forEach { $0.continuation.resume() }
    }

    /// Returns once `entry` has been appended.
    func waitFor(_ entry: String) async {
        if entries.contains(entry) { return }
        await withCheckedContinuation { waiters.append((entry, $0)) }
    }
}
