#if canImport(Combine)
import Combine
#endif
import Dispatch
import Foundation
import SearchKit
import Testing

@Suite struct SearchKitTests {
    @Test func theModelPublishesResultsAfterTheQuietPeriod() async throws {
        let model = SearchModel(
            catalog: ["swift", "swiftui", "ripple"], scheduler: DispatchQueue(label: "search"),
            quietPeriod: .milliseconds(10))
        let stream = model.$results.dropFirst().values
        model.query = "Sw"
        var results: [String] = []
        for await value in stream {
            results = value
            break
        }
        #expect(results == ["swift", "swiftui"])
    }

    @Test func aCustomOperatorWithItsOwnSubscription() {
        var received: [Int] = []
        var completion: Combine.Subscribers.Completion<Never>?
        let cancellable = (1...7).publisher.everyOther()
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append($0) })
        #expect(received == [1, 3, 5, 7])
        #expect(completion == .finished)
        cancellable.cancel()
    }

    @Test func theCustomOperatorKeepsDemand() {
        let subscriber = CountingSubscriber(initialDemand: 2)
        (1...10).publisher.everyOther().subscribe(subscriber)
        #expect(subscriber.values == [1, 3])
    }

    @Test func createBridgesACallbackAndCancelsIt() {
        var cancelled = false
        var received: [String] = []
        let publisher = AnyPublisher<String, Never>.create { emitter in
            emitter.send("a")
            emitter.send("b")
            return AnyCancellable { cancelled = true }
        }
        let cancellable = publisher.sink { received.append($0) }
        #expect(received == ["a", "b"])
        #expect(!cancelled)
        cancellable.cancel()
        #expect(cancelled)
    }

    @Test func createCompletes() {
        var events: [String] = []
        let cancellable = AnyPublisher<Int, Never>.create { emitter in
            emitter.send(1)
            emitter.send(completion: .finished)
            emitter.send(2)  // after completion: ignored
            return AnyCancellable {}
        }
        .sink(receiveCompletion: { _ in events.append("finished") }, receiveValue: { events.append("\($0)") })
        #expect(events == ["1", "finished"])
        cancellable.cancel()
    }
}

/// A subscriber written against Combine's protocol by module-qualified name.
final class CountingSubscriber: Combine.Subscriber {
    typealias Input = Int
    typealias Failure = Never

    private let initialDemand: Int
    private(set) var values: [Int] = []

    init(initialDemand: Int) { self.initialDemand = initialDemand }

    func receive(subscription: any Combine.Subscription) {
        subscription.request(.max(initialDemand))
    }

    func receive(_ input: Int) -> Combine.Subscribers.Demand {
        values.append(input)
        return .none
    }

    func receive(completion: Combine.Subscribers.Completion<Never>) {}
}
