import RippleUI

// Chapter 10: the iOS 17 data flow. `@Observable` models in `@State`, in plain properties, with
// `@Bindable` and in the environment; a body re-runs only when a property it read changes.

@MainActor private func showScreen(_ tree: RenderTree, _ note: String) {
    show("\(note): \(tree.texts.joined(separator: " | "))")
}

@MainActor private func showBodies(_ tree: RenderTree) {
    for line in tree.log { show("  body: \(line)") }
    tree.clearLog()
}

// MARK: A model in @State: its lifetime is the node's

@Observable private final class CounterModel {
    var value = 0
}

private struct StateCounter: View {
    @State private var model = CounterModel()

    var body: some View {
        Button("Increment: \(model.value)") {
            model.value += 1
        }
    }
}

private struct CounterScreen: View {
    @State private var rootCount = 0
    var body: some View {
        VStack {
            StateCounter()
            Button("Root Add \(rootCount)") { rootCount += 1 }
        }
    }
}

// MARK: A model passed in as a plain property: observed because the body reads it

@MainActor @Observable private final class SharedModel {
    static let shared = SharedModel()
    var value = 0
}

private struct PlainCounter: View {
    let model: SharedModel

    var body: some View {
        Button("Shared: \(model.value)") {
            model.value += 1
        }
    }
}

private struct PlainScreen: View {
    var body: some View {
        PlainCounter(model: SharedModel.shared)
    }
}

// MARK: Apples and peaches: @Bindable, property-level invalidation

@Observable private final class FruitModel {
    var numberOfApples = 0
    var numberOfPeaches = 0
}

/// A one-button stepper: it edits a value it does not own, through a binding.
private struct StepUp: View {
    let title: String
    @Binding var value: Int
    var body: some View { Button(title) { value += 1 } }
}

private struct AppleView: View {
    @Bindable var model: FruitModel

    var body: some View {
        StepUp(title: "apples \(model.numberOfApples)", value: $model.numberOfApples)
    }
}

private struct PeachView: View {
    @Bindable var model: FruitModel

    var body: some View {
        StepUp(title: "peaches \(model.numberOfPeaches)", value: $model.numberOfPeaches)
    }
}

private struct FruitScreen: View {
    var model: FruitModel

    var body: some View {
        AppleView(model: model)
        PeachView(model: model)
    }
}

// MARK: A model in the environment

@Observable private final class Settings {
    var userName = "Ada"
    var fontSize = 14
}

private struct Greeting: View {
    @Environment(Settings.self) private var settings
    var body: some View { Text("Hello, \(settings.userName)") }
}

private struct FontLabel: View {
    @Environment(Settings.self) private var settings
    var body: some View { Text("Font \(settings.fontSize)") }
}

private struct SettingsScreen: View {
    @State private var settings = Settings()
    var body: some View {
        VStack {
            Greeting()
            FontLabel()
            Button("Bigger") { settings.fontSize += 2 }
        }
        .environment(settings)
    }
}

struct ObservableModelsChapter: Chapter {
    let title = "@Observable models: the iOS 17 data flow"
    let summary = """
        An @Observable model needs no wrapper to be observed: a body depends on exactly the properties
        it read. @State keeps a model alive as long as the view's node, @Bindable makes bindings to its
        properties, and .environment(model) shares it with @Environment(Model.self).
        """

    @MainActor func run() async throws {
        show("Example 10.1: a model in @State survives the parent's re-render")
        let counter = RenderTree(CounterScreen())
        try counter.tap("Increment: 0")
        try counter.tap("Increment: 1")
        counter.clearLog()
        try counter.tap("Root Add 0")
        showScreen(counter, "  after Increment ×2, Root Add")
        showBodies(counter)

        show("Example 10.2: a model passed as a plain property")
        let plain = RenderTree(PlainScreen())
        plain.clearLog()
        try plain.tap("Shared: 0")
        showScreen(plain, "  tapped")
        showBodies(plain)

        show("Example 10.3 (pull): apples and peaches — only the view that read the changed property re-runs")
        let fruit = RenderTree(FruitScreen(model: FruitModel()))
        fruit.clearLog()
        try fruit.tap("apples 0")
        showScreen(fruit, "  tapped apples ($model.numberOfApples)")
        showBodies(fruit)
        try fruit.tap("peaches 0")
        showScreen(fruit, "  tapped peaches")
        showBodies(fruit)

        show("Example 10.4: a model in the environment")
        let settings = RenderTree(SettingsScreen())
        settings.clearLog()
        try settings.tap("Bigger")
        showScreen(settings, "  fontSize += 2")
        showBodies(settings)
    }
}
