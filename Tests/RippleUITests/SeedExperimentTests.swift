import Foundation
import RippleCore  // LockedValue
import RippleUI
import Testing

// The seeds' experiments, asserted: which bodies ran, how many times, with which values.

// MARK: Seed 000 — @State lives in the node; the initializer only sets the initial value

struct Counter: View {
    @State private var value: Int

    init(start: Int) { _value = State(initialValue: start) }

    var body: some View {
        Button("Count: \(value)") { value += 1 }
    }
}

struct CounterParent: View {
    @State private var start = 5
    var body: some View {
        VStack {
            Counter(start: start)
            Button("Start at 10") { start = 10 }
        }
    }
}

@Suite @MainActor struct StateSeedTests {
    // Rule 44
    @Test func initialValueIsUsedOnlyOnInsertion() throws {
        let tree = RenderTree(CounterParent())
        #expect(tree.texts == ["Count: 5", "Start at 10"])
        try tree.tap("Count: 5")
        #expect(tree.texts == ["Count: 6", "Start at 10"])
        try tree.tap("Start at 10")
        // The parent re-ran with a new initial value; the counter kept its node and its state.
        #expect(tree.texts == ["Count: 6", "Start at 10"])
        #expect(tree.log == [
            "CounterParent: @identity", "Counter: @identity", "Counter: _value changed", "CounterParent: _start changed",
        ])
    }

    @Test func aNewIdentityStartsFresh() throws {
        struct Keyed: View {
            @State var generation = 0
            var body: some View {
                VStack {
                    Counter(start: 1).id(generation)
                    Button("Replace") { generation += 1 }
                }
            }
        }
        let tree = RenderTree(Keyed())
        try tree.tap("Count: 1")
        #expect(tree.texts.first == "Count: 2")
        try tree.tap("Replace")
        #expect(tree.texts.first == "Count: 1")
        #expect(tree.log.suffix(2) == ["Keyed: _generation changed", "Counter: @identity"])
    }
}

// MARK: Seed 002 — @ObservedObject resets when the parent re-renders; @StateObject survives

final class CountViewModel: ObservableObject {
    @Published var count = 0
    func addCount() { count += 1 }
}

struct ObservedCountView: View {
    @ObservedObject var viewModel = CountViewModel()
    let rootCount: Int
    var body: some View {
        VStack {
            Text("Root: \(rootCount)")
            Text("Count: \(viewModel.count)")
            Button("Counter Add") { viewModel.addCount() }
        }
    }
}

struct OwnedCountView: View {
    @StateObject var viewModel = CountViewModel()
    let rootCount: Int
    var body: some View {
        VStack {
            Text("Root: \(rootCount)")
            Text("Count: \(viewModel.count)")
            Button("Counter Add") { viewModel.addCount() }
        }
    }
}

struct RootView<Child: View>: View {
    @State private var rootCount = 0
    let child: (Int) -> Child
    var body: some View {
        VStack {
            child(rootCount)
            Button("Root Add") { rootCount += 1 }
        }
    }
}

@Suite @MainActor struct ObjectSeedTests {
    // Rule 45: the observed object is re-created with the view; the count resets.
    @Test func observedObjectResetsWhenTheParentReRenders() throws {
        let tree = RenderTree(RootView { ObservedCountView(rootCount: $0) })
        try tree.tap("Counter Add")
        try tree.tap("Counter Add")
        #expect(tree.texts.prefix(2) == ["Root: 0", "Count: 2"])
        try tree.tap("Root Add")
        #expect(tree.texts.prefix(2) == ["Root: 1", "Count: 0"])
        #expect(tree.log.suffix(2) == ["RootView: _rootCount changed", "ObservedCountView: @self changed"])
    }

    // Rule 45: the state object is created once per node identity and survives.
    @Test func stateObjectSurvivesTheParentsReRender() throws {
        let created = Locked(0)
        final class Counting: ObservableObject {
            @Published var count = 0
            init(_ created: Locked<Int>) { created.withLock { $0 += 1 } }
        }
        struct View1: View {
            @StateObject var model: Counting
            let root: Int
            init(root: Int, created: Locked<Int>) {
                self.root = root
                _model = StateObject(wrappedValue: Counting(created))
            }
            var body: some View {
                VStack {
                    Text("Root: \(root) Count: \(model.count)")
                    Button("Counter Add") { model.count += 1 }
                }
            }
        }
        let tree = RenderTree(RootView { View1(root: $0, created: created) })
        try tree.tap("Counter Add")
        try tree.tap("Counter Add")
        try tree.tap("Root Add")
        #expect(tree.texts.first == "Root: 1 Count: 2")
        #expect(created.current == 1)  // the autoclosure ran once
    }

    @Test func stateObjectCountSurvivesTooInTheSeedsShape() throws {
        let tree = RenderTree(RootView { OwnedCountView(rootCount: $0) })
        try tree.tap("Counter Add")
        try tree.tap("Counter Add")
        try tree.tap("Root Add")
        #expect(tree.texts.prefix(2) == ["Root: 1", "Count: 2"])
    }

    // Node removal releases the state object; re-insertion starts fresh.
    @Test func removalReleasesStateAndReinsertionStartsFresh() throws {
        weak var weakModel: CountViewModel?
        struct Switcher: View {
            @State var shown = true
            let onModel: (CountViewModel) -> Void
            var body: some View {
                VStack {
                    if shown { Holder(onModel: onModel) }
                    Button("Switch") { shown.toggle() }
                }
            }
        }
        struct Holder: View {
            @StateObject var model = CountViewModel()
            let onModel: (CountViewModel) -> Void
            var body: some View {
                onModel(model)
                return Button("Add \(model.count)") { model.addCount() }
            }
        }
        let tree = RenderTree(Switcher(onModel: { weakModel = $0 }))
        try tree.tap("Add 0")
        #expect(tree.texts.first == "Add 1")
        #expect(weakModel != nil)
        try tree.tap("Switch")
        #expect(weakModel == nil)
        #expect(tree.texts == ["Switch"])
        try tree.tap("Switch")
        #expect(tree.texts.first == "Add 0")
    }
}

// MARK: Seed 000 — apples and peaches: object-level push vs property-level pull

final class Basket: ObservableObject {
    @Published var apples = 0
    @Published var peaches = 0
}

struct PushAppleView: View {
    @ObservedObject var basket: Basket
    var body: some View { Text("Apples: \(basket.apples)") }
}

struct PushPeachView: View {
    @ObservedObject var basket: Basket
    var body: some View { Text("Peaches: \(basket.peaches)") }
}

/// The basket as an `Observable` model written by hand (property-level tracking).
final class TrackedBasket: Observable, @unchecked Sendable {
    private let registrar = TrackingRegistrar()
    private var storedApples = 0
    private var storedPeaches = 0

    var apples: Int {
        get { registrar.access(self, keyPath: \.apples); return storedApples }
        set { registrar.withMutation(of: self, keyPath: \.apples) { storedApples = newValue } }
    }

    var peaches: Int {
        get { registrar.access(self, keyPath: \.peaches); return storedPeaches }
        set { registrar.withMutation(of: self, keyPath: \.peaches) { storedPeaches = newValue } }
    }
}

struct PullAppleView: View {
    @Bindable var basket: TrackedBasket
    var body: some View { Text("Apples: \(basket.apples)") }
}

struct PullPeachView: View {
    @Bindable var basket: TrackedBasket
    var body: some View { Text("Peaches: \(basket.peaches)") }
}

struct Fruit: View {
    let basket: Basket
    var tracked = TrackedBasket()
    let pull: Bool
    var body: some View {
        VStack {
            if pull {
                PullAppleView(basket: tracked)
                PullPeachView(basket: tracked)
            } else {
                PushAppleView(basket: basket)
                PushPeachView(basket: basket)
            }
        }
    }
}

@Suite @MainActor struct ApplesAndPeachesTests {
    // Rule 47, push: @ObservedObject re-runs both views.
    @Test func observedObjectReRunsBoth() throws {
        let basket = Basket()
        let tree = RenderTree(Fruit(basket: basket, pull: false))
        tree.clearLog()
        basket.peaches += 1
        tree.flush()
        #expect(tree.log.sorted() == ["PushAppleView: _basket changed", "PushPeachView: _basket changed"])
        #expect(tree.texts == ["Apples: 0", "Peaches: 1"])
    }

    // Rule 47, pull: @Bindable (property-level tracking) re-runs only the peach view.
    @Test func bindableReRunsOnlyWhatWasRead() throws {
        let basket = TrackedBasket()
        let tree = RenderTree(Fruit(basket: Basket(), tracked: basket, pull: true))
        tree.clearLog()
        basket.peaches += 1
        tree.flush()
        #expect(tree.log == ["PullPeachView: TrackedBasket.peaches changed"])
        #expect(tree.texts == ["Apples: 0", "Peaches: 1"])
        basket.apples += 1
        tree.flush()
        #expect(tree.log == ["PullPeachView: TrackedBasket.peaches changed", "PullAppleView: TrackedBasket.apples changed"])
        #expect(tree.evaluations(of: "PullAppleView") == 2)
        #expect(tree.evaluations(of: "PullPeachView") == 2)
    }
}

// MARK: Seed 003 — a view-model binding's setter fires on focus and twice per change

final class TypingViewModel: ObservableObject, @unchecked Sendable {
    @Published private(set) var description = ""
    var setterCalls = 0

    /// The seed's binding: every write goes through.
    var descriptionBinding: Binding<String> {
        Binding { self.description } set: {
            self.setterCalls += 1
            self.description = $0
        }
    }

    /// The fix: compare before writing.
    var comparingBinding: Binding<String> {
        Binding { self.description } set: { newValue in
            guard newValue != self.description else { return }
            self.setterCalls += 1
            self.description = newValue
        }
    }
}

@Suite @MainActor struct BindingSeedTests {
    struct Form: View {
        @ObservedObject var model: TypingViewModel
        let fixed: Bool
        var body: some View {
            TextField("Description", text: fixed ? model.comparingBinding : model.descriptionBinding)
        }
    }

    @Test func viewModelBindingFiresOnFocusAndTwicePerChange() throws {
        let model = TypingViewModel()
        let tree = RenderTree(Form(model: model, fixed: false))
        try tree.focus("Description")
        #expect(model.setterCalls == 1)  // nothing changed, yet the setter ran
        try tree.type("a", into: "Description")
        #expect(model.setterCalls == 3)  // one change, two calls
    }

    // Rule 46: the fix — an equal value is not a change.
    @Test func comparingSetterReportsEachChangeOnce() throws {
        let model = TypingViewModel()
        let tree = RenderTree(Form(model: model, fixed: true))
        try tree.focus("Description")
        try tree.type("a", into: "Description")
        #expect(model.setterCalls == 1)
        #expect(tree.texts == ["[Description: a]"])
    }

    // Rule 46: Ripple's own projections skip equal writes.
    @Test func stateBindingSkipsEqualWrites() throws {
        struct Field: View {
            @State var text = ""
            var body: some View {
                VStack {
                    TextField("Name", text: $text)
                    Text("Hello, \(text)")
                }
            }
        }
        let tree = RenderTree(Field())
        try tree.focus("Name")
        // Focus wrote the same text back: not a change, no re-evaluation.
        #expect(tree.evaluations(of: "Field") == 1)
        try tree.type("Ada", into: "Name")
        #expect(tree.log == ["Field: @identity", "Field: _text changed"])
        #expect(tree.texts == ["[Name: Ada]", "Hello, Ada"])
    }

    @Test func objectBindingSkipsEqualWrites() throws {
        final class Profile: ObservableObject {
            @Published var name = "Ada"
        }
        struct Editor: View {
            @ObservedObject var profile: Profile
            var body: some View { TextField("Name", text: $profile.name) }
        }
        let profile = Profile()
        let changes = Locked(0)
        let token = profile.objectWillChange.sink { changes.withLock { $0 += 1 } }
        let tree = RenderTree(Editor(profile: profile))
        try tree.focus("Name")
        #expect(changes.current == 0)
        try tree.type("Grace", into: "Name")
        #expect(changes.current == 1)  // two writes of the same new value: one change
        #expect(profile.name == "Grace")
        token.cancel()
    }
}

/// A value behind a lock (tests).
typealias Locked<Value> = LockedValue<Value>

extension LockedValue {
    /// The value now (a copy, read under the lock).
    var current: Value { withLock { $0 } }
}

// MARK: Seed 004 — an environment object and a custom environment key

private struct QuestionsPerSessionKey: EnvironmentKey {
    static let defaultValue = 5
}

extension EnvironmentValues {
    fileprivate var questionsPerSession: Int {
        get { self[QuestionsPerSessionKey.self] }
        set { self[QuestionsPerSessionKey.self] = newValue }
    }
}

final class ChallengesViewModel: ObservableObject {
    @Published var correct = 0
}

private struct ScoreView: View {
    @EnvironmentObject var challenges: ChallengesViewModel
    @Environment(\.questionsPerSession) var questions
    var body: some View { Text("Score: \(challenges.correct) of \(questions)") }
}

private struct AnswerButton: View {
    @EnvironmentObject var challenges: ChallengesViewModel
    var body: some View { Button("Answer correctly") { challenges.correct += 1 } }
}

private struct StarterView: View {
    @State private var questions = 5
    var body: some View {
        VStack {
            ScoreView()
            AnswerButton()
            Button("Ten questions") { questions = 10 }
        }
        .environment(\.questionsPerSession, questions)
    }
}

@Suite @MainActor struct EnvironmentSeedTests {
    @Test func descendantsShareTheInjectedObjectAndReadTheKey() throws {
        let challenges = ChallengesViewModel()
        let tree = RenderTree(StarterView().environmentObject(challenges))
        #expect(tree.texts.first == "Score: 0 of 5")
        tree.clearLog()
        try tree.tap("Answer correctly")
        #expect(challenges.correct == 1)
        #expect(tree.texts.first == "Score: 1 of 5")
        #expect(tree.log == ["ScoreView: _challenges changed", "AnswerButton: _challenges changed"])
        tree.clearLog()
        try tree.tap("Ten questions")
        #expect(tree.texts.first == "Score: 1 of 10")
        #expect(tree.log == ["StarterView: _questions changed", "ScoreView: _questions changed"])
    }
}
