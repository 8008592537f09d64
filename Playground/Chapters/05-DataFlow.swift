import RippleUI

// Chapters 5–9: SwiftUI data-flow experiments, run on RippleUI's headless render tree.
// Each prints what the screen shows and the `_printChanges`-style log of which bodies ran and why.

@MainActor private func showTree(_ tree: RenderTree, _ note: String) {
    show("\(note): \(tree.texts.joined(separator: " | "))")
}

@MainActor private func showLog(_ tree: RenderTree) {
    for line in tree.log { show("  body: \(line)") }
    tree.clearLog()
}

// MARK: Chapter 5 — @State lives in the node

private struct Counter: View {
    @State private var value: Int
    init(start: Int) { _value = State(initialValue: start) }
    var body: some View {
        Button("Count: \(value)") { value += 1 }
    }
}

private struct CounterParent: View {
    @State private var start = 5
    var body: some View {
        VStack {
            Counter(start: start)
            Button("Start at 10") { start = 10 }
        }
    }
}

struct StateChapter: Chapter {
    let title = "@State lives in the render tree"
    let summary = """
        A Counter's @State gets its initial value from its initializer. The value lives in the render
        node, so once the node exists, a new initial value from the parent is ignored.
        """

    @MainActor func run() async throws {
        let tree = RenderTree(CounterParent())
        showTree(tree, "inserted")
        showLog(tree)
        try tree.tap("Count: 5")
        showTree(tree, "tapped the counter")
        showLog(tree)
        try tree.tap("Start at 10")
        showTree(tree, "parent now passes 10")
        showLog(tree)
        show("(the parent re-ran; Counter kept its node and its value: the initializer only sets the initial value)")
    }
}

// MARK: Chapter 6 — ObservedObject resets, StateObject survives

private final class CountViewModel: ObservableObject {
    @Published var count = 0
}

private struct ObservedCountView: View {
    @ObservedObject var viewModel = CountViewModel()
    let rootCount: Int
    var body: some View {
        VStack {
            Text("Root: \(rootCount)")
            Text("Count: \(viewModel.count)")
            Button("Counter Add") { viewModel.count += 1 }
        }
    }
}

private struct OwnedCountView: View {
    @StateObject var viewModel = CountViewModel()
    let rootCount: Int
    var body: some View {
        VStack {
            Text("Root: \(rootCount)")
            Text("Count: \(viewModel.count)")
            Button("Counter Add") { viewModel.count += 1 }
        }
    }
}

private struct ContentView<Child: View>: View {
    @State private var rootCount = 0
    let child: (Int) -> Child
    var body: some View {
        VStack {
            child(rootCount)
            Button("Root Add") { rootCount += 1 }
        }
    }
}

struct ObjectOwnershipChapter: Chapter {
    let title = "@ObservedObject vs @StateObject"
    let summary = """
        CountView creates its view model in a property initializer. With @ObservedObject the model is
        re-created whenever the parent re-renders, so the count resets; with @StateObject it is
        created once per node and survives.
        """

    @MainActor func run() async throws {
        for owned in [false, true] {
            show(owned ? "Example 6.2: @StateObject" : "Example 6.1: @ObservedObject")
            let tree = RenderTree(
                ContentView { count in
                    owned ? AnyView(OwnedCountView(rootCount: count)) : AnyView(ObservedCountView(rootCount: count))
                })
            try tree.tap("Counter Add")
            try tree.tap("Counter Add")
            showTree(tree, "  after Counter Add ×2")
            try tree.tap("Root Add")
            showTree(tree, "  after Root Add")
        }
    }
}

// MARK: Chapter 7 — apples and peaches, push vs pull in views

private final class PublishedBasket: ObservableObject {
    @Published var apples = 0
    @Published var peaches = 0
}

private struct AppleView: View {
    @ObservedObject var basket: PublishedBasket
    var body: some View { Text("Apples: \(basket.apples)") }
}

private struct PeachView: View {
    @ObservedObject var basket: PublishedBasket
    var body: some View { Text("Peaches: \(basket.peaches)") }
}

/// The same basket as an `@Observable` model (property-level tracking).
@Observable private final class Basket {
    var apples = 0
    var peaches = 0
}

private struct BindableAppleView: View {
    @Bindable var basket: Basket
    var body: some View { Text("Apples: \(basket.apples)") }
}

private struct BindablePeachView: View {
    @Bindable var basket: Basket
    var body: some View { Text("Peaches: \(basket.peaches)") }
}

struct ViewsPushPullChapter: Chapter {
    let title = "Apples and peaches in views"
    let summary = """
        Two views read a basket. An ObservableObject held as @ObservedObject re-runs them on any
        change of the object (push); an @Observable model (here held as @Bindable) re-runs a body
        only when a property it read changes (pull).
        """

    @MainActor func run() async throws {
        let published = PublishedBasket()
        let push = RenderTree(VStack { AppleView(basket: published); PeachView(basket: published) })
        let tracked = Basket()
        let pull = RenderTree(VStack { BindableAppleView(basket: tracked); BindablePeachView(basket: tracked) })
        push.clearLog()
        pull.clearLog()
        published.peaches += 1
        tracked.peaches += 1
        push.flush()
        pull.flush()
        show("Example 7.1 (push): peaches += 1 with @ObservedObject")
        showLog(push)
        show("Example 7.2 (pull): peaches += 1 with @Bindable")
        showLog(pull)
    }
}

// MARK: Chapter 8 — a binding made in the view model

private final class TypingViewModel: ObservableObject, @unchecked Sendable {
    @Published private(set) var description = ""
    private(set) var calls: [String] = []

    var descriptionBinding: Binding<String> {
        Binding { self.description } set: {
            self.calls.append("set \"\($0)\"")
            self.description = $0
        }
    }

    var comparingBinding: Binding<String> {
        Binding { self.description } set: { newValue in
            guard newValue != self.description else { return }
            self.calls.append("set \"\(newValue)\"")
            self.description = newValue
        }
    }
}

private struct TypingView: View {
    @ObservedObject var model: TypingViewModel
    let fixed: Bool
    var body: some View {
        TextField("Description", text: fixed ? model.comparingBinding : model.descriptionBinding)
    }
}

struct ViewModelBindingChapter: Chapter {
    let title = "A binding made by the view model"
    let summary = """
        The view model hands the text field a Binding(get:set:). The field writes through it when it
        gains focus and twice per edit, so the setter runs for nothing and twice per change. The fix:
        compare before writing (Ripple's own $state and $model.x bindings already do).
        """

    @MainActor func run() async throws {
        for fixed in [false, true] {
            let model = TypingViewModel()
            let tree = RenderTree(TypingView(model: model, fixed: fixed))
            try tree.focus("Description")
            try tree.type("a", into: "Description")
            show((fixed ? "comparing setter: " : "plain setter:     ") + model.calls.joined(separator: ", "))
        }
    }
}

// MARK: Chapter 9 — environment objects and a custom environment key

private struct QuestionsPerSessionKey: EnvironmentKey {
    static let defaultValue = 5
}

extension EnvironmentValues {
    fileprivate var questionsPerSession: Int {
        get { self[QuestionsPerSessionKey.self] }
        set { self[QuestionsPerSessionKey.self] = newValue }
    }
}

private final class ChallengesViewModel: ObservableObject {
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

struct EnvironmentChapter: Chapter {
    let title = "Environment objects and keys"
    let summary = """
        The root injects a ChallengesViewModel with environmentObject(_:); descendants read it with
        @EnvironmentObject, without passing it down. A custom EnvironmentKey carries the number of
        questions per session.
        """

    @MainActor func run() async throws {
        let tree = RenderTree(StarterView().environmentObject(ChallengesViewModel()))
        showTree(tree, "start")
        tree.clearLog()
        try tree.tap("Answer correctly")
        showTree(tree, "answered")
        showLog(tree)
        try tree.tap("Ten questions")
        showTree(tree, "ten questions")
        showLog(tree)
    }
}
