import Ripple
import Testing

@Suite struct ObservableObjectLifetimeTests {
    final class Model: ObservableObject {
        @Published var value = 0
        @Published var other = "x"
    }

    @Test func objectWithLiveSubscribersIsReleasedWithItsLastStrongReference() {
        var model: Model? = Model()
        let weakModel = WeakRef(model)
        let willChange = model!.objectWillChange.sink { _ in }
        let projected = model!.$value.sink { _ in }
        let recorder = Recorder(for: model!.$other)
        model = nil
        #expect(weakModel.object == nil)  // no cycle through the publishers
        willChange.cancel()
        projected.cancel()
        #expect(!recorder.isCompleted)
    }

    @Test func publisherOutlivesTheObjectHarmlessly() {
        var model: Model? = Model()
        let publisher = model!.objectWillChange
        let weakPublisher = WeakRef(publisher)
        model = nil
        publisher.send()
        #expect(weakPublisher.object != nil)
    }

    @Test func sinkClosureCapturingTheModelWeaklyLetsItGo() {
        var model: Model? = Model()
        let weakModel = WeakRef(model)
        var token: AnyCancellable? = model!.objectWillChange.sink { [weak model] in _ = model?.value }
        model = nil
        #expect(weakModel.object == nil)
        token = nil
        _ = token
    }
}
