// Code written for Apple's Combine, unchanged: the Combine compatibility module makes it build and
// behave the same on platforms without Combine.
#if canImport(Combine)
import Combine
#else
#error("the Combine compatibility module should make `canImport(Combine)` true")
#endif
import Testing

/// A subscriber written against Combine's protocols by their qualified names.
private final class FirstTwo: Combine.Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var received: [Int] = []
    var subscription: (any Combine.Subscription)?

    func receive(subscription: any Combine.Subscription) {
        self.subscription = subscription
        subscription.request(Combine.Subscribers.Demand.max(2))
    }

    func receive(_ input: Int) -> Combine.Subscribers.Demand {
        received.append(input)
        return .none
    }

    func receive(completion: Combine.Subscribers.Completion<Never>) {}
}

@Suite struct CombineModuleTests {
    @Test func qualifiedNamesResolveToRipple() {
        let subscriber = FirstTwo()
        let publisher: any Combine.Publisher<Int, Never> = Combine.Publishers.Sequence<[Int], Never>(sequence: [1, 2, 3])
        publisher.subscribe(subscriber)
        #expect(subscriber.received == [1, 2])
        let erased: Combine.AnyPublisher<Int, Never> = Combine.Just(5).eraseToAnyPublisher()
        var values: [Int] = []
        let cancellable: Combine.AnyCancellable = erased.sink { values.append($0) }
        #expect(values == [5])
        cancellable.cancel()
    }

    @Test func foundationComesWithIt() throws {
        // Combine users expect Foundation's Combine side (and Foundation) from the one import.
        let data = try JSONEncoder().encode([1, 2])
        let decoded = Just(data).decode(type: [Int].self, decoder: JSONDecoder()).replaceError(with: []).record()
        #expect(decoded == [[1, 2]])
    }

    @Test func observableObjectAndPublished() {
        final class Model: Combine.ObservableObject {
            @Combine.Published var name = ""
        }
        let model = Model()
        var events: [String] = []
        let cancellable = model.objectWillChange.sink { events.append("will change from '\(model.name)'") }
        model.name = "Ada"
        #expect(events == ["will change from ''"])
        cancellable.cancel()
    }
}

extension Publisher where Failure == Never {
    /// Collects what a synchronous publisher sends.
    fileprivate func record() -> [Output] {
        var values: [Output] = []
        _ = sink { values.append($0) }
        return values
    }
}
