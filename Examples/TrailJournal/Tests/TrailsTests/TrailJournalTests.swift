import RippleUI
import Testing

@testable import Trails

// The journal's flows, driven as a user would: through the screen.

@Suite @MainActor struct TrailJournalTests {
    func launch() -> (RenderTree, TrailData) {
        let data = TrailData()
        return (RenderTree(ContentView().environment(data)), data)
    }

    @Test func theFilterShowsFavoritesOnly() throws {
        let (tree, _) = launch()
        #expect(tree.rows.map(\.texts) == [["Cedar Ridge"], ["Fern Hollow"], ["Granite Steps"]])
        let cedar = try tree.row(containing: "Cedar Ridge")
        #expect(cedar.images == ["star.fill"])
        try tree.toggle("Favorites only")
        #expect(tree.rows.map(\.texts) == [["Cedar Ridge"]])
    }

    @Test func aFavoriteSetOnTheDetailReachesTheDataAndTheList() throws {
        let (tree, data) = launch()
        try tree.tap("Fern Hollow")
        #expect(tree.navigationTitle == "Fern Hollow")
        #expect(tree.texts.contains("South · 4.2 km"))
        tree.clearLog()
        try tree.tap("star")
        #expect(data.trails[1].isFavorite)
        // The detail ran once, with its current input.
        #expect(tree.evaluations(of: TrailDetail.self) >= 1)
        #expect(tree.log.filter { $0.hasPrefix("TrailDetail") }.count == 1)
        #expect(tree.exists("star.fill"))
        try tree.back()
        let fern = try tree.row(containing: "Fern Hollow")
        #expect(fern.images == ["star.fill"])
        try tree.toggle("Favorites only")
        #expect(tree.rows.map(\.texts) == [["Cedar Ridge"], ["Fern Hollow"]])
    }

    @Test func tabsKeepTheirStateAndShareTheData() throws {
        let (tree, _) = launch()
        #expect(tree.tabs == ["Trails", "Regions"])
        try tree.toggle("Favorites only")
        try tree.selectTab("Regions")
        #expect(tree.texts.prefix(2) == ["North: 2 trails, 1 favorite", "South: 1 trails, 0 favorite"])
        try tree.selectTab("Trails")
        // The filter's @State survived the switch.
        #expect(tree.texts.first == "[Favorites only: on]")
        try tree.tap("Cedar Ridge")
        try tree.tap("star.fill")
        try tree.selectTab("Regions")
        #expect(tree.texts.first == "North: 2 trails, 0 favorite")
    }

    @Test func cancelKeepsTheSavedProfileAndDoneSavesTheDraft() throws {
        let (tree, data) = launch()
        try tree.tap("Profile")
        #expect(tree.isPresentingSheet)
        #expect(tree.texts == ["Edit", "Sam", "Prefers loops: yes", "Weekly goal: 20 km"])
        try tree.tap("Edit")
        try tree.type("Alex", into: "Name")
        try tree.increment("Weekly goal: 20 km")
        try tree.tap("Cancel")
        #expect(tree.texts == ["Edit", "Sam", "Prefers loops: yes", "Weekly goal: 20 km"])
        #expect(data.hiker == .default)
        try tree.tap("Edit")
        #expect(tree.exists("[Name: Sam]"))
        try tree.type("Alex", into: "Name")
        try tree.toggle("Prefer loops")
        try tree.tap("Done")
        #expect(tree.texts == ["Edit", "Alex", "Prefers loops: no", "Weekly goal: 20 km"])
        #expect(data.hiker == Hiker(name: "Alex", prefersLoops: false, weeklyGoal: 20))
        try tree.dismissSheet()
        #expect(tree.navigationTitle == "Trails")
    }
}
