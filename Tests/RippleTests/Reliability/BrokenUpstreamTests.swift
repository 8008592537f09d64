import Foundation
import Ripple
import Testing

/// A publisher that keeps its subscriber and sends it nothing by itself, so a test can break the
/// protocol: send a value before any subscription, or one nobody asked for.
private final class BrokenPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let box = Locked<AnySubscriber<Output, Failure>?>(nil)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.withLock { $0 = AnySubscriber(subscriber) }
    }

    func subscribe(with subscription: any Subscription) { box.current?.receive(subscription: subscription) }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand { box.current?.receive(value) ?? .none }

    func send(completion: Subscribers.Completion<Failure>) { box.current?.receive(completion: completion) }
}

/// Misbehaving upstreams: where Apple's Combine traps on a broken upstream (its recorded tests
/// `assertCrashes` or expect `.crash`), Ripple traps too, naming the operator; elsewhere Ripple
/// passes the event on or ignores it, as Combine does. Exit tests, messages asserted.
@Suite struct BrokenUpstreamTests {
    enum Breakage: String, CaseIterable, Codable, Sendable {
        case valueWithoutDemandIntoCatch, valueWithoutDemandIntoTryCatch
        case valueBeforeSubscriptionIntoCatch, valueBeforeSubscriptionIntoRetry
        case valueBeforeSubscriptionIntoRemoveDuplicates, completionBeforeSubscriptionIntoRemoveDuplicates
        case valueBeforeSubscriptionIntoPrefixWhile, valueBeforeSubscriptionIntoTryFilter
        case valueBeforeSubscriptionIntoTryCompactMap, valueBeforeSubscriptionIntoDropUntilOutput

        /// Combine's recorded test for the trap (OpenCombine's suite, run against Combine).
        var source: String {
            switch self {
            case .valueWithoutDemandIntoCatch: "CatchTests.testCatchCrashesOnUnwantedInput"
            case .valueWithoutDemandIntoTryCatch: "CatchTests.testTryCatchCrashesOnUnwantedInput"
            case .valueBeforeSubscriptionIntoCatch: "CatchTests.testCatchReceiveValueBeforeSubscription"
            case .valueBeforeSubscriptionIntoRetry: "RetryTests.testRetryReceiveValueBeforeSubscription"
            case .valueBeforeSubscriptionIntoRemoveDuplicates:
                "RemoveDuplicatesTests.testRemoveDuplicatesReceiveValueBeforeSubscription"
            case .completionBeforeSubscriptionIntoRemoveDuplicates:
                "RemoveDuplicatesTests.testRemoveDuplicatesCompletionBeforeSubscription"
            case .valueBeforeSubscriptionIntoPrefixWhile: "PrefixWhileTests.testPrefixWhileReceiveValueBeforeSubscription"
            case .valueBeforeSubscriptionIntoTryFilter: "FilterTests.testTryFilterReceiveValueBeforeSubscription"
            case .valueBeforeSubscriptionIntoTryCompactMap:
                "CompactMapTests.testTryCompactMapReceiveValueBeforeSubscription"
            case .valueBeforeSubscriptionIntoDropUntilOutput:
                "DropUntilOutputTests.testDropUntilOutputReceiveValueBeforeSubscription"
            }
        }

        var message: String {
            switch self {
            case .valueWithoutDemandIntoCatch: "Catch: received a value without demand"
            case .valueWithoutDemandIntoTryCatch: "TryCatch: received a value without demand"
            case .valueBeforeSubscriptionIntoCatch: "Catch: received a value before a subscription"
            case .valueBeforeSubscriptionIntoRetry: "Retry: received a value before a subscription"
            case .valueBeforeSubscriptionIntoRemoveDuplicates: "RemoveDuplicates: received a value before a subscription"
            case .completionBeforeSubscriptionIntoRemoveDuplicates:
                "RemoveDuplicates: received a completion before a subscription"
            case .valueBeforeSubscriptionIntoPrefixWhile: "PrefixWhile: received a value before a subscription"
            case .valueBeforeSubscriptionIntoTryFilter: "TryFilter: received a value before a subscription"
            case .valueBeforeSubscriptionIntoTryCompactMap: "TryCompactMap: received a value before a subscription"
            case .valueBeforeSubscriptionIntoDropUntilOutput: "DropUntilOutput: received a value before a subscription"
            }
        }

        /// Subscribes `operator(upstream)` with a subscriber that asks for nothing, then sends one
        /// value before any subscription.
        private func sendBeforeSubscription<P: Publisher>(_ build: (BrokenPublisher<Int, TestError>) -> P) {
            let upstream = BrokenPublisher<Int, TestError>()
            build(upstream).subscribe(Recorder<P.Output, P.Failure>(demand: nil))
            upstream.send(1)
        }

        /// Subscribes `operator(upstream)` with a subscriber that asks for nothing, hands it a
        /// subscription, then sends one value nobody asked for.
        private func sendWithoutDemand<P: Publisher>(_ build: (BrokenPublisher<Int, TestError>) -> P) {
            let upstream = BrokenPublisher<Int, TestError>()
            build(upstream).subscribe(Recorder<P.Output, P.Failure>(demand: nil))
            upstream.subscribe(with: RecordingSubscription())
            upstream.send(1)
        }

        func commit() {
            switch self {
            case .valueWithoutDemandIntoCatch: sendWithoutDemand { $0.catch { _ in Just(0) } }
            case .valueWithoutDemandIntoTryCatch: sendWithoutDemand { $0.tryCatch { _ in Just(0) } }
            case .valueBeforeSubscriptionIntoCatch: sendBeforeSubscription { $0.catch { _ in Just(0) } }
            case .valueBeforeSubscriptionIntoRetry: sendBeforeSubscription { $0.retry(1) }
            case .valueBeforeSubscriptionIntoRemoveDuplicates: sendBeforeSubscription { $0.removeDuplicates() }
            case .completionBeforeSubscriptionIntoRemoveDuplicates:
                let upstream = BrokenPublisher<Int, TestError>()
                upstream.removeDuplicates().subscribe(Recorder<Int, TestError>(demand: nil))
                upstream.send(completion: .finished)
            case .valueBeforeSubscriptionIntoPrefixWhile: sendBeforeSubscription { $0.prefix(while: { $0 < 5 }) }
            case .valueBeforeSubscriptionIntoTryFilter: sendBeforeSubscription { $0.tryFilter { _ in true } }
            case .valueBeforeSubscriptionIntoTryCompactMap: sendBeforeSubscription { $0.tryCompactMap { $0 } }
            case .valueBeforeSubscriptionIntoDropUntilOutput:
                sendBeforeSubscription { $0.drop(untilOutputFrom: PassthroughSubject<Void, TestError>()) }
            }
        }
    }

    @Test(arguments: Breakage.allCases)
    func trapsWhereCombineTraps(breakage: Breakage) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [breakage] in
            breakage.commit()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(breakage.message), "\(breakage) (\(breakage.source)): stderr was \(output.suffix(300))")
    }

    // Where Combine does not trap, neither does Ripple: `map` passes a value that came before the
    // subscription on (MapTests.testMapReceiveValueBeforeSubscription), `drop(while:)` and
    // `measureInterval` ignore it (DropWhileTests/MeasureIntervalTests, `.history([])`).
    @Test func passesOnOrIgnoresWhereCombineDoesNot() {
        let mapped = BrokenPublisher<Int, TestError>()
        let mapRecorder = Recorder<Int, TestError>(demand: nil)
        mapped.map { $0 * 2 }.subscribe(mapRecorder)
        mapped.send(21)
        #expect(mapRecorder.events == [.value(42)])

        let dropping = BrokenPublisher<Int, TestError>()
        let dropRecorder = Recorder<Int, TestError>(demand: nil)
        dropping.drop(while: { $0 < 0 }).subscribe(dropRecorder)
        #expect(dropping.send(1) == .none)
        #expect(dropRecorder.events == [])
    }

    // A value within demand into `catch` is delivered as before (the trap is for unwanted ones).
    @Test func catchDeliversValuesWithinDemand() {
        let upstream = BrokenPublisher<Int, TestError>()
        let recorder = Recorder<Int, Never>(demand: .max(1))
        upstream.catch { _ in Just(0) }.subscribe(recorder)
        upstream.subscribe(with: RecordingSubscription())
        #expect(upstream.send(1) == .none)
        #expect(recorder.events == [.subscription, .value(1)])
    }
}
