import Ripple
import Testing

/// Rule 36: `assign(to: &$x)` requests unlimited, lives as long as the object, and an upstream
/// completion does not complete `$x`.
@Suite struct AssignToPublishedTests {
    final class Model: ObservableObject {
        @Published var value = 0
        init(source: some Publisher<Int, Never>) {
            source.assign(to: &$value)
        }
    }

    @Test func requestsUnlimitedAndAssignsWithWillChange() {
        let source = ManualPublisher<Int, Never>()
        let model = Model(source: source)
        #expect(source.subscription.requests == [.unlimited])
        let seen = Locked<[Int]>([])
        let token = model.objectWillChange.sink { seen.withLock { $0.append(model.value) } }
        source.send(1)
        source.send(2)
        #expect(model.value == 2)
        #expect(seen.current == [0, 1])
        token.cancel()
    }

    @Test func upstreamCompletionDoesNotCompleteTheProjection() {
        let source = PassthroughSubject<Int, Never>()
        let model = Model(source: source)
        let recorder = Recorder(for: model.$value)
        source.send(1)
        source.send(completion: .finished)
        model.value = 2
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(2)])
    }

    @Test func subscriptionEndsWithTheObject() {
        let source = ManualPublisher<Int, Never>()
        var model: Model? = Model(source: source)
        let weakModel = WeakRef(model)
        #expect(!source.subscription.cancelled)
        model = nil
        #expect(weakModel.object == nil)
        #expect(source.subscription.cancelled)
    }

    @Test func subscriptionLivesWithoutAnyCancellable() {
        let source = PassthroughSubject<Int, Never>()
        let model = Model(source: source)
        source.send(4)
        source.send(5)
        #expect(model.value == 5)
    }
}
