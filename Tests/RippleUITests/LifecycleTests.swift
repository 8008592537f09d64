import RippleUI
import Testing

@Suite @MainActor struct LifecycleTests {
    struct Loader: View {
        let query: String
        let log: Recorder
        @State private var result = "…"
        var body: some View {
            Text(result)
                .task(id: query) {
                    log.append("start \(query)")
                    do {
                        // Waits until cancelled (a task that never finishes on its own).
                        try await Task.sleep(for: .seconds(3600))
                        result = "done"
                    } catch {
                        log.append("cancelled \(query)")
                    }
                }
        }
    }

    struct Search: View {
        @State var query = "a"
        @State var showing = true
        let log: Recorder
        var body: some View {
            VStack {
                if showing { Loader(query: query, log: log) }
                Button("Change") { query += "b" }
                Button("Hide") { showing = false }
            }
        }
    }

    @Test func aTaskWithAnIdIsCancelledWhenTheIdChangesAndWhenTheViewLeaves() async throws {
        let log = Recorder()
        let tree = RenderTree(Search(log: log))
        try tree.tap("Change")
        await log.waitFor("cancelled a")
        // The first run was cancelled by the id change: the view is still there, its new run too.
        #expect(!log.entries.contains("cancelled ab"))
        try tree.tap("Hide")
        await tree.waitForTasks()
        #expect(log.entries.filter { $0.hasSuffix(" a") } == ["start a", "cancelled a"])
        #expect(log.entries.filter { $0.hasSuffix(" ab") } == ["start ab", "cancelled ab"])
    }

    @Test func aTaskStartedOnAppearRunsOnTheMainActor() async throws {
        @MainActor final class Store: ObservableObject {
            @Published var notes: [String] = []
            func load() async { notes = ["loaded"] }
        }
        struct Screen: View {
            @StateObject var store = Store()
            @State var appeared = 0
            var body: some View {
                VStack {
                    Text("\(store.notes.count) notes, appeared \(appeared)")
                }
                .onAppear { appeared += 1 }
                .task { await store.load() }
            }
        }
        let tree = RenderTree(Screen())
        #expect(tree.texts == ["0 notes, appeared 1"])
        await tree.waitForTasks()
        #expect(tree.texts == ["1 notes, appeared 1"])
    }

    @Test func scenePhaseChangesReachOnChange() throws {
        struct Saver: View {
            @Environment(\.scenePhase) private var scenePhase
            let log: Recorder
            var body: some View {
                Text("phase \(scenePhase)")
                    .onChange(of: scenePhase) { old, new in log.append("\(old) -> \(new)") }
                    .onChange(of: scenePhase) { phase in if phase == .inactive { log.append("save") } }
                    .onChange(of: scenePhase) { log.append("changed") }
            }
        }
        let log = Recorder()
        let tree = RenderTree(Saver(log: log))
        #expect(tree.scenePhase == .active)
        tree.scenePhase = .inactive
        #expect(tree.texts == ["phase inactive"])
        tree.scenePhase = .background
        // Each modifier runs once per change, outermost first.
        #expect(log.entries == ["changed", "save", "active -> inactive", "changed", "inactive -> background"])
    }

    @Test func onAppearAndOnDisappearFollowTheNode() throws {
        struct Child: View {
            let log: Recorder
            var body: some View {
                Text("child").onAppear { log.append("appear") }.onDisappear { log.append("disappear") }
            }
        }
        struct Parent: View {
            @State var shown = true
            let log: Recorder
            var body: some View {
                VStack {
                    if shown { Child(log: log) }
                    Button("Flip") { withAnimation(.easeInOut) { shown.toggle() } }
                }
                .animation(.default, value: shown)
            }
        }
        let log = Recorder()
        let tree = RenderTree(Parent(log: log))
        try tree.tap("Flip")
        try tree.tap("Flip")
        #expect(log.entries == ["appear", "disappear", "appear"])
    }
}
