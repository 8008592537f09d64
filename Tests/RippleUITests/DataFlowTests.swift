import Foundation
import RippleUI
import Testing

@Suite @MainActor struct BindingTests {
    struct Stepper: View {
        @Binding var value: Int
        var body: some View {
            Button("\(value) +") { value += 1 }
        }
    }

    struct Owner: View {
        @State var count = 0
        var body: some View {
            VStack {
                Stepper(value: $count)
                Text("Owner sees \(count)")
            }
        }
    }

    // Rule 46: one source of truth, shared through a binding.
    @Test func childWritesThroughToTheOwnersState() throws {
        let tree = RenderTree(Owner())
        try tree.tap("0 +")
        #expect(tree.texts == ["1 +", "Owner sees 1"])
    }

    @Test func constantIgnoresWrites() throws {
        let tree = RenderTree(Stepper(value: .constant(7)))
        try tree.tap("7 +")
        #expect(tree.texts == ["7 +"])
    }

    struct Settings: Equatable {
        var volume = 3
        var muted = false
    }

    @Test func dynamicMemberProjection() throws {
        struct Panel: View {
            @State var settings = Settings()
            var body: some View {
                VStack {
                    Toggle("Muted", isOn: $settings.muted)
                    Stepper(value: $settings.volume)
                }
            }
        }
        let tree = RenderTree(Panel())
        try tree.toggle("Muted")
        try tree.tap("3 +")
        #expect(tree.texts == ["[Muted: on]", "4 +"])
    }

    // Seed 000's computed binding: a clamped value.
    @Test func computedClampedBinding() throws {
        struct Volume: View {
            @State var level = 9
            var clamped: Binding<Int> {
                Binding { level } set: { level = min(max($0, 0), 10) }
            }
            var body: some View {
                VStack {
                    Stepper(value: clamped)
                    Text("Level \(level)")
                }
            }
        }
        let tree = RenderTree(Volume())
        try tree.tap("9 +")
        try tree.tap("10 +")
        try tree.tap("10 +")
        #expect(tree.texts == ["10 +", "Level 10"])
    }

    @Test func mapTransformsBothWays() throws {
        struct Percent: View {
            @State var fraction = 0.5
            var body: some View {
                let percent = $fraction.map(get: { Int(($0 * 100).rounded()) }, set: { Double($0) / 100 })
                return VStack {
                    Stepper(value: percent)
                    Text("fraction \(fraction)")
                }
            }
        }
        let tree = RenderTree(Percent())
        try tree.tap("50 +")
        #expect(tree.texts == ["51 +", "fraction 0.51"])
    }

    @Test func bindableProjectionOfAModel() throws {
        final class Volume: Observable, @unchecked Sendable {
            private let registrar = TrackingRegistrar()
            private var storedLevel = 1
            var level: Int {
                get { registrar.access(self, keyPath: \.level); return storedLevel }
                set { registrar.withMutation(of: self, keyPath: \.level) { storedLevel = newValue } }
            }
        }
        struct Knob: View {
            @Bindable var volume: Volume
            var body: some View { Stepper(value: $volume.level) }
        }
        let volume = Volume()
        let tree = RenderTree(Knob(volume: volume))
        try tree.tap("1 +")
        #expect(volume.level == 2)
        #expect(tree.texts == ["2 +"])
        #expect(Bindable(volume).level.wrappedValue == 2)
    }
}

// MARK: Environment

private struct AccentKey: EnvironmentKey {
    static let defaultValue = "blue"
}

extension EnvironmentValues {
    var accent: String {
        get { self[AccentKey.self] }
        set { self[AccentKey.self] = newValue }
    }
}

final class Session: ObservableObject {
    @Published var user = "Ada"
}

@Suite(.exitTestWatchdog) @MainActor struct EnvironmentTests {
    struct Badge: View {
        @Environment(\.accent) var accent
        var body: some View { Text("accent \(accent)") }
    }

    struct Themed: View {
        @State var dark = false
        var body: some View {
            VStack {
                Badge().environment(\.accent, dark ? "black" : "white")
                Badge()
                Button("Dark") { dark = true }
            }
        }
    }

    @Test func customKeyFlowsDownAndChangesReEvaluateReaders() throws {
        let tree = RenderTree(Themed())
        #expect(tree.texts == ["accent white", "accent blue", "Dark"])
        tree.clearLog()
        try tree.tap("Dark")
        #expect(tree.texts == ["accent black", "accent blue", "Dark"])
        // Only the badge whose value changed re-ran, and the log says why.
        #expect(tree.log == ["Themed: _dark changed", "Badge: _accent changed"])
    }

    struct Greeting: View {
        @EnvironmentObject var session: Session
        var body: some View { Text("Hello, \(session.user)") }
    }

    @Test func environmentObjectFromAnAncestor() throws {
        let session = Session()
        let tree = RenderTree(VStack { Greeting() }.environmentObject(session))
        #expect(tree.texts == ["Hello, Ada"])
        session.user = "Grace"
        tree.flush()
        #expect(tree.texts == ["Hello, Grace"])
        #expect(tree.log.last == "Greeting: _session changed")
    }

    @Test func missingEnvironmentObjectTrapsNamingTheType() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run { _ = RenderTree(Greeting()) }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("No ObservableObject of type Session found"))
    }
}

// MARK: Modifiers, identity, diagnostics, misuse

@Suite(.exitTestWatchdog) @MainActor struct RenderTreeTests {
    @Test func onChangeRunsAfterTheUpdateWithOldAndNewValues() throws {
        struct Watcher: View {
            @State var value = 0
            let seen: Locked<[String]>
            var body: some View {
                Button("Bump") { value += 1 }
                    .onChange(of: value) { old, new in seen.withLock { $0.append("\(old)→\(new)") } }
            }
        }
        let seen = Locked<[String]>([])
        let tree = RenderTree(Watcher(seen: seen))
        #expect(seen.current.isEmpty)  // not on insertion
        try tree.tap("Bump")
        try tree.tap("Bump")
        #expect(seen.current == ["0→1", "1→2"])
    }

    @Test func onReceiveSubscribesWhileInTheTree() throws {
        struct Ticker: View {
            let ticks: PassthroughSubject<Int, Never>
            @State var last = 0
            var body: some View {
                Text("tick \(last)").onReceive(ticks) { last = $0 }
            }
        }
        let ticks = PassthroughSubject<Int, Never>()
        let tree = RenderTree(Ticker(ticks: ticks))
        ticks.send(3)
        tree.flush()
        #expect(tree.texts == ["tick 3"])
    }

    @Test func forEachKeepsStateByIDWhenItemsMove() throws {
        struct Item: Identifiable, Equatable {
            let id: String
        }
        struct Row: View {
            let item: Item
            @State var taps = 0
            var body: some View { Button("\(item.id) \(taps)") { taps += 1 } }
        }
        struct List: View {
            @State var items = [Item(id: "a"), Item(id: "b")]
            var body: some View {
                VStack {
                    ForEach(items) { Row(item: $0) }
                    Button("Reverse") { items.reverse() }
                }
            }
        }
        let tree = RenderTree(List())
        try tree.tap("b 0")
        try tree.tap("Reverse")
        #expect(tree.texts == ["b 1", "a 0", "Reverse"])
    }

    // Rule 47: bodies re-run only when something they read changed.
    @Test func bodiesThatReadNothingChangedDoNotReRun() throws {
        struct Static: View {
            var body: some View { Text("static") }
        }
        struct Screen: View {
            @State var count = 0
            var body: some View {
                VStack {
                    Static()
                    Button("Count \(count)") { count += 1 }
                }
            }
        }
        let tree = RenderTree(Screen())
        try tree.tap("Count 0")
        try tree.tap("Count 1")
        #expect(tree.evaluations(of: "Static") == 1)
        #expect(tree.evaluations(of: "Screen") == 3)
    }

    @Test func updatingTheRootWithNewInputsLogsSelf() throws {
        struct Title: View {
            let text: String
            var body: some View { Text(text) }
        }
        let tree = RenderTree(Title(text: "a"))
        tree.update(Title(text: "a"))
        #expect(tree.log == ["Title: @identity"])
        tree.update(Title(text: "b"))
        #expect(tree.log == ["Title: @identity", "Title: @self changed"])
        #expect(tree.texts == ["b"])
    }

    @Test func writingStateOutsideAnInstalledViewWarnsOnceAndDoesNothing() async throws {
        struct Loose: View {
            @State var value = 1
            var body: some View { Text("\(value)") }
        }
        // In a child process, so the warning does not land in this test run's output. The write
        // does nothing: the child exits with failure if the value changed.
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let unchanged = await MainActor.run { () -> Bool in
                let view = Loose()
                view.value = 2
                view.value = 3
                return view.value == 1
            }
            if !unchanged { exit(1) }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.components(separatedBy: "outside of an installed view").count == 2)
    }

    @Test func removedNodesReleaseTheirObjects() throws {
        weak var weakModel: Basket?
        struct Host: View {
            @State var show = true
            let make: () -> Basket
            var body: some View {
                VStack {
                    if show { Holder(model: make()) }
                    Button("Hide") { show = false }
                }
            }
        }
        struct Holder: View {
            @StateObject var model: Basket
            init(model: @autoclosure @escaping () -> Basket) { _model = StateObject(wrappedValue: model()) }
            var body: some View { Text("apples \(model.apples)") }
        }
        let tree = RenderTree(Host(make: {
            let basket = Basket()
            weakModel = basket
            return basket
        }))
        #expect(weakModel != nil)
        try tree.tap("Hide")
        #expect(weakModel == nil)
        _ = tree
    }
}

@Suite @MainActor struct EnvironmentPropagationTests {
    struct Badge: View {
        @Environment(\.accent) var accent
        var body: some View { Text("accent \(accent)") }
    }

    /// Reads nothing and has no inputs: it is not re-evaluated when its parent is.
    struct Middle: View {
        var body: some View { Badge() }
    }

    struct Root: View {
        @State var accent = "red"
        var body: some View {
            VStack {
                Middle()
                Button("Green") { accent = "green" }
            }
            .environment(\.accent, accent)
        }
    }

    @Test func aChangeReachesReadersBelowViewsThatAreNotReEvaluated() throws {
        let tree = RenderTree(Root())
        #expect(tree.texts.first == "accent red")
        tree.clearLog()
        try tree.tap("Green")
        #expect(tree.texts.first == "accent green")
        #expect(tree.log == ["Root: _accent changed", "Badge: _accent changed"])
        #expect(tree.evaluations(of: "Middle") == 1)
    }
}

extension EnvironmentPropagationTests {
    struct Greeting: View {
        @EnvironmentObject var session: Session
        var body: some View { Text("Hello, \(session.user)") }
    }

    struct Shell: View {
        var body: some View { Greeting() }
    }

    struct App: View {
        @State var session = Session()
        var body: some View {
            VStack {
                Shell()
                Button("Sign in as Grace") {
                    let next = Session()
                    next.user = "Grace"
                    session = next
                }
            }
            .environmentObject(session)
        }
    }

    @Test func aReplacedEnvironmentObjectReachesItsReaders() throws {
        let tree = RenderTree(App())
        #expect(tree.texts.first == "Hello, Ada")
        try tree.tap("Sign in as Grace")
        #expect(tree.texts.first == "Hello, Grace")
    }
}
