import Ripple
import Testing

/// Combine's public subscribers, type erasers and operator inners describe themselves by name, in
/// debugging output, mirrors and playgrounds; users' tests read these.
@Suite struct DescriptionTests {
    final class Model {
        var value = 0
    }

    @Test func sinkIsDescribedAsSink() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.description == "Sink")
        #expect(sink.playgroundDescription as? String == "Sink")
        #expect(Mirror(reflecting: sink).children.isEmpty)
    }

    @Test func assignNamesItsRootTypeAndMirrorsItsParts() {
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \Model.value)
        #expect(assign.description == "Assign Model.")
        #expect(assign.playgroundDescription as? String == "Assign Model.")
        let labels = Mirror(reflecting: assign).children.map(\.label)
        #expect(labels == ["object", "keyPath", "status"])
    }

    @Test func anySubscriberShowsWhatItWraps() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let erased = AnySubscriber(sink)
        #expect(erased.description == "Sink")
        #expect(erased.playgroundDescription as? String == "Sink")
        #expect(Mirror(reflecting: erased).children.isEmpty)
        let closures = AnySubscriber<Int, Never>(receiveValue: { _ in .none })
        #expect(closures.description == "Anonymous AnySubscriber")
        #expect(closures.playgroundDescription as? String == "Anonymous AnySubscriber")
    }

    @Test func anyPublisherIsDescribedAsAnyPublisher() {
        let erased = Just(1).eraseToAnyPublisher()
        #expect(erased.description == "AnyPublisher")
        #expect(erased.playgroundDescription as? String == "AnyPublisher")
    }

    @Test func reducingInnersMirrorTheirDownstreamAndResult() {
        let recorder = Recorder<[Int], Never>(demand: nil)
        ManualPublisher<Int, Never>().collect().subscribe(recorder)
        let subscription = recorder.subscription
        #expect(subscription.map { String(describing: $0) } == "Collect")
        let labels = subscription.map { Mirror(reflecting: $0).children.map(\.label) }
        #expect(labels == ["downstream", "result"])
    }

    @Test func filteringInnersMirrorTheirDownstream() {
        let recorder = Recorder<Int, any Error>(demand: nil)
        [1, 2].publisher.tryMap { $0 }.subscribe(recorder)
        let labels = recorder.subscription.map { Mirror(reflecting: $0).children.map(\.label) }
        #expect(labels == ["downstream"])
    }
}
