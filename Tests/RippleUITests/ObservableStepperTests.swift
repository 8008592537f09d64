import RippleUI
import Testing

// The @Bindable examples written exactly as SwiftUI code is, with a Stepper: the property wrapper,
// the inline Bindable(model), and the spelled-out projection.

@Observable final class StepperModel {
    var value = 0
    var numberOfApples = 0
    var numberOfPeaches = 0
}

struct StepperCounter: View {
    @Bindable var model: StepperModel

    var body: some View {
        Stepper("\(model.value)", value: $model.value)
    }
}

struct InlineStepperScreen: View {
    var model: StepperModel

    var body: some View {
        Stepper("\(model.value)", value: Bindable(model).value)
    }
}

struct SpelledOutStepperCounter: View {
    var _model: Bindable<StepperModel>
    var model: StepperModel { _model.wrappedValue }

    var body: some View {
        Stepper("\(model.value)", value: _model.projectedValue[dynamicMember: \.value])
    }
}

struct StepperAppleView: View {
    @Bindable var model: StepperModel

    var body: some View {
        Stepper("\(model.numberOfApples)", value: $model.numberOfApples)
    }
}

struct StepperPeachView: View {
    @Bindable var model: StepperModel

    var body: some View {
        Stepper("\(model.numberOfPeaches)", value: $model.numberOfPeaches)
    }
}

struct StepperFruitScreen: View {
    var model: StepperModel

    var body: some View {
        StepperAppleView(model: model)
        StepperPeachView(model: model)
    }
}

@MainActor @Suite struct ObservableStepperTests {
    @Test func theWrapperForm() throws {
        let model = StepperModel()
        let tree = RenderTree(StepperCounter(model: model))
        tree.clearLog()
        try tree.increment("0")
        #expect(model.value == 1)
        #expect(tree.log == ["StepperCounter: StepperModel.value changed"])
    }

    @Test func theInlineForm() throws {
        let model = StepperModel()
        let tree = RenderTree(InlineStepperScreen(model: model))
        tree.clearLog()
        try tree.increment("0")
        #expect(model.value == 1)
        #expect(tree.log == ["InlineStepperScreen: StepperModel.value changed"])
    }

    @Test func theSpelledOutForm() throws {
        let model = StepperModel()
        let tree = RenderTree(SpelledOutStepperCounter(_model: Bindable(model)))
        try tree.increment("0")
        #expect(model.value == 1)
    }

    @Test func applesReRunsOnlyTheAppleView() throws {
        let model = StepperModel()
        let tree = RenderTree(StepperFruitScreen(model: model))
        tree.clearLog()
        try tree.increment("0")  // the apple stepper comes first
        #expect(model.numberOfApples == 1)
        #expect(tree.log == ["StepperAppleView: StepperModel.numberOfApples changed"])
    }

    @Test func peachesDoNotReRunTheAppleView() throws {
        let model = StepperModel()
        let tree = RenderTree(StepperFruitScreen(model: model))
        tree.clearLog()
        model.numberOfPeaches += 1
        tree.flush()
        #expect(tree.log == ["StepperPeachView: StepperModel.numberOfPeaches changed"])
        #expect(tree.evaluations(of: "StepperAppleView") == 1)
    }
}
