import Ripple
import Testing

@Suite struct AssignTests {
    final class Model: @unchecked Sendable {
        var text = ""
        var history: [String] = []
        var tracked: String = "" {
            didSet { history.append(tracked) }
        }
    }

    @Test func assignsEachValue() {
        let model = Model()
        let subject = PassthroughSubject<String, Never>()
        let token = subject.assign(to: \.tracked, on: model)
        subject.send("a")
        subject.send("b")
        #expect(model.history == ["a", "b"])
        token.cancel()
        subject.send("c")
        #expect(model.history == ["a", "b"])
    }

    // Rule 15
    @Test func ignoresValuesBeforeSubscription() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.text)
        #expect(assign.receive("early") == .none)
        #expect(model.text == "")
        let publisher = ManualPublisher<String, Never>()
        publisher.subscribe(assign)
        #expect(publisher.subscription.requests == [.unlimited])
        publisher.send("late")
        #expect(model.text == "late")
    }

    @Test func releasesTheObjectOnCompletionAndOnCancel() {
        var model: Model? = Model()
        let weakModel = WeakRef(model)
        let subject = PassthroughSubject<String, Never>()
        let assign = Subscribers.Assign(object: model!, keyPath: \Model.text)
        subject.subscribe(assign)
        model = nil
        #expect(weakModel.object != nil)
        #expect(assign.object != nil)
        subject.send(completion: .finished)
        #expect(weakModel.object == nil)
        #expect(assign.object == nil)

        var second: Model? = Model()
        let weakSecond = WeakRef(second)
        let token = Just("x").assign(to: \.text, on: second!)
        #expect(second?.text == "x")
        second = nil
        #expect(weakSecond.object == nil)  // Just finished, so Assign let go
        token.cancel()
    }

    @Test func keyPathIsExposed() {
        let assign = Subscribers.Assign(object: Model(), keyPath: \Model.text)
        #expect(assign.keyPath == \Model.text)
    }
}
