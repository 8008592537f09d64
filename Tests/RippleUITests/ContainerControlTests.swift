import RippleUI
import Testing

// Tab views, edit mode and menus, as SwiftUI apps use them.

struct TabCounter: View {
    let name: String
    @State private var count = 0
    var body: some View {
        Button("\(name) \(count)") { count += 1 }
    }
}

enum AppTab: Hashable {
    case home, settings
}

@Suite @MainActor struct ContainerControlTests {
    @Test func anUnselectedTabKeepsItsState() throws {
        struct Tabs: View {
            @State private var selection = AppTab.home
            var body: some View {
                VStack {
                    Text("On \(selection == .home ? "home" : "settings")")
                    TabView(selection: $selection) {
                        TabCounter(name: "Home").tabItem { Label("Home", systemImage: "house") }.tag(AppTab.home)
                        TabCounter(name: "Settings").tag(AppTab.settings).tabItem { Text("Settings") }
                    }
                }
            }
        }
        let tree = RenderTree(Tabs())
        #expect(tree.tabs == ["Home", "Settings"])
        #expect(tree.selectedTab == "Home")
        // The tab not selected yet is not there (not evaluated), as in SwiftUI.
        #expect(tree.evaluations(of: TabCounter.self) == 1)
        try tree.tap("Home 0")
        try tree.tap("Home 1")
        try tree.selectTab("Settings")
        #expect(tree.texts == ["On settings", "Settings 0", "Home", "Settings"])
        #expect(!tree.exists("Home 2"))
        try tree.tap("Settings 0")
        // Back to the first tab (a tap on its tab bar button): its @State is still there.
        try tree.tap("Home")
        #expect(tree.selectedTab == "Home")
        #expect(tree.texts == ["On home", "Home 2", "Home", "Settings"])
        try tree.selectTab("Settings")
        #expect(tree.exists("Settings 1"))
        #expect(throws: RenderTreeLookupError.self) { try tree.selectTab("Profile") }
    }

    @Test func aTagOfAnotherTypeSelectsNothing() throws {
        struct Tabs: View {
            @State private var selection = 0
            var body: some View {
                TabView(selection: $selection) {
                    Text("First").tabItem { Text("One") }.tag(0)
                    Text("Second").tabItem { Text("Two") }.tag("two")
                }
            }
        }
        let tree = RenderTree(Tabs())
        try tree.selectTab("Two")
        #expect(tree.selectedTab == "One")
        #expect(tree.texts.first == "First")
    }

    @Test func editButtonTogglesTheStacksEditMode() throws {
        struct Rows: View {
            @Environment(\.editMode) private var editMode
            var body: some View {
                VStack {
                    Text(editMode?.wrappedValue.isEditing == true ? "editing" : "browsing")
                    EditButton()
                }
            }
        }
        let tree = RenderTree(NavigationStack { Rows() })
        #expect(tree.texts == ["browsing", "Edit"])
        try tree.tap("Edit")
        #expect(tree.texts == ["editing", "Done"])
        try tree.tap("Done")
        #expect(tree.texts == ["browsing", "Edit"])
    }

    @Test func aTestGivesTheRootTheEditModeAHostingControllerWould() throws {
        struct Profile: View {
            @Environment(\.editMode) private var editMode
            var body: some View {
                VStack {
                    if editMode?.wrappedValue == .active { Text("Editing") } else { Text("Viewing") }
                    EditButton()
                }
            }
        }
        // Without one there is nothing to toggle: the button does nothing.
        let bare = RenderTree(Profile())
        try bare.tap("Edit")
        #expect(bare.texts == ["Viewing", "Edit"])
        let tree = RenderTree(Profile(), environment: .withEditMode(.active))
        #expect(tree.texts == ["Editing", "Done"])
        try tree.tap("Done")
        #expect(tree.texts == ["Viewing", "Edit"])
        #expect(tree.evaluations(of: Profile.self) == 2)
    }

    @Test func aMenuClosesAfterAChoice() throws {
        struct Sorter: View {
            @State private var order = "date"
            var body: some View {
                VStack {
                    Text("By \(order)")
                    Menu("Sort") {
                        Button("Title") { order = "title" }
                        Button("Date") { order = "date" }
                    }
                }
            }
        }
        let tree = RenderTree(Sorter())
        #expect(tree.texts == ["By date", "Sort"])
        #expect(!tree.exists("Title"))
        try tree.tap("Sort")
        #expect(tree.texts == ["Title", "Date"])
        try tree.tap("Title")
        #expect(tree.texts == ["By title", "Sort"])
        try tree.tap("Sort")
        try tree.dismissSheet()
        #expect(tree.texts == ["By title", "Sort"])
    }

    @Test func logLinesNameAGenericViewShortly() throws {
        struct Box<Content: View>: View {
            let content: Content
            var body: some View { VStack { content } }
        }
        let tree = RenderTree(Box(content: Text("x").padding()))
        #expect(tree.log == ["Box: @identity"])
        #expect(tree.evaluations(of: Box<Text>.self) == 1)
        #expect(tree.exists("x"))
        #expect(!tree.exists("y"))
    }
}

struct SplitFolder: Identifiable, Hashable {
    let id: Int
    let name: String
}

struct Mailboxes: View {
    let folders = [SplitFolder(id: 1, name: "Inbox"), SplitFolder(id: 2, name: "Sent")]
    @State private var folder: Int?
    @State private var message: String?
    var body: some View {
        NavigationSplitView {
            List(selection: $folder) {
                Text("Folder \(folder.map(String.init) ?? "none")")
                ForEach(folders) { folder in NavigationLink(folder.name, value: folder.id) }
            }
            .navigationTitle("Mailboxes")
        } content: {
            if let folder {
                List(selection: $message) {
                    ForEach(["Hello", "Bye"], id: \.self) { text in NavigationLink("\(text) \(folder)", value: text) }
                }
                .navigationTitle("Folder \(folder)")
            } else {
                Text("Pick a folder")
            }
        } detail: {
            Text(message.map { "Reading \($0)" } ?? "No message")
        }
    }
}

@Suite @MainActor struct SplitViewTests {
    @Test func aCompactSplitViewIsAStackOfItsColumns() throws {
        let tree = RenderTree(Mailboxes())
        #expect(tree.texts == ["Folder none", "Inbox", "Sent"])
        try tree.tap("Sent")
        #expect(tree.navigationTitles == ["Mailboxes", "Folder 2"])
        #expect(tree.texts == ["Hello 2", "Bye 2"])
        try tree.tap("Bye 2")
        #expect(tree.texts == ["Reading Bye"])
        // Back pops the column and clears the selection that pushed it.
        try tree.back()
        #expect(tree.texts == ["Hello 2", "Bye 2"])
        try tree.tap("Hello 2")
        #expect(tree.texts == ["Reading Hello"])
        try tree.back()
        try tree.back()
        #expect(tree.texts == ["Folder none", "Inbox", "Sent"])
        #expect(throws: RenderTreeLookupError.self) { try tree.back() }
    }

    @Test func aTwoColumnSplitViewPushesItsDetail() throws {
        struct Notes: View {
            @State private var selected: Int?
            var body: some View {
                NavigationSplitView {
                    List(selection: $selected) {
                        NavigationLink("First", value: 1)
                        NavigationLink("Second", value: 2)
                    }
                } detail: {
                    if let selected { Text("Note \(selected)") } else { Text("Nothing selected") }
                }
            }
        }
        let tree = RenderTree(Notes())
        try tree.tap("Second")
        #expect(tree.texts == ["Note 2"])
        try tree.back()
        try tree.tap("First")
        #expect(tree.texts == ["Note 1"])
    }
}

@Suite @MainActor struct ScopedQueryTests {
    struct Landmark: Identifiable, Hashable {
        let id: Int
        let name: String
        var isFavorite: Bool
    }

    struct Landmarks: View {
        @State private var landmarks = [
            Landmark(id: 1, name: "Turtle Rock", isFavorite: true),
            Landmark(id: 2, name: "Silver Salmon Creek", isFavorite: false),
        ]
        var body: some View {
            List {
                ForEach($landmarks) { $landmark in
                    HStack {
                        Text(landmark.name)
                        Button {
                            landmark.isFavorite.toggle()
                        } label: {
                            Image(systemName: landmark.isFavorite ? "star.fill" : "star")
                        }
                        if landmark.isFavorite { Image(systemName: "heart") }
                    }
                }
            }
        }
    }

    @Test func aRowsImagesAndControlsAreReachable() throws {
        let tree = RenderTree(Landmarks())
        #expect(tree.rows.count == 2)
        // An image in an `if` is one image (not also its Optional).
        #expect(try tree.row(containing: "Turtle Rock").images == ["star.fill", "heart"])
        #expect(try tree.row(containing: "Silver Salmon Creek").images == ["star"])
        // Exact: "star" is the second row's image only.
        #expect(!(try tree.row(containing: "Turtle Rock").exists("star")))
        try tree.row(containing: "Silver Salmon Creek").tap("star")
        #expect(try tree.row(containing: "Silver Salmon Creek").images == ["star.fill", "heart"])
        #expect(throws: RenderTreeLookupError.self) { try tree.row(containing: "Turtle") }
        #expect(throws: RenderTreeLookupError.self) { try tree.row(containing: "Turtle Rock").tap("heart") }
    }
}

@Suite @MainActor struct SheetEditModeTests {
    @Test func aSheetHasAnEditModeOfItsOwn() throws {
        struct Host: View {
            @State private var showing = false
            var body: some View {
                NavigationStack {
                    VStack {
                        Text("Host")
                        Button("Open") { showing = true }
                    }
                    .sheet(isPresented: $showing) {
                        VStack {
                            Mode()
                            EditButton()
                        }
                    }
                }
            }
        }
        struct Mode: View {
            @Environment(\.editMode) private var editMode
            var body: some View { Text(editMode?.wrappedValue.isEditing == true ? "editing" : "browsing") }
        }
        let tree = RenderTree(Host())
        try tree.tap("Open")
        #expect(tree.texts == ["browsing", "Edit"])
        try tree.tap("Edit")
        #expect(tree.texts == ["editing", "Done"])
        try tree.dismissSheet()
        try tree.tap("Open")
        // A new presentation starts inactive.
        #expect(tree.texts == ["browsing", "Edit"])
    }
}
