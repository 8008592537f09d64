#if !canImport(SwiftUI)
import Foundation
import Greenhouse
import RippleUI
import Testing

/// Drives Greenhouse through what is on screen, the way a user would, and checks the screen and
/// the store after every step.
@Suite @MainActor struct GreenhouseTests {
    /// The shelf's texts for the starter shelf: a row per plant (name, interval).
    static let starterRows = ["Fern", "every 3 d", "Cactus", "every 14 d", "Basil", "every 2 d"]

    /// Fern's page, with `rounds` as its rounds section.
    static func fernPage(rounds: [String] = ["Never watered here"]) -> [String] {
        ["Care", "Water now", "Every 3 days", "Chores", "Mist fronds", "Check drainage", "Rounds"] + rounds + ["Edit"]
    }

    /// The app over `storage`, after its restoring task has run.
    func launch(_ storage: MemoryShelf = MemoryShelf(Plant.starterShelf)) async -> (RenderTree, PlantStore) {
        let store = PlantStore(storage: storage)
        let tree = RenderTree(GreenhouseApp(store: store))
        await tree.waitForTasks()
        return (tree, store)
    }

    /// Lets a `Task` the app started (not a `.task`) reach storage.
    func settle(_ storage: MemoryShelf) async {
        for _ in 0..<1_000 where await storage.attempts == 0 { await Task.yield() }
    }

    // MARK: Restoring (`.task`, `@StateObject`, `@Published`)

    @Test func theShelfIsRestoredWhenTheWindowAppears() async throws {
        let store = PlantStore(storage: MemoryShelf(Plant.starterShelf))
        let tree = RenderTree(GreenhouseApp(store: store))
        #expect(tree.navigationTitle == "Shelf")
        #expect(tree.texts == [])
        await tree.waitForTasks()
        #expect(!tree.isPresentingSheet)
        #expect(tree.texts == Self.starterRows)
    }

    @Test func nothingSavedMeansAnEmptyShelf() async throws {
        let (tree, store) = await launch(MemoryShelf())
        #expect(!tree.isPresentingSheet)
        #expect(store.plants.isEmpty)
        #expect(tree.texts == [])
    }

    @Test func anUnreadableShelfShowsTheProblemAndClosingItStartsOver() async throws {
        let (tree, store) = await launch(MemoryShelf(loadFails: true))
        #expect(tree.isPresentingSheet)
        #expect(tree.navigationTitle == "Oops")
        #expect(tree.texts == ["The shelf could not be read", "Starting over with three plants.", "Close"])
        #expect(tree.hasImage("Warning"))
        #expect(store.plants.isEmpty)
        try tree.tap("Close")
        #expect(!tree.isPresentingSheet)
        #expect(store.plants.map(\.name) == ["Fern", "Cactus", "Basil"])
        #expect(tree.texts == Self.starterRows)
    }

    // MARK: The environment object

    @Test func theShelfFollowsTheStoreItReadsFromTheEnvironment() async throws {
        let (tree, store) = await launch()
        // A change made outside the views shows at the next flush (the run loop's turn in an app).
        store.plants.append(Plant(name: "Ivy", wateringEveryDays: 5, chores: []))
        tree.flush()
        #expect(tree.texts == Self.starterRows + ["Ivy", "every 5 d"])
        store.plants[0].wateringEveryDays = 4
        tree.flush()
        #expect(try tree.row(containing: "Fern").texts == ["Fern", "every 4 d"])
        // The row's label goes through the app's own label style: title, then icon.
        #expect(try tree.row(containing: "Ivy").images == ["drop"])
    }

    // MARK: The new-plant sheet (its own draft, a binding to the store's array)

    @Test func potANewPlant() async throws {
        let (tree, store) = await launch()
        try tree.tap("Add Plant")
        #expect(tree.isPresentingSheet)
        #expect(tree.navigationTitle == "New Plant")
        #expect(
            tree.texts == [
                "Plant", "[Name: ]", "[Interval: 7]", "Water every 7 days", "Chores", "[Chore: ]", "Cancel", "Pot",
            ])
        #expect(try tree.isEnabled("Pot") == false)
        #expect(try tree.isEnabled("Add Chore") == false)
        try tree.type("Mint", into: "Name")
        try tree.slide("Interval", to: 4)
        try tree.type("Trim runners", into: "Chore")
        #expect(try tree.isEnabled("Add Chore"))
        try tree.tap("Add Chore")
        try tree.type("Rinse leaves", into: "Chore")
        try tree.tap("Add Chore")
        #expect(
            tree.texts == [
                "Plant", "[Name: Mint]", "[Interval: 4]", "Water every 4 days", "Chores", "Trim runners",
                "Rinse leaves", "[Chore: ]", "Cancel", "Pot",
            ])
        #expect(store.plants.count == 3)
        try tree.tap("Pot")
        #expect(!tree.isPresentingSheet)
        #expect(store.plants.map(\.name) == ["Fern", "Cactus", "Basil", "Mint"])
        #expect(store.plants[3].chores.map(\.what) == ["Trim runners", "Rinse leaves"])
        #expect(tree.texts == Self.starterRows + ["Mint", "every 4 d"])
    }

    @Test func cancellingTheNewPlantSheetKeepsNothing() async throws {
        let (tree, store) = await launch()
        try tree.tap("Add Plant")
        try tree.type("Weed", into: "Name")
        try tree.tap("Cancel")
        #expect(!tree.isPresentingSheet)
        #expect(store.plants.count == 3)
        #expect(tree.texts == Self.starterRows)
        // The sheet's draft went with the sheet: the next one starts from a seedling.
        try tree.tap("Add Plant")
        #expect(tree.texts.prefix(2) == ["Plant", "[Name: ]"])
    }

    // MARK: Navigation with element bindings

    @Test func openAPlantPageAndGoBack() async throws {
        let (tree, _) = await launch()
        try tree.tap("Fern")
        #expect(tree.navigationTitles == ["Shelf", "Fern"])
        #expect(tree.texts == Self.fernPage())
        try tree.back()
        #expect(tree.navigationTitles == ["Shelf"])
        #expect(tree.texts == Self.starterRows)
    }

    // MARK: The edit sheet over a draft

    @Test func savingTheDraftWritesItThroughTheBinding() async throws {
        let (tree, store) = await launch()
        try tree.tap("Basil")
        try tree.tap("Edit")
        #expect(tree.isPresentingSheet)
        #expect(tree.navigationTitle == "Editing Basil")
        #expect(tree.texts.prefix(4) == ["Plant", "[Name: Basil]", "[Interval: 2]", "Water every 2 days"])
        try tree.type("Thai Basil", into: "Name")
        try tree.slide("Interval", to: 3)
        #expect(tree.texts.prefix(4) == ["Plant", "[Name: Thai Basil]", "[Interval: 3]", "Water every 3 days"])
        // Only the draft changed: the plant (and the sheet's title, which reads it) wait for Save.
        #expect(tree.navigationTitle == "Editing Basil")
        #expect(store.plants[2].name == "Basil")
        try tree.tap("Save")
        #expect(!tree.isPresentingSheet)
        #expect(store.plants[2].name == "Thai Basil")
        #expect(tree.navigationTitles == ["Shelf", "Thai Basil"])
        #expect(tree.texts.prefix(3) == ["Care", "Water now", "Every 3 days"])
        try tree.back()
        #expect(tree.texts == Self.starterRows.prefix(4) + ["Thai Basil", "every 3 d"])
    }

    @Test func discardingTheDraftLeavesThePlant() async throws {
        let (tree, store) = await launch()
        try tree.tap("Cactus")
        try tree.tap("Edit")
        try tree.type("Prickly", into: "Name")
        try tree.slide("Interval", to: 30)
        try tree.tap("Discard")
        #expect(!tree.isPresentingSheet)
        #expect(store.plants[1].name == "Cactus")
        #expect(store.plants[1].wateringEveryDays == 14)
        #expect(tree.navigationTitles == ["Shelf", "Cactus"])
        // The next edit starts from the plant again, not from the discarded draft.
        try tree.tap("Edit")
        #expect(tree.texts.prefix(3) == ["Plant", "[Name: Cactus]", "[Interval: 14]"])
    }

    @Test func removeAChoreWhileEditing() async throws {
        let (tree, store) = await launch()
        try tree.tap("Basil")
        try tree.tap("Edit")
        try tree.delete("Turn pot")
        #expect(Array(tree.texts[4...7]) == ["Chores", "Pinch tips", "Water base", "[Chore: ]"])
        #expect(store.plants[2].chores.count == 3)
        try tree.tap("Save")
        #expect(store.plants[2].chores.map(\.what) == ["Pinch tips", "Water base"])
        #expect(Array(tree.texts[3...6]) == ["Chores", "Pinch tips", "Water base", "Rounds"])
    }

    // MARK: Deleting through the store's array

    @Test func swipeAPlantOffTheShelf() async throws {
        let (tree, store) = await launch()
        try tree.delete("Cactus")
        #expect(store.plants.map(\.name) == ["Fern", "Basil"])
        #expect(tree.texts == ["Fern", "every 3 d", "Basil", "every 2 d"])
        // The rows that stayed still bind to their own plants.
        try tree.tap("Basil")
        #expect(tree.navigationTitles == ["Shelf", "Basil"])
    }

    // MARK: Lifecycle: a pushed screen's `onDisappear` writes through a binding two levels down

    @Test func leavingAWateringRoundLogsIt() async throws {
        let (tree, store) = await launch()
        try tree.tap("Fern")
        try tree.tap("Water now")
        #expect(tree.navigationTitles == ["Shelf", "Fern", "Watering Fern"])
        #expect(tree.texts == ["[progress: 0%]", "First: Mist fronds"])
        #expect(tree.hasImage("Watering can"))
        #expect(store.plants[0].rounds.isEmpty)
        try tree.back()
        #expect(store.plants[0].rounds.map(\.choreCount) == [2])
        #expect(tree.texts == Self.fernPage(rounds: ["Round of 2 chores"]))
        try tree.tap("Water now")
        try tree.back()
        #expect(tree.texts == Self.fernPage(rounds: ["Round of 2 chores", "Round of 2 chores"]))
    }

    // MARK: Saving on scene phase

    @Test func goingInactiveSavesTheShelfAndTheNextLaunchHasIt() async throws {
        let storage = MemoryShelf(Plant.starterShelf)
        let (tree, _) = await launch(storage)
        try tree.tap("Fern")
        try tree.tap("Edit")
        try tree.type("Boston Fern", into: "Name")
        try tree.tap("Save")
        try tree.back()
        #expect(await storage.attempts == 0)
        tree.scenePhase = .inactive
        await settle(storage)
        #expect(try await storage.storedNames() == ["Boston Fern", "Cactus", "Basil"])
        #expect(await storage.stores.count == 1)
        #expect(!tree.isPresentingSheet)

        let (again, _) = await launch(storage)
        #expect(again.texts == ["Boston Fern", "every 3 d"] + Self.starterRows.dropFirst(2))
    }

    @Test func aFailedSaveShowsTheProblemAndKeepsTheShelf() async throws {
        let storage = MemoryShelf(Plant.starterShelf, storeFails: true)
        let (tree, store) = await launch(storage)
        try tree.delete("Fern")
        tree.scenePhase = .inactive
        // The save's `Task` sets the problem after the store fails; the next flush shows it.
        for _ in 0..<1_000 where !tree.isPresentingSheet {
            await Task.yield()
            tree.flush()
        }
        #expect(tree.isPresentingSheet)
        #expect(tree.texts == ["The shelf could not be saved", "Your changes stay until you quit.", "Close"])
        try tree.tap("Close")
        #expect(!tree.isPresentingSheet)
        #expect(store.plants.map(\.name) == ["Cactus", "Basil"])
        #expect(tree.texts == Array(Self.starterRows.dropFirst(2)))
    }
}
#endif
