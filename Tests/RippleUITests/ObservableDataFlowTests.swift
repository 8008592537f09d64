import RippleUI
import Testing

// The iOS 17 data flow with toolchain `@Observable` models, written as SwiftUI code is: models in
// @State, in plain properties, with @Bindable and Bindable(model), in the environment. Every
// "a property the body read changed → it re-runs" comes with "a property it did not read changed →
// it does not" (the flush that would have re-run it has returned, and the log says what ran).

@Observable final class CounterModel {
    var value = 0
    var other = 0
}

// MARK: A model in @State

struct StateCounter: View {
    @State private var model = CounterModel()

    var body: some View {
        VStack {
            Button("Increment: \(model.value)") {
                model.value += 1
            }
            Button("Other") { model.other += 1 }
        }
    }
}

struct CounterScreen: View {
    @State private var rootCount = 0
    var body: some View {
        VStack {
            StateCounter()
            Button("Root Add \(rootCount)") { rootCount += 1 }
        }
    }
}

@MainActor @Suite struct ObservableStateTests {
    @Test func aPropertyTheBodyReadReRunsIt() throws {
        let tree = RenderTree(StateCounter())
        tree.clearLog()
        try tree.tap("Increment: 0")
        #expect(tree.texts.first == "Increment: 1")
        #expect(tree.log == ["StateCounter: CounterModel.value changed"])
    }

    @Test func aPropertyTheBodyDidNotReadDoesNotReRunIt() throws {
        let tree = RenderTree(StateCounter())
        tree.clearLog()
        try tree.tap("Other")
        #expect(tree.log.isEmpty)
        try tree.tap("Increment: 0")
        #expect(tree.log == ["StateCounter: CounterModel.value changed"])
    }

    @Test func theModelSurvivesTheParentsReEvaluation() throws {
        let tree = RenderTree(CounterScreen())
        try tree.tap("Increment: 0")
        try tree.tap("Increment: 1")
        tree.clearLog()
        try tree.tap("Root Add 0")
        #expect(tree.texts == ["Increment: 2", "Other", "Root Add 1"])
        // The child's inputs did not change: only the parent re-ran, and the model kept its count.
        #expect(tree.log == ["CounterScreen: _rootCount changed"])
    }

    @Test func theModelIsCreatedOncePerNode() throws {
        struct Keyed: View {
            @State var generation = 0
            var body: some View {
                VStack {
                    StateCounter().id(generation)
                    Button("Replace") { generation += 1 }
                }
            }
        }
        let tree = RenderTree(Keyed())
        try tree.tap("Increment: 0")
        #expect(tree.texts.first == "Increment: 1")
        try tree.tap("Replace")
        #expect(tree.texts.first == "Increment: 0")
    }
}

// MARK: A model passed in as a plain property

@Observable final class SharedCounterModel {
    nonisolated(unsafe) static let shared = SharedCounterModel()
    var value = 0
    var unread = 0
}

struct PlainCounter: View {
    let model: SharedCounterModel

    var body: some View {
        Button("Shared: \(model.value)") {
            model.value += 1
        }
    }
}

@MainActor @Suite struct ObservablePlainPropertyTests {
    @Test func aPropertyTheBodyReadReRunsIt() throws {
        let model = SharedCounterModel()
        let tree = RenderTree(PlainCounter(model: model))
        tree.clearLog()
        try tree.tap("Shared: 0")
        #expect(tree.texts == ["Shared: 1"])
        #expect(tree.log == ["PlainCounter: SharedCounterModel.value changed"])
        model.value = 10  // from outside the tree
        tree.flush()
        #expect(tree.texts == ["Shared: 10"])
    }

    @Test func aPropertyTheBodyDidNotReadDoesNotReRunIt() throws {
        let model = SharedCounterModel()
        let tree = RenderTree(PlainCounter(model: model))
        tree.clearLog()
        model.unread += 1
        tree.flush()
        #expect(tree.log.isEmpty)
        model.value += 1
        tree.flush()
        #expect(tree.log == ["PlainCounter: SharedCounterModel.value changed"])
    }

    @Test func theSharedInstanceIsObservedWithoutAWrapper() throws {
        struct ContentView: View {
            var body: some View {
                PlainCounter(model: SharedCounterModel.shared)
            }
        }
        let start = SharedCounterModel.shared.value
        let tree = RenderTree(ContentView())
        try tree.tap("Shared: \(start)")
        #expect(tree.texts == ["Shared: \(start + 1)"])
    }
}

// MARK: Apples and peaches: @Bindable

@Observable final class FruitModel {
    var numberOfApples = 0
    var numberOfPeaches = 0
}

struct FruitStepper: View {
    let title: String
    @Binding var value: Int
    var body: some View { Button(title) { value += 1 } }
}

struct AppleView: View {
    @Bindable var model: FruitModel

    var body: some View {
        FruitStepper(title: "apples \(model.numberOfApples)", value: $model.numberOfApples)
    }
}

struct PeachView: View {
    @Bindable var model: FruitModel

    var body: some View {
        FruitStepper(title: "peaches \(model.numberOfPeaches)", value: $model.numberOfPeaches)
    }
}

struct FruitScreen: View {
    var model: FruitModel

    var body: some View {
        AppleView(model: model)
        PeachView(model: model)
    }
}

@Observable final class Flags {
    var isOn = false
}

@MainActor @Suite struct ObservableBindableTests {
    @Test func tappingApplesReRunsOnlyTheAppleView() throws {
        let model = FruitModel()
        let tree = RenderTree(FruitScreen(model: model))
        tree.clearLog()
        try tree.tap("apples 0")
        #expect(model.numberOfApples == 1)
        #expect(tree.texts == ["apples 1", "peaches 0"])
        #expect(tree.log == ["AppleView: FruitModel.numberOfApples changed", "FruitStepper: @self changed"])
    }

    @Test func tappingPeachesDoesNotReRunTheAppleView() throws {
        let model = FruitModel()
        let tree = RenderTree(FruitScreen(model: model))
        tree.clearLog()
        try tree.tap("peaches 0")
        #expect(tree.texts == ["apples 0", "peaches 1"])
        #expect(tree.log == ["PeachView: FruitModel.numberOfPeaches changed", "FruitStepper: @self changed"])
        #expect(tree.evaluations(of: "AppleView") == 1)
    }

    @Test func anInlineBindableMakesABinding() throws {
        struct Screen: View {
            var flags: Flags
            var body: some View {
                Toggle("Enabled", isOn: Bindable(flags).isOn)
            }
        }
        let flags = Flags()
        let tree = RenderTree(Screen(flags: flags))
        try tree.toggle("Enabled")
        #expect(flags.isOn)
        #expect(tree.texts == ["[Enabled: on]"])
    }

    @Test func bindingsWithoutTheWrapperSyntax() throws {
        struct Counter: View {
            var _model: Bindable<FruitModel>
            var model: FruitModel { _model.wrappedValue }
            var body: some View {
                FruitStepper(title: "apples \(model.numberOfApples)", value: _model.projectedValue[dynamicMember: \.numberOfApples])
            }
        }
        let model = FruitModel()
        let tree = RenderTree(Counter(_model: Bindable(model)))
        try tree.tap("apples 0")
        #expect(tree.texts == ["apples 1"])
    }

    // The ObservableObject version, beside it: object level, both views re-run.
    final class PublishedFruit: ObservableObject {
        @Published var numberOfApples = 0
        @Published var numberOfPeaches = 0
    }

    struct PushAppleView: View {
        @ObservedObject var model: PublishedFruit
        var body: some View {
            FruitStepper(title: "apples \(model.numberOfApples)", value: $model.numberOfApples)
        }
    }

    struct PushPeachView: View {
        @ObservedObject var model: PublishedFruit
        var body: some View {
            FruitStepper(title: "peaches \(model.numberOfPeaches)", value: $model.numberOfPeaches)
        }
    }

    @Test func theObservableObjectVersionReRunsBothViews() throws {
        let model = PublishedFruit()
        let tree = RenderTree(VStack { PushAppleView(model: model); PushPeachView(model: model) })
        tree.clearLog()
        try tree.tap("apples 0")
        #expect(tree.texts == ["apples 1", "peaches 0"])
        #expect(tree.log.filter { !$0.hasPrefix("FruitStepper") } == ["PushAppleView: _model changed", "PushPeachView: _model changed"])
    }
}

// MARK: A model in the environment

@Observable final class Settings {
    var userName = "Ada"
    var fontSize = 14
}

struct Greeting: View {
    @Environment(Settings.self) private var settings
    var body: some View { Text("Hello, \(settings.userName)") }
}

struct FontLabel: View {
    @Environment(Settings.self) private var settings
    var body: some View { Text("Font \(settings.fontSize)") }
}

struct SettingsScreen: View {
    @State private var settings = Settings()
    var body: some View {
        VStack {
            Greeting()
            FontLabel()
            Button("Bigger") { settings.fontSize += 2 }
            Button("Sign in as Grace") { settings.userName = "Grace" }
        }
        .environment(settings)
    }
}

@MainActor @Suite struct ObservableEnvironmentModelTests {
    @Test func aReaderOfTheChangedPropertyReRuns() throws {
        let tree = RenderTree(SettingsScreen())
        tree.clearLog()
        try tree.tap("Bigger")
        #expect(tree.texts.prefix(2) == ["Hello, Ada", "Font 16"])
        #expect(tree.log == ["FontLabel: Settings.fontSize changed"])
    }

    @Test func aReaderOfAnotherPropertyDoesNot() throws {
        let tree = RenderTree(SettingsScreen())
        tree.clearLog()
        try tree.tap("Sign in as Grace")
        #expect(tree.texts.prefix(2) == ["Hello, Grace", "Font 14"])
        #expect(tree.log == ["Greeting: Settings.userName changed"])
        #expect(tree.evaluations(of: "FontLabel") == 1)
    }

    @Test func theOptionalFormReadsTheModelOrNil() throws {
        struct Optional: View {
            @Environment(Settings.self) private var settings: Settings?
            var body: some View { Text(settings?.userName ?? "signed out") }
        }
        let tree = RenderTree(VStack { Optional(); Optional().environment(Settings()) })
        #expect(tree.texts == ["signed out", "Ada"])
    }
}

// MARK: Names in the log

@MainActor @Suite struct ObservableLogTests {
    @Test func aRegistrarComputedPropertyIsNamed() throws {
        let basket = TrackedBasket()
        let tree = RenderTree(VStack { PullAppleView(basket: basket); PullPeachView(basket: basket) })
        tree.clearLog()
        basket.peaches += 1
        tree.flush()
        #expect(tree.log == ["PullPeachView: TrackedBasket.peaches changed"])
    }
}

// MARK: The documentation's samples, run

@Observable final class DocBasket {
    var apples = 0
    var peaches = 0
}

struct DocAppleView: View {
    @Bindable var basket: DocBasket
    var body: some View {
        Button("apples \(basket.apples)") { basket.apples += 1 }
    }
}

struct DocPeachView: View {
    var basket: DocBasket
    var body: some View { Text("peaches \(basket.peaches)") }
}

@Observable final class DocLibrary {
    var books = ["Dune"]
}

struct DocShelf: View {
    @Environment(DocLibrary.self) private var library
    var body: some View { Text("\(library.books.count) books") }
}

@MainActor @Suite struct ObservableDocumentationSampleTests {
    @Test func theLandingPageSample() throws {
        let basket = DocBasket()
        let tree = RenderTree(VStack { DocAppleView(basket: basket); DocPeachView(basket: basket) })
        tree.clearLog()
        try tree.tap("apples 0")
        #expect(tree.log == ["DocAppleView: DocBasket.apples changed"])
        #expect(tree.texts == ["apples 1", "peaches 0"])
    }

    @Test func theEnvironmentSample() throws {
        let tree = RenderTree(DocShelf().environment(DocLibrary()))
        #expect(tree.texts == ["1 books"])
    }
}

// MARK: Changes from another thread

/// Written from a pool thread in the test below (Observation's registrar is thread-safe).
@Observable final class ThreadedModel: @unchecked Sendable {
    var value = 0
    var unread = 0
}

struct ThreadedReader: View {
    let model: ThreadedModel
    var body: some View { Text("Shared: \(model.value)") }
}

@MainActor @Suite struct ObservableThreadingTests {
    @Test func aChangeFromAnotherThreadMarksTheReaderForTheNextFlush() async {
        let model = ThreadedModel()
        let tree = RenderTree(ThreadedReader(model: model))
        tree.clearLog()
        // Written on a pool thread; the tree is only marked, and the main actor flushes.
        await Task.detached { model.value = 5 }.value
        await Task.detached { model.unread = 9 }.value
        tree.flush()
        #expect(tree.log == ["ThreadedReader: ThreadedModel.value changed"])
        #expect(tree.texts == ["Shared: 5"])
    }
}
