import RippleUI
import Testing

// `@self`: a kept child re-runs only when its new inputs differ from the old ones. The comparison
// reads the view's fields in place (no reflection per evaluation); each case is a pair — equal
// inputs do not re-run the child, different ones do.

final class Thing: Observable, @unchecked Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

@MainActor @Suite struct InputComparisonTests {
    struct Options {  // not Equatable
        var title: String
        var limits: [Int]
    }

    struct Child: View {
        let options: Options
        let thing: Thing
        let onTap: () -> Void
        var body: some View { Text("\(options.title) \(thing.name)") }
    }

    struct Parent: View {
        @State var tick = 0
        @State var title = "a"
        @State var thing = Thing("one")
        var body: some View {
            VStack {
                Child(options: Options(title: title, limits: [1, 2]), thing: thing, onTap: {})
                Button("Tick") { tick += 1 }
                Button("Title") { title = "b" }
                Button("Thing") { thing = Thing("two") }
                Text("tick \(tick)")
            }
        }
    }

    @Test func equalNonEquatableInputsDoNotReRunTheChild() throws {
        let tree = RenderTree(Parent())
        tree.clearLog()
        try tree.tap("Tick")
        #expect(tree.log == ["Parent: _tick changed"])
    }

    @Test func aChangedFieldOfANonEquatableInputReRunsTheChild() throws {
        let tree = RenderTree(Parent())
        tree.clearLog()
        try tree.tap("Title")
        #expect(tree.log == ["Parent: _title changed", "Child: @self changed"])
        #expect(tree.texts.first == "b one")
    }

    @Test func anotherObjectReRunsTheChild() throws {
        let tree = RenderTree(Parent())
        tree.clearLog()
        try tree.tap("Thing")
        #expect(tree.log == ["Parent: _thing changed", "Child: @self changed"])
        #expect(tree.texts.first == "a two")
    }

    struct Capturing: View {
        let onTap: () -> Void
        var body: some View { Button("Capture", action: onTap) }
    }

    struct CapturingParent: View {
        @State var tick = 0
        var body: some View {
            VStack {
                Capturing { _ = tick }  // a closure capturing the parent: a new one every time
                Button("Tick \(tick)") { tick += 1 }
            }
        }
    }

    @Test func aNewClosureReRunsTheChild() throws {
        let tree = RenderTree(CapturingParent())
        tree.clearLog()
        try tree.tap("Tick 0")
        #expect(tree.log == ["CapturingParent: _tick changed", "Capturing: @self changed"])
    }

    struct Holder: View {
        @Bindable var thing: Thing
        @State var local = 0
        var body: some View { Text(thing.name) }
    }

    struct HolderParent: View {
        @State var tick = 0
        @State var thing = Thing("one")
        var body: some View {
            VStack {
                Holder(thing: thing)
                Button("Tick") { tick += 1 }
                Button("Swap") { thing = Thing("two") }
                Text("\(tick)")
            }
        }
    }

    @Test func bindableComparesByTheObjectItHolds() throws {
        let tree = RenderTree(HolderParent())
        tree.clearLog()
        try tree.tap("Tick")
        #expect(tree.log == ["HolderParent: _tick changed"])
        try tree.tap("Swap")
        #expect(tree.log == ["HolderParent: _tick changed", "HolderParent: _thing changed", "Holder: @self changed"])
        #expect(tree.texts.first == "two")
    }
}
