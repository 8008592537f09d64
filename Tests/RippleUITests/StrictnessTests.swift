import RippleUI
import Testing

// Rule 47: a body re-runs only for what SwiftUI's dependency rules would re-run it for. Each test
// proves the negative with an event: the flush that would have re-run the body has returned, and a
// change the body does depend on re-runs it (and shows the value the ignored change left behind).

final class SharedStore: ObservableObject {
    nonisolated(unsafe) static let shared = SharedStore()
    @Published var count = 0
    @Published var other = 0
}

@MainActor @Suite struct StrictnessTests {
    struct GlobalReader: View {
        @State var tick = 0
        let store: SharedStore
        var body: some View {
            VStack {
                Text("count \(store.count) tick \(tick)")
                Button("Tick") { tick += 1 }
            }
        }
    }

    @Test func anObservableObjectReadThroughNoWrapperIsNotADependency() throws {
        let store = SharedStore()
        let tree = RenderTree(GlobalReader(store: store))
        tree.clearLog()
        store.count += 1
        tree.flush()
        #expect(tree.log.isEmpty)
        #expect(tree.texts.first == "count 0 tick 0")
        // A dependency it does have re-runs it, and then it reads the new count.
        try tree.tap("Tick")
        #expect(tree.log == ["GlobalReader: _tick changed"])
        #expect(tree.texts.first == "count 1 tick 1")
    }

    @Test func theSharedInstanceReadInTheBodyIsNotADependency() throws {
        struct Shared: View {
            @State var tick = 0
            var body: some View {
                VStack {
                    Text("count \(SharedStore.shared.count)")
                    Button("Tick \(tick)") { tick += 1 }
                }
            }
        }
        let start = SharedStore.shared.count
        let tree = RenderTree(Shared())
        tree.clearLog()
        SharedStore.shared.count += 1
        tree.flush()
        #expect(tree.log.isEmpty)
        try tree.tap("Tick 0")
        #expect(tree.log == ["Shared: _tick changed"])
        #expect(tree.texts.first == "count \(start + 1)")
    }

    final class Child: ObservableObject {
        @Published var count = 0
    }

    final class Parent: ObservableObject {
        let child = Child()
        @Published var title = "parent"
    }

    struct NestedReader: View {
        @ObservedObject var store: Parent
        var body: some View { Text("\(store.title) \(store.child.count)") }
    }

    @Test func aNestedObservableObjectIsNotObserved() throws {
        let store = Parent()
        let tree = RenderTree(NestedReader(store: store))
        tree.clearLog()
        store.child.count += 1
        tree.flush()
        #expect(tree.log.isEmpty)
        #expect(tree.texts == ["parent 0"])
        // The observed object itself is: any change of it re-runs the body (object level).
        store.title = "store"
        tree.flush()
        #expect(tree.log == ["NestedReader: _store changed"])
        #expect(tree.texts == ["store 1"])
    }

    struct Theme {  // not Equatable
        var name: String
        var size: Int
        var tags: [String]
    }

    struct ThemeKey: EnvironmentKey {
        static let defaultValue = Theme(name: "plain", size: 12, tags: [])
    }

    struct ThemeReader: View {
        @Environment(\.theme) var theme
        var body: some View { Text("\(theme.name) \(theme.size)") }
    }

    struct ThemedRoot: View {
        @State var tick = 0
        @State var size = 14
        var body: some View {
            VStack {
                ThemeReader()
                Button("Tick \(tick)") { tick += 1 }
                Button("Bigger") { size += 2 }
            }
            .environment(\.theme, Theme(name: "night", size: size, tags: ["dark"]))
        }
    }

    @Test func anUnchangedNonEquatableEnvironmentValueDoesNotReRunItsReaders() throws {
        let tree = RenderTree(ThemedRoot())
        #expect(tree.texts.first == "night 14")
        tree.clearLog()
        try tree.tap("Tick 0")
        #expect(tree.log == ["ThemedRoot: _tick changed"])
        // A changed value does re-run the reader.
        try tree.tap("Bigger")
        #expect(tree.log == ["ThemedRoot: _tick changed", "ThemedRoot: _size changed", "ThemeReader: _theme changed"])
        #expect(tree.texts.first == "night 16")
    }

    struct Receiver: View {
        let source: PassthroughSubject<Int, Never>
        let label: String
        let seen: Locked<[String]>
        var body: some View {
            Text(label).onReceive(source) { value in seen.withLock { $0.append("\(label) \(value)") } }
        }
    }

    struct ReceiverHost: View {
        @State var useSecond = false
        @State var generation = 0
        let first: PassthroughSubject<Int, Never>
        let second: PassthroughSubject<Int, Never>
        let seen: Locked<[String]>
        var body: some View {
            VStack {
                Receiver(source: useSecond ? second : first, label: "action \(generation)", seen: seen)
                Button("Next action") { generation += 1 }
                Button("Switch") { useSecond = true }
            }
        }
    }

    @Test func onReceiveRunsTheNewestActionAndFollowsANewPublisher() throws {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let seen = Locked<[String]>([])
        let tree = RenderTree(ReceiverHost(first: first, second: second, seen: seen))
        first.send(1)
        try tree.tap("Next action")
        first.send(2)
        try tree.tap("Switch")
        first.send(3)  // the old publisher: no longer subscribed
        second.send(4)
        #expect(seen.current == ["action 0 1", "action 1 2", "action 1 4"])
    }

    @Test func onReceiveStopsWhenTheViewLeaves() throws {
        struct Host: View {
            @State var shown = true
            let source: PassthroughSubject<Int, Never>
            let seen: Locked<[String]>
            var body: some View {
                VStack {
                    if shown { Receiver(source: source, label: "r", seen: seen) }
                    Button("Hide") { shown = false }
                }
            }
        }
        let source = PassthroughSubject<Int, Never>()
        let seen = Locked<[String]>([])
        let tree = RenderTree(Host(source: source, seen: seen))
        source.send(1)
        try tree.tap("Hide")
        source.send(2)
        #expect(seen.current == ["r 1"])
    }
}

extension EnvironmentValues {
    var theme: StrictnessTests.Theme {
        get { self[StrictnessTests.ThemeKey.self] }
        set { self[StrictnessTests.ThemeKey.self] = newValue }
    }
}
