#if !canImport(SwiftUI)
import Foundation
import Notes
import RippleUI
import Testing

/// Drives the Notes app the way a user does: through what is on screen.
@Suite @MainActor struct NotesAppTests {
    /// The app's list, with its own store and settings (tests share nothing).
    func launch(store: NoteStore = NoteStore(), settings: AppStorageStore = AppStorageStore()) async -> RenderTree {
        let tree = RenderTree(NoteList().environmentObject(store).defaultAppStorage(settings))
        await tree.waitForTasks()
        return tree
    }

    @Test func theListLoadsWhenItAppears() async throws {
        let store = NoteStore()
        let tree = RenderTree(NoteList().environmentObject(store).defaultAppStorage(AppStorageStore()))
        // The loading task has started, not yet run.
        #expect(tree.texts == ["0 notes", "[Sort by title: off]"])
        await tree.waitForTasks()
        #expect(tree.navigationTitle == "Notes")
        #expect(tree.texts == ["2 notes", "Ideas", "Groceries", "[Sort by title: off]"])
    }

    @Test func listToDetailToEditSheetAndBack() async throws {
        let tree = await launch()
        try tree.tap("Groceries")
        #expect(tree.navigationTitles == ["Notes", "Groceries"])
        #expect(tree.texts == ["Note", "Milk, eggs, tea", "May 28, 2026", "[Pinned: off]", "Edit"])

        try tree.tap("Edit")
        #expect(tree.isPresentingSheet)
        #expect(tree.focusedField == "Title")
        try tree.type("Shopping", into: "Title")
        #expect(tree.navigationTitle == "Shopping")
        try tree.tap("Save")
        #expect(!tree.isPresentingSheet)
        #expect(tree.navigationTitles == ["Notes", "Shopping"])

        try tree.toggle("Pinned")
        try tree.back()
        #expect(tree.texts == ["2 notes", "Shopping", "Ideas", "[Sort by title: off]"])
    }

    @Test func cancellingAnEditDropsTheDraft() async throws {
        let tree = await launch()
        try tree.tap("Ideas")
        try tree.tap("Edit")
        try tree.type("Half-baked", into: "Title")
        try tree.tap("Cancel")
        #expect(tree.navigationTitle == "Ideas")
        // The dismissed sheet's state is gone: the next edit starts from the note again.
        try tree.tap("Edit")
        #expect(tree.texts.contains("[Title: Ideas]"))
        try tree.dismissSheet()
        #expect(tree.navigationTitle == "Ideas")
    }

    @Test func aNewNoteNeedsATitle() async throws {
        let tree = await launch()
        try tree.tap("New Note")
        #expect(tree.navigationTitle == "New Note")
        #expect(try tree.isEnabled("Save") == false)
        try tree.tap("Save")
        #expect(tree.isPresentingSheet)
        try tree.type("Books", into: "Title")
        try tree.type("Dune", into: "Text")
        try tree.tap("Save")
        #expect(tree.texts == ["3 notes", "Books", "Ideas", "Groceries", "[Sort by title: off]"])
    }

    @Test func theSortSettingIsStored() async throws {
        let settings = AppStorageStore()
        let tree = await launch(settings: settings)
        try tree.toggle("Sort by title")
        #expect(tree.texts == ["2 notes", "Groceries", "Ideas", "[Sort by title: on]"])
        // Launched again with the same settings: still sorted by title.
        let again = await launch(settings: settings)
        #expect(again.texts == ["2 notes", "Groceries", "Ideas", "[Sort by title: on]"])
    }

    @Test func swipeToDelete() async throws {
        let tree = await launch()
        try tree.delete("Ideas")
        #expect(tree.texts == ["1 notes", "Groceries", "[Sort by title: off]"])
    }

    @Test func aMistypedTitleFailsNamingWhatIsThere() async throws {
        let tree = await launch()
        let error = #expect(throws: RenderTreeLookupError.self) { try tree.tap("Groceris") }
        #expect(error?.available == ["Ideas", "Groceries", "New Note"])
    }

    @Test func theAppSavesWhenItGoesToTheBackground() async throws {
        let store = NoteStore()
        let tree = RenderTree(NotesApp(store: store))
        await tree.waitForTasks()
        try tree.tap("Groceries")
        try tree.toggle("Pinned")
        tree.scenePhase = .inactive
        #expect(store.saved == nil)
        tree.scenePhase = .background
        #expect(store.saved?.map(\.title) == ["Groceries", "Ideas"])
        #expect(store.saved?.first?.isPinned == true)
    }
}
#endif
