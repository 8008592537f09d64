import Foundation
import RippleUI
import Testing

/// Finding a button by name stays exact when the test API indexes buttons by their names: a
/// renamed button is found by its new name only, shared names go to the first on screen, names
/// from around a control still count, and only the top screen is reachable.
@Suite @MainActor struct ControlLookupTests {
    struct Row: View {
        let id: Int
        @State private var count = 0
        var body: some View {
            HStack {
                Text("Row \(id)")
                Button("Tap \(id): \(count)") { count += 1 }
            }
        }
    }

    struct Rows: View {
        let count: Int
        var body: some View {
            List {
                ForEach(0..<count, id: \.self) { Row(id: $0) }
            }
        }
    }

    @Test func aRenamedButtonIsFoundByItsNewNameOnly() throws {
        let tree = RenderTree(Rows(count: 50))
        try tree.tap("Tap 49: 0")
        try tree.tap("Tap 49: 1")
        #expect(tree.texts.suffix(2) == ["Row 49", "Tap 49: 2"])
        #expect(throws: RenderTreeLookupError.self) { try tree.tap("Tap 49: 1") }
        // A prefix finds it only when asked for.
        #expect(throws: RenderTreeLookupError.self) { try tree.tap("Tap 49") }
        try tree.tap("Tap 49", matching: .prefix)
        #expect(tree.texts.last == "Tap 49: 3")
    }

    /// Every gesture matches a name exactly unless the test asks for a prefix: "Star" is not
    /// "Starred" (a prefix found by default tapped the wrong control when the right one was gone).
    @Test func gesturesMatchExactlyUnlessAskedForAPrefix() throws {
        struct Screen: View {
            @State private var log: [String] = []
            @State private var on = false
            @State private var flavor = "Vanilla"
            var body: some View {
                VStack {
                    Button("Starred") { log.append("starred") }
                    Toggle("Notifications enabled", isOn: $on)
                    Picker("Flavor choice", selection: $flavor) {
                        Text("Vanilla").tag("Vanilla")
                        Text("Chocolate chip").tag("Chocolate chip")
                    }
                    List {
                        ForEach(["Turtle Rock"], id: \.self) { name in
                            HStack {
                                Text(name)
                                Button("Favorite \(name)") { log.append("favorite") }
                            }
                        }
                    }
                    Text(log.joined(separator: ","))
                }
            }
        }
        let tree = RenderTree(Screen())
        #expect(throws: RenderTreeLookupError.self) { try tree.tap("Star") }
        #expect(throws: RenderTreeLookupError.self) { try tree.toggle("Notifications") }
        #expect(throws: RenderTreeLookupError.self) { try tree.select("Chocolate", in: "Flavor choice") }
        #expect(throws: RenderTreeLookupError.self) { try tree.select("Chocolate chip", in: "Flavor") }
        #expect(throws: RenderTreeLookupError.self) { try tree.row(containing: "Turtle Rock").tap("Favorite") }
        #expect(tree.texts.last == "")

        try tree.tap("Star", matching: .prefix)
        try tree.toggle("Notifications", matching: .prefix)
        try tree.select("Chocolate", in: "Flavor", matching: .prefix)
        try tree.row(containing: "Turtle Rock").tap("Favorite", matching: .prefix)
        #expect(tree.texts.contains("[Notifications enabled: on]"))
        #expect(tree.texts.contains("[Flavor choice: Chocolate chip]"))
        #expect(tree.texts.last == "starred,favorite")
    }

    @Test func aSharedNameGoesToTheFirstOnScreenAndAnAncestorsLabelCounts() throws {
        struct Shared: View {
            @State private var log: [String] = []
            var body: some View {
                VStack {
                    Button("Delete") { log.append("first") }
                    Button("Delete") { log.append("second") }
                    Button("Remove") { log.append("labelled") }
                        .accessibilityLabel("Trash")
                    Button("Trash") { log.append("titled") }
                    Text(log.joined(separator: ","))
                }
            }
        }
        let tree = RenderTree(Shared())
        try tree.tap("Delete")
        // "Trash" names two buttons: the labelled one comes first on screen.
        try tree.tap("Trash")
        #expect(tree.texts.last == "first,labelled")
    }

    @Test func aButtonCoveredByAPushedScreenOrASheetIsNotReachable() throws {
        struct Screens: View {
            @State private var showsSheet = false
            var body: some View {
                NavigationStack {
                    VStack {
                        Button("Under") {}
                        NavigationLink("Open") {
                            VStack {
                                Button("Pushed") {}
                                Button("Sheet") { showsSheet = true }
                            }
                        }
                    }
                }
                .sheet(isPresented: $showsSheet) { Button("In sheet") { showsSheet = false } }
            }
        }
        let tree = RenderTree(Screens())
        try tree.tap("Open")
        #expect(throws: RenderTreeLookupError.self) { try tree.tap("Under") }
        try tree.tap("Sheet")
        #expect(throws: RenderTreeLookupError.self) { try tree.tap("Pushed") }
        try tree.tap("In sheet")
        try tree.tap("Pushed")
        try tree.back()
        try tree.tap("Under")
    }

    @Test func removedRowsAreNotFound() throws {
        struct Shrinking: View {
            @State private var count = 3
            var body: some View {
                VStack {
                    Rows(count: count)
                    Button("Shrink") { count -= 1 }
                }
            }
        }
        let tree = RenderTree(Shrinking())
        try tree.tap("Tap 2: 0")
        try tree.tap("Shrink")
        #expect(throws: RenderTreeLookupError.self) { try tree.tap("Tap 2: 1") }
        try tree.tap("Tap 1: 0")
        #expect(tree.texts.contains("Tap 1: 1"))
    }
}
