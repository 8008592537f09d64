import Foundation
import RippleUI
import Testing

/// A binding carries the value it was made with: a parent that re-runs with a changed value
/// re-runs the child holding the binding, one with the same value leaves it alone.
@Suite @MainActor struct BindingSnapshotTests {
    final class Counter: ObservableObject {
        @Published var n = 0
        @Published var other = 0
    }

    struct Child: View {
        @Binding var n: Int
        var body: some View { Text("n=\(n)") }
    }

    struct Parent: View {
        @ObservedObject var m: Counter
        var body: some View { Child(n: $m.n) }
    }

    @Test func aChildOfAnObservedObjectsBindingShowsTheChange() {
        let m = Counter()
        let tree = RenderTree(Parent(m: m))
        #expect(tree.texts == ["n=0"])
        tree.clearLog()
        m.n = 1
        tree.flush()
        #expect(tree.texts == ["n=1"])
        #expect(tree.log == ["Parent: _m changed", "Child: @self changed"])
    }

    @Test func aBindingWhoseValueDidNotChangeLeavesTheChildAlone() {
        let m = Counter()
        let tree = RenderTree(Parent(m: m))
        tree.clearLog()
        m.other = 1
        tree.flush()
        // The parent re-ran (object level); the child's binding has the same source and value.
        #expect(tree.log == ["Parent: _m changed"])
        #expect(tree.evaluations(of: "Child") == 1)
    }

    struct EnvironmentParent: View {
        @EnvironmentObject var m: Counter
        var body: some View {
            VStack {
                Child(n: $m.n)
                Button("Other") { m.other += 1 }
                Button("Increment") { m.n += 1 }
            }
        }
    }

    @Test func aChildOfAnEnvironmentObjectsBindingShowsTheChange() throws {
        let m = Counter()
        let tree = RenderTree(EnvironmentParent().environmentObject(m))
        tree.clearLog()
        try tree.tap("Increment")
        #expect(tree.texts == ["n=1", "Other", "Increment"])
        #expect(tree.log == ["EnvironmentParent: _m changed", "Child: @self changed"])
        tree.clearLog()
        try tree.tap("Other")
        #expect(tree.log == ["EnvironmentParent: _m changed"])
    }

    /// The same child fed from `@State`: it reads the state through the binding and depends on it;
    /// a parent that passes `$value` without reading it does not re-run.
    @Test func aStateBindingDoesNotMakeThePasserDependOnTheValue() throws {
        struct Passer: View {
            @State var n = 0
            var body: some View {
                VStack {
                    Child(n: $n)
                    Button("Increment") { n += 1 }
                }
            }
        }
        let tree = RenderTree(Passer())
        tree.clearLog()
        try tree.tap("Increment")
        #expect(tree.texts == ["n=1", "Increment"])
        #expect(tree.log == ["Child: _n changed"])
    }

    /// Element bindings of a list of a store's collection, and a pushed detail screen made from one.
    struct Item: Identifiable, Equatable {
        let id: Int
        var title: String
    }

    final class Store: ObservableObject {
        @Published var items = [Item(id: 1, title: "Standup"), Item(id: 2, title: "Review")]
        @Published var ticks = 0
    }

    struct Detail: View {
        @Binding var item: Item
        var body: some View {
            VStack {
                Text("Detail \(item.title)")
                Button("Rename") { item.title += "!" }
            }
            .navigationTitle(item.title)
        }
    }

    struct Items: View {
        @Binding var items: [Item]
        var body: some View {
            List($items) { $item in
                NavigationLink(destination: Detail(item: $item)) { Text(item.title) }
            }
        }
    }

    struct Root: View {
        @ObservedObject var store: Store
        var body: some View {
            NavigationStack { Items(items: $store.items) }
        }
    }

    @Test func aPushedDetailScreenShowsAnEdit() throws {
        let store = Store()
        let tree = RenderTree(Root(store: store))
        try tree.tap("Review")
        #expect(tree.texts == ["Detail Review", "Rename"])
        try tree.tap("Rename")
        #expect(tree.texts == ["Detail Review!", "Rename"])
        #expect(tree.navigationTitles == ["", "Review!"])
        // A change from outside reaches the pushed screen too.
        store.items[1].title = "Retro"
        tree.flush()
        #expect(tree.texts == ["Detail Retro", "Rename"])
        try tree.back()
        #expect(tree.texts == ["Standup", "Retro"])
    }

    @Test func aPushedDetailScreenWithABindingSettles() throws {
        let store = Store()
        let tree = RenderTree(Root(store: store))
        try tree.tap("Standup")
        tree.clearLog()
        // A change that leaves the items alone re-runs the root only: no binding changed.
        store.ticks += 1
        tree.flush()
        #expect(tree.log == ["Root: _store changed"])
        tree.clearLog()
        try tree.tap("Rename")
        // One evaluation per view, in one settling pass: no flush loop.
        #expect(tree.log.filter { $0.hasPrefix("Detail") }.count == 1)
        #expect(tree.log.count <= 4)
        #expect(tree.texts == ["Detail Standup!", "Rename"])
    }

    /// A view whose binding has no source the tree knows (`init(get:set:)`) is re-run whenever its
    /// parent is, as in SwiftUI.
    @Test func aHandMadeBindingAlwaysCountsAsChanged() {
        struct Maker: View {
            @ObservedObject var m: Counter
            var body: some View {
                Child(n: Binding(get: { m.n }, set: { m.n = $0 }))
            }
        }
        let m = Counter()
        let tree = RenderTree(Maker(m: m))
        tree.clearLog()
        m.other = 1
        tree.flush()
        #expect(tree.log == ["Maker: _m changed", "Child: @self changed"])
    }
}
