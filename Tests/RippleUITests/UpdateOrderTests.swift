import RippleUI
import Testing

// Each dirty view runs once per update, after its inputs are current — also when the view that
// builds its input is elsewhere in the tree (a pushed screen's link in the list below it, a
// pushed screen in a sheet or a tab).

@Observable final class OrderStore {
    var items = [OrderItem(id: 1, isFavorite: false)]
    var ids = [1]
}

struct OrderItem: Identifiable, Hashable {
    var id: Int
    var isFavorite: Bool
}

/// The pushed screen: records what each run of its body saw.
struct OrderDetail: View {
    var store: OrderStore
    var item: OrderItem
    var seen: SeenInputs
    var body: some View {
        let line = "input \(item.isFavorite) store \(store.items[0].isFavorite)"
        seen.lines.append(line)
        return Button(line) { store.items[0].isFavorite.toggle() }
    }
}

@MainActor final class SeenInputs {
    var lines: [String] = []
}

/// The repro: the rows and the pushed screen both read the store.
struct OrderRows: View {
    var store: OrderStore
    var seen: SeenInputs
    var body: some View {
        NavigationStack {
            List {
                ForEach(store.items) { item in
                    NavigationLink { OrderDetail(store: store, item: item, seen: seen) } label: { Text("Row \(item.id)") }
                }
            }
        }
    }
}

/// A row that reads the store itself, deeper in the tree than the pushed screen: the list above it
/// reads only the ids.
struct OrderRow: View {
    var store: OrderStore
    var id: Int
    var seen: SeenInputs
    var body: some View {
        let item = store.items.first { $0.id == id }!
        return NavigationLink { OrderDetail(store: store, item: item, seen: seen) } label: { Text("Row \(item.id)") }
    }
}

struct DeepOrderRows: View {
    var store: OrderStore
    var seen: SeenInputs
    var body: some View {
        NavigationStack {
            VStack {
                Group {
                    List {
                        ForEach(store.ids, id: \.self) { id in
                            VStack { OrderRow(store: store, id: id, seen: seen) }
                        }
                    }
                }
            }
        }
    }
}

@Suite @MainActor struct UpdateOrderTests {
    @Test func aPushedScreenRunsOnceWithItsCurrentInput() throws {
        let store = OrderStore()
        let seen = SeenInputs()
        let tree = RenderTree(OrderRows(store: store, seen: seen))
        try tree.tap("Row 1")
        tree.clearLog()
        seen.lines = []
        try tree.tap("input false store false")
        #expect(seen.lines == ["input true store true"])
        #expect(tree.evaluations(of: "OrderDetail") == 2)
        #expect(tree.log == ["OrderRows: OrderStore.items changed", "OrderDetail: @self changed, OrderStore.items changed"])
        #expect(tree.texts == ["input true store true"])
    }

    @Test func aPushedScreenWaitsForARowDeeperThanItself() throws {
        let store = OrderStore()
        let seen = SeenInputs()
        let tree = RenderTree(DeepOrderRows(store: store, seen: seen))
        try tree.tap("Row 1")
        tree.clearLog()
        seen.lines = []
        try tree.tap("input false store false")
        #expect(seen.lines == ["input true store true"])
        #expect(tree.log == ["OrderRow: OrderStore.items changed", "OrderDetail: @self changed, OrderStore.items changed"])
    }

    @Test func aPushedScreenInASheetRunsOnceWithItsCurrentInput() throws {
        struct Host: View {
            var store: OrderStore
            var seen: SeenInputs
            @State private var showing = false
            var body: some View {
                Button("Open") { showing = true }
                    .sheet(isPresented: $showing) { OrderRows(store: store, seen: seen) }
            }
        }
        let store = OrderStore()
        let seen = SeenInputs()
        let tree = RenderTree(Host(store: store, seen: seen))
        try tree.tap("Open")
        try tree.tap("Row 1")
        seen.lines = []
        tree.clearLog()
        try tree.tap("input false store false")
        #expect(seen.lines == ["input true store true"])
        #expect(tree.log == ["OrderRows: OrderStore.items changed", "OrderDetail: @self changed, OrderStore.items changed"])
    }

    @Test func aPushedScreenInATabRunsOnceWithItsCurrentInput() throws {
        struct Tabs: View {
            var store: OrderStore
            var seen: SeenInputs
            var deepSeen: SeenInputs
            var body: some View {
                TabView {
                    OrderRows(store: store, seen: seen).tabItem { Text("Rows") }
                    DeepOrderRows(store: store, seen: deepSeen).tabItem { Text("Deep") }
                }
            }
        }
        let store = OrderStore()
        let seen = SeenInputs()
        let deepSeen = SeenInputs()
        let tree = RenderTree(Tabs(store: store, seen: seen, deepSeen: deepSeen))
        #expect(tree.tabs == ["Rows", "Deep"])
        try tree.tap("Row 1")
        seen.lines = []
        try tree.tap("input false store false")
        #expect(seen.lines == ["input true store true"])
        try tree.selectTab("Deep")
        try tree.tap("Row 1")
        seen.lines = []
        deepSeen.lines = []
        try tree.tap("input true store true")
        // Each pushed screen once, with its current input: the one in the tab on screen, and the
        // one kept in the tab switched away from.
        #expect(deepSeen.lines == ["input false store false"])
        #expect(seen.lines == ["input false store false"])
    }

    @Test func aValueDestinationShowsWhatItsModifierBuildsNow() throws {
        struct Values: View {
            var store: OrderStore
            var seen: SeenInputs
            @State private var path: [Int] = []
            var body: some View {
                NavigationStack(path: $path) {
                    VStack { ValueRows(store: store, seen: seen) }
                }
            }
        }
        struct ValueRows: View {
            var store: OrderStore
            var seen: SeenInputs
            var body: some View {
                List {
                    ForEach(store.items) { item in NavigationLink("Row \(item.id)", value: item.id) }
                }
                .navigationDestination(for: Int.self) { id in
                    OrderDetail(store: store, item: store.items.first { $0.id == id }!, seen: seen)
                }
            }
        }
        let store = OrderStore()
        let seen = SeenInputs()
        let tree = RenderTree(Values(store: store, seen: seen))
        try tree.tap("Row 1")
        seen.lines = []
        try tree.tap("input false store false")
        #expect(seen.lines == ["input true store true"])
        #expect(tree.texts == ["input true store true"])
    }
}
