import Foundation
import RippleUI
import Testing

@Suite @MainActor struct NavigationTests {
    struct Note: Identifiable, Hashable {
        let id: Int
        var title: String
    }

    struct Detail: View {
        let note: Note
        @Environment(\.dismiss) private var dismiss
        @State private var views = 0
        var body: some View {
            VStack {
                Text("Viewing \(note.title) \(views)")
                Button("Look again") { views += 1 }
                Button("Close") { dismiss() }
            }
            .navigationTitle(note.title)
        }
    }

    struct Notes: View {
        let notes = [Note(id: 1, title: "Groceries"), Note(id: 2, title: "Ideas")]
        var body: some View {
            NavigationStack {
                List(notes) { note in
                    NavigationLink(note.title) { Detail(note: note) }
                }
                .navigationTitle("Notes")
                .toolbar {
                    ToolbarItem(placement: .primaryAction) { Button("Add") {} }
                }
            }
        }
    }

    @Test func pushAndPopAreTreeState() throws {
        let tree = RenderTree(Notes())
        #expect(tree.navigationTitles == ["Notes"])
        #expect(tree.texts == ["Groceries", "Ideas", "Add"])
        try tree.tap("Ideas")
        #expect(tree.navigationTitles == ["Notes", "Ideas"])
        #expect(tree.navigationTitle == "Ideas")
        // Only the top screen is reachable: the list and its toolbar are covered.
        #expect(tree.texts == ["Viewing Ideas 0", "Look again", "Close"])
        #expect(throws: RenderTreeLookupError.self) { try tree.tap("Add") }
        try tree.tap("Look again")
        #expect(tree.texts.first == "Viewing Ideas 1")
        try tree.back()
        #expect(tree.navigationTitles == ["Notes"])
        try tree.tap("Ideas")
        // A popped screen's state is gone.
        #expect(tree.texts.first == "Viewing Ideas 0")
        try tree.tap("Close")
        #expect(tree.navigationTitle == "Notes")
        #expect(throws: RenderTreeLookupError.self) { try tree.back() }
    }

    @Test func valueLinksPushThroughABoundPath() throws {
        struct Router: View {
            @State var path: [Int] = []
            var body: some View {
                NavigationStack(path: $path) {
                    VStack {
                        Text("Depth \(path.count)")
                        NavigationLink("Open 7", value: 7)
                    }
                    .navigationDestination(for: Int.self) { number in
                        VStack {
                            Text("Number \(number)")
                            NavigationLink("Next", value: number + 1)
                            Button("Home") { path.removeAll() }
                        }
                    }
                }
            }
        }
        let tree = RenderTree(Router())
        try tree.tap("Open 7")
        #expect(tree.texts == ["Number 7", "Next", "Home"])
        try tree.tap("Next")
        #expect(tree.texts == ["Number 8", "Next", "Home"])
        try tree.back()
        #expect(tree.texts.first == "Number 7")
        try tree.tap("Next")
        try tree.tap("Home")
        #expect(tree.texts == ["Depth 0", "Open 7"])
    }
}

/// A static destination behind each form of a view link.
struct StaticDestination: View {
    var body: some View { Text("destination") }
}

struct TitledClosureLinkScreen: View {
    var body: some View { NavigationStack { List { NavigationLink("Open") { StaticDestination() } } } }
}

struct DestinationValueLinkScreen: View {
    var body: some View {
        NavigationStack { List { NavigationLink(destination: StaticDestination()) { Text("Open") } } }
    }
}

@Suite(.exitTestWatchdog) struct PushedViewLinkTests {
    /// A pushed link is updated whenever its stack is evaluated; an unchanged destination must not
    /// mark the stack again (it used to, pass after pass, until the flush gave up with a warning).
    @Test func pushingAndPoppingAViewLinkSettlesInOnePass() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let shown = await MainActor.run { () -> Bool in
                var shown = true
                for screen in [AnyView(TitledClosureLinkScreen()), AnyView(DestinationValueLinkScreen())] {
                    let tree = RenderTree(screen)
                    do {
                        try tree.tap("Open")
                        shown = shown && tree.texts.contains("destination")
                        try tree.back()
                        shown = shown && !tree.texts.contains("destination")
                    } catch {
                        shown = false
                    }
                }
                return shown
            }
            if !shown { exit(1) }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!output.contains("flush stopped"), "stderr was \(output.suffix(300))")
    }
}
