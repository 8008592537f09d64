#if !canImport(SwiftUI)
import Foundation
import RippleUI
import Scrumdinger
import Testing

/// Drives Scrumdinger the way a user does, through what is on screen, and checks the screen after
/// every step.
@Suite @MainActor struct ScrumdingerTests {
    /// The list's texts for the sample data: a card per scrum (title, attendees, minutes).
    static let sampleList = ["Design", "4", "10", "App Dev", "5", "5", "Web Dev", "10", "5"]

    /// App Dev's detail screen, with `history` as its history section.
    static func appDevDetail(history: String = "No meetings yet") -> [String] {
        [
            "Meeting Info", "Start Meeting", "Length", "5 minutes",
            "Attendees", "Katie", "Gray", "Euna", "Luis", "Darla",
            "History", history, "Edit",
        ]
    }

    /// The app with its store's file in `file`, after its loading task has run.
    func launch(_ file: MemoryFile = MemoryFile(scrums: DailyScrum.sampleData)) async -> (RenderTree, ScrumStore) {
        let store = ScrumStore(file: file)
        let tree = RenderTree(ScrumdingerApp(store: store))
        await tree.waitForTasks()
        return (tree, store)
    }

    @Test func theAppLoadsTheSavedScrums() async throws {
        let store = ScrumStore(file: MemoryFile(scrums: DailyScrum.sampleData))
        let tree = RenderTree(ScrumdingerApp(store: store))
        // The loading task has started, not yet run.
        #expect(tree.navigationTitle == "Daily Scrums")
        #expect(tree.texts == [])
        await tree.waitForTasks()
        #expect(!tree.isPresentingSheet)
        #expect(tree.texts == Self.sampleList)
    }

    @Test func aFirstLaunchShowsNoScrums() async throws {
        let (tree, _) = await launch(MemoryFile())
        #expect(!tree.isPresentingSheet)
        #expect(tree.texts == [])
    }

    @Test func aFailedLoadShowsTheErrorSheetAndDismissingItLoadsTheSampleData() async throws {
        let (tree, store) = await launch(MemoryFile(failsToRead: true))
        #expect(tree.isPresentingSheet)
        #expect(tree.texts.first == "An error has occurred!")
        #expect(tree.texts.count == 4)  // The error's description is the second.
        #expect(tree.texts.suffix(2) == ["Scrumdinger will load sample data and continue.", "Dismiss"])
        #expect(store.scrums.isEmpty)
        try tree.tap("Dismiss")
        #expect(!tree.isPresentingSheet)
        #expect(store.scrums.map(\.title) == ["Design", "App Dev", "Web Dev"])
        #expect(tree.texts == Self.sampleList)
    }

    @Test func addAScrumThroughTheNewScrumSheet() async throws {
        let (tree, store) = await launch()
        try tree.tap("New Scrum")
        #expect(tree.isPresentingSheet)
        #expect(
            tree.texts == [
                "Meeting Info", "[Title: ]", "[Length: 5]", "5 minutes", "Attendees", "[New Attendee: ]",
                "Dismiss", "Add",
            ])
        #expect(try tree.isEnabled("Add attendee") == false)
        try tree.type("Retro", into: "Title")
        try tree.slide("Length", to: 15)
        try tree.type("Ann", into: "New Attendee")
        try tree.tap("Add attendee")
        try tree.type("Bo", into: "New Attendee")
        try tree.tap("Add attendee")
        #expect(
            tree.texts == [
                "Meeting Info", "[Title: Retro]", "[Length: 15]", "15 minutes", "Attendees", "Ann", "Bo",
                "[New Attendee: ]", "Dismiss", "Add",
            ])
        try tree.tap("Add")
        #expect(!tree.isPresentingSheet)
        #expect(store.scrums.map(\.title) == ["Design", "App Dev", "Web Dev", "Retro"])
        #expect(tree.texts == Self.sampleList + ["Retro", "2", "15"])
    }

    @Test func dismissingTheNewScrumSheetAddsNothing() async throws {
        let (tree, _) = await launch()
        try tree.tap("New Scrum")
        try tree.type("Half-baked", into: "Title")
        try tree.tap("Dismiss")
        #expect(!tree.isPresentingSheet)
        #expect(tree.texts == Self.sampleList)
        // The sheet's state went with it: the next new scrum starts empty.
        try tree.tap("New Scrum")
        #expect(tree.texts.prefix(2) == ["Meeting Info", "[Title: ]"])
    }

    @Test func navigateToADetailScreenAndBack() async throws {
        let (tree, _) = await launch()
        try tree.tap("App Dev")
        #expect(tree.navigationTitles == ["Daily Scrums", "App Dev"])
        #expect(tree.texts == Self.appDevDetail())
        try tree.back()
        #expect(tree.navigationTitles == ["Daily Scrums"])
        #expect(tree.texts == Self.sampleList)
    }

    @Test func editTheDraftAndSaveItWithDone() async throws {
        let (tree, store) = await launch()
        try tree.tap("Design")
        try tree.tap("Edit")
        #expect(tree.isPresentingSheet)
        #expect(tree.navigationTitle == "Design")
        #expect(tree.texts.prefix(4) == ["Meeting Info", "[Title: Design]", "[Length: 10]", "10 minutes"])
        try tree.type("Design Review", into: "Title")
        try tree.slide("Length", to: 20)
        #expect(tree.texts.prefix(4) == ["Meeting Info", "[Title: Design Review]", "[Length: 20]", "20 minutes"])
        // Only the draft changed: the scrum, and the sheet's title, stay as they were until Done.
        #expect(tree.navigationTitle == "Design")
        #expect(store.scrums[0].title == "Design")
        try tree.tap("Done")
        #expect(!tree.isPresentingSheet)
        #expect(tree.navigationTitles == ["Daily Scrums", "Design Review"])
        #expect(tree.texts.prefix(4) == ["Meeting Info", "Start Meeting", "Length", "20 minutes"])
        try tree.back()
        #expect(tree.texts == ["Design Review", "4", "20"] + Self.sampleList.dropFirst(3))
    }

    @Test func cancellingAnEditDropsTheDraft() async throws {
        let (tree, store) = await launch()
        try tree.tap("Web Dev")
        try tree.tap("Edit")
        try tree.type("Half-baked", into: "Title")
        try tree.tap("Cancel")
        #expect(!tree.isPresentingSheet)
        #expect(tree.navigationTitles == ["Daily Scrums", "Web Dev"])
        #expect(store.scrums[2].title == "Web Dev")
        #expect(tree.texts.prefix(4) == ["Meeting Info", "Start Meeting", "Length", "5 minutes"])
        // The next edit starts from the scrum again.
        try tree.tap("Edit")
        #expect(tree.texts.prefix(2) == ["Meeting Info", "[Title: Web Dev]"])
    }

    @Test func deleteAnAttendeeInTheEditSheet() async throws {
        let (tree, _) = await launch()
        try tree.tap("Design")
        try tree.tap("Edit")
        try tree.delete("Daisy")
        #expect(Array(tree.texts[4...8]) == ["Attendees", "Cathy", "Simon", "Jonathan", "[New Attendee: ]"])
        try tree.tap("Done")
        #expect(Array(tree.texts[4...8]) == ["Attendees", "Cathy", "Simon", "Jonathan", "History"])
        try tree.back()
        #expect(tree.texts.prefix(3) == ["Design", "3", "10"])
    }

    @Test func swipeToDeleteAScrum() async throws {
        let (tree, store) = await launch()
        try tree.delete("App Dev")
        #expect(store.scrums.map(\.title) == ["Design", "Web Dev"])
        #expect(tree.texts == ["Design", "4", "10", "Web Dev", "10", "5"])
    }

    @Test func aMeetingIsAddedToTheHistoryWhenItEnds() async throws {
        let (tree, _) = await launch()
        try tree.tap("App Dev")
        try tree.tap("Start Meeting")
        #expect(tree.navigationTitles == ["Daily Scrums", "App Dev", "App Dev"])
        #expect(tree.texts == ["[progress: 0%]", "Speaker 1 of 5"])
        #expect(tree.hasImage("with transcription"))
        try tree.back()
        #expect(tree.texts == Self.appDevDetail(history: "Meeting of 5"))
    }

    @Test func theAppSavesWhenItBecomesInactive() async throws {
        let file = MemoryFile(scrums: DailyScrum.sampleData)
        let (tree, _) = await launch(file)
        try tree.tap("Design")
        try tree.tap("Edit")
        try tree.type("Design Review", into: "Title")
        try tree.tap("Done")
        try tree.back()
        #expect(await file.writes.isEmpty)
        tree.scenePhase = .inactive
        // The save runs in a `Task` the save action started (not a `.task`): let it run.
        for _ in 0..<1_000 where await file.writes.isEmpty { await Task.yield() }
        let saved = try await file.savedScrums()
        #expect(saved?.map(\.title) == ["Design Review", "App Dev", "Web Dev"])
        #expect(await file.writes.count == 1)
        #expect(tree.texts == ["Design Review", "4", "10"] + Self.sampleList.dropFirst(3))

        // Launched again from the same file: the edit is there.
        let (again, _) = await launch(file)
        #expect(again.texts == ["Design Review", "4", "10"] + Self.sampleList.dropFirst(3))
    }
}
#endif
