import Foundation
import Ripple
import Testing

/// A publisher that keeps its subscriber and sends it nothing by itself, so a test can break the
/// protocol: send a value before any subscription, or one nobody asked for.
private final class BrokenPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let box = Locked<AnySubscriber<Output, Failure>?>(nil)
    /// The subscriber itself, for a test that asks an operator's inner (which is its own
    /// subscription in Combine) for demand before its subscription came.
    private let raw = Locked<Any?>(nil)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.withLock { $0 = AnySubscriber(subscriber) }
        raw.withLock { $0 = subscriber }
    }

    /// The subscriber as a subscription, when it is one.
    var subscriberAsSubscription: (any Subscription)? { raw.current as? any Subscription }

    func subscribe(with subscription: any Subscription) { box.current?.receive(subscription: subscription) }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand { box.current?.receive(value) ?? .none }

    func send(completion: Subscribers.Completion<Failure>) { box.current?.receive(completion: completion) }
}

/// Misbehaving upstreams: where Apple's Combine traps on a broken upstream (its recorded tests
/// `assertCrashes` or expect `.crash`), Ripple traps too, naming the operator; elsewhere Ripple
/// passes the event on or ignores it, as Combine does. Exit tests, messages asserted.
@Suite(.exitTestWatchdog) struct BrokenUpstreamTests {
    enum Breakage: String, CaseIterable, Codable, Sendable {
        case valueWithoutDemandIntoCatch, valueWithoutDemandIntoTryCatch
        case valueBeforeSubscriptionIntoCatch, valueBeforeSubscriptionIntoRetry
        case valueBeforeSubscriptionIntoRemoveDuplicates, completionBeforeSubscriptionIntoRemoveDuplicates
        case valueBeforeSubscriptionIntoPrefixWhile, valueBeforeSubscriptionIntoTryFilter
        case valueBeforeSubscriptionIntoTryCompactMap, valueBeforeSubscriptionIntoDropUntilOutput
        case requestBeforeSubscriptionIntoRemoveDuplicates, requestBeforeSubscriptionIntoTryRemoveDuplicates
        case requestBeforeSubscriptionIntoPrefixWhile, requestBeforeSubscriptionIntoTryPrefixWhile
        case requestBeforeSubscriptionIntoTryFilter, requestBeforeSubscriptionIntoTryCompactMap
        case valueBeforeSubscriptionIntoTryRemoveDuplicates, completionBeforeSubscriptionIntoTryRemoveDuplicates
        case valueBeforeSubscriptionIntoTryPrefixWhile, completionBeforeSubscriptionIntoTryPrefixWhile
        case innerCompletionBeforeSubscriptionIntoSwitchToLatest, innerFailureBeforeSubscriptionIntoSwitchToLatest
        case valueWithoutDemandIntoReplaceError, valueWithoutDemandIntoRetry

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
            case .requestBeforeSubscriptionIntoRemoveDuplicates:
                "RemoveDuplicatesTests.testRemoveDuplicatesRequestBeforeSubscription"
            case .requestBeforeSubscriptionIntoTryRemoveDuplicates:
                "RemoveDuplicatesTests.testTryRemoveDuplicatesRequestBeforeSubscription"
            case .requestBeforeSubscriptionIntoPrefixWhile: "PrefixWhileTests.testPrefixWhileRequestBeforeSubscription"
            case .requestBeforeSubscriptionIntoTryPrefixWhile:
                "PrefixWhileTests.testTryPrefixWhileRequestBeforeSubscription"
            case .requestBeforeSubscriptionIntoTryFilter: "FilterTests.testTryFilterRequestBeforeSubscription"
            case .requestBeforeSubscriptionIntoTryCompactMap:
                "CompactMapTests.testTryCompactMapRequestBeforeSubscription"
            case .valueBeforeSubscriptionIntoTryRemoveDuplicates:
                "RemoveDuplicatesTests.testTryRemoveDuplicatesReceiveValueBeforeSubscription"
            case .completionBeforeSubscriptionIntoTryRemoveDuplicates:
                "RemoveDuplicatesTests.testTryRemoveDuplicatesCompletionBeforeSubscription"
            case .valueBeforeSubscriptionIntoTryPrefixWhile:
                "PrefixWhileTests.testTryPrefixWhileReceiveValueBeforeSubscription"
            case .completionBeforeSubscriptionIntoTryPrefixWhile:
                "PrefixWhileTests.testTryPrefixWhileReceiveCompletionBeforeSubscription"
            case .innerCompletionBeforeSubscriptionIntoSwitchToLatest:
                "SwitchToLatestTests.testSwitchToLatestInnerReceiveCompletionBeforeSubscription"
            case .innerFailureBeforeSubscriptionIntoSwitchToLatest:
                "SwitchToLatestTests.testSwitchToLatestInnerReceiveFailureBeforeSubscription"
            case .valueWithoutDemandIntoReplaceError: "ReplaceErrorTests.testCrashOnReceiveValueWithZeroPendingDemand"
            case .valueWithoutDemandIntoRetry: "RetryTests.testCrashesOnUnwantedValue"
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
            case .requestBeforeSubscriptionIntoRemoveDuplicates: "RemoveDuplicates: demand requested before a subscription"
            case .requestBeforeSubscriptionIntoTryRemoveDuplicates:
                "TryRemoveDuplicates: demand requested before a subscription"
            case .requestBeforeSubscriptionIntoPrefixWhile: "PrefixWhile: demand requested before a subscription"
            case .requestBeforeSubscriptionIntoTryPrefixWhile: "TryPrefixWhile: demand requested before a subscription"
            case .requestBeforeSubscriptionIntoTryFilter: "TryFilter: demand requested before a subscription"
            case .requestBeforeSubscriptionIntoTryCompactMap: "TryCompactMap: demand requested before a subscription"
            case .valueBeforeSubscriptionIntoTryRemoveDuplicates:
                "TryRemoveDuplicates: received a value before a subscription"
            case .completionBeforeSubscriptionIntoTryRemoveDuplicates:
                "TryRemoveDuplicates: received a completion before a subscription"
            case .valueBeforeSubscriptionIntoTryPrefixWhile: "TryPrefixWhile: received a value before a subscription"
            case .completionBeforeSubscriptionIntoTryPrefixWhile:
                "TryPrefixWhile: received a completion before a subscription"
            case .innerCompletionBeforeSubscriptionIntoSwitchToLatest, .innerFailureBeforeSubscriptionIntoSwitchToLatest:
                "SwitchToLatest: an inner publisher sent a completion before its subscription"
            case .valueWithoutDemandIntoReplaceError: "ReplaceError: received a value without demand"
            case .valueWithoutDemandIntoRetry: "Retry: received a value without demand"
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

        /// Subscribes `operator(upstream)` and asks the operator's inner, found as the upstream's
        /// subscriber, for demand before the upstream sent a subscription.
        private func requestBeforeSubscription<P: Publisher>(_ build: (BrokenPublisher<Int, TestError>) -> P) {
            let upstream = BrokenPublisher<Int, TestError>()
            build(upstream).subscribe(Recorder<P.Output, P.Failure>(demand: nil))
            upstream.subscriberAsSubscription?.request(.max(1))
        }

        /// Subscribes `operator(upstream)` and sends a completion before any subscription.
        private func completeBeforeSubscription<P: Publisher>(_ build: (BrokenPublisher<Int, TestError>) -> P) {
            let upstream = BrokenPublisher<Int, TestError>()
            build(upstream).subscribe(Recorder<P.Output, P.Failure>(demand: nil))
            upstream.send(completion: .finished)
        }

        /// `switchToLatest` over a subject of broken inner publishers: the current inner
        /// completes before sending its subscription.
        private func completeInnerOfSwitchToLatest(_ completion: Subscribers.Completion<TestError>) {
            let outer = PassthroughSubject<BrokenPublisher<Int, TestError>, TestError>()
            outer.switchToLatest().subscribe(Recorder<Int, TestError>(demand: .unlimited))
            let inner = BrokenPublisher<Int, TestError>()
            outer.send(inner)
            inner.send(completion: completion)
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
            case .requestBeforeSubscriptionIntoRemoveDuplicates: requestBeforeSubscription { $0.removeDuplicates() }
            case .requestBeforeSubscriptionIntoTryRemoveDuplicates:
                requestBeforeSubscription { $0.tryRemoveDuplicates { $0 == $1 } }
            case .requestBeforeSubscriptionIntoPrefixWhile: requestBeforeSubscription { $0.prefix(while: { $0 < 5 }) }
            case .requestBeforeSubscriptionIntoTryPrefixWhile: requestBeforeSubscription { $0.tryPrefix(while: { $0 < 5 }) }
            case .requestBeforeSubscriptionIntoTryFilter: requestBeforeSubscription { $0.tryFilter { _ in true } }
            case .requestBeforeSubscriptionIntoTryCompactMap: requestBeforeSubscription { $0.tryCompactMap { $0 } }
            case .valueBeforeSubscriptionIntoTryRemoveDuplicates:
                sendBeforeSubscription { $0.tryRemoveDuplicates { $0 == $1 } }
            case .completionBeforeSubscriptionIntoTryRemoveDuplicates:
                completeBeforeSubscription { $0.tryRemoveDuplicates { $0 == $1 } }
            case .valueBeforeSubscriptionIntoTryPrefixWhile: sendBeforeSubscription { $0.tryPrefix(while: { $0 < 5 }) }
            case .completionBeforeSubscriptionIntoTryPrefixWhile:
                completeBeforeSubscription { $0.tryPrefix(while: { $0 < 5 }) }
            case .innerCompletionBeforeSubscriptionIntoSwitchToLatest: completeInnerOfSwitchToLatest(.finished)
            case .innerFailureBeforeSubscriptionIntoSwitchToLatest: completeInnerOfSwitchToLatest(.failure(TestError()))
            case .valueWithoutDemandIntoReplaceError: sendWithoutDemand { $0.replaceError(with: 0) }
            case .valueWithoutDemandIntoRetry: sendWithoutDemand { $0.retry(2) }
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

    // Combine traps on a value before the *first* subscription only: a value that the next
    // attempt sends from inside `subscribe`, before its subscription, is delivered, and the demand
    // the downstream returns for it is asked of that attempt when its subscription arrives
    // (RetryTests.testRecurseAndReceiveValue, recorded against Combine).
    @Test func retryDeliversAValueBeforeAReSubscriptionsSubscription() {
        let subscription = RecordingSubscription()
        let attempts = Locked(0)
        let upstream = ScriptedPublisher<Int, TestError>(subscription: subscription) { subscriber in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if attempt > 1 { #expect(subscriber.receive(1) == .none) }
        }
        let recorder = Recorder<Int, TestError>(demand: .max(3), onValue: { _ in .max(2) })
        upstream.retry(1).subscribe(recorder)
        #expect(subscription.events == [.request(.max(3))])
        upstream.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(subscription.events == [.request(.max(3)), .request(.max(4))])
        #expect(attempts.current == 2)
    }

    // Combine's `catch` checks only its upstream: the handler's publisher may send a value from
    // inside `subscribe`, before its subscription, and it is delivered.
    @Test func catchDeliversAValueBeforeTheHandlerPublishersSubscription() {
        let upstream = BrokenPublisher<Int, TestError>()
        let handlerSubscription = RecordingSubscription()
        let handler = ScriptedPublisher<Int, Never>(subscription: handlerSubscription) { subscriber in
            #expect(subscriber.receive(7) == .none)
        }
        let recorder = Recorder<Int, Never>(demand: .max(2))
        upstream.catch { _ in handler }.subscribe(recorder)
        upstream.subscribe(with: RecordingSubscription())
        upstream.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(7)])
        #expect(handlerSubscription.events == [.request(.max(1))])
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

/// A publisher that, each time it is subscribed, first runs `beforeSubscription` with the
/// subscriber (which may send it values: a protocol violation some recorded tests make), then
/// hands it `subscription`. `send` reaches the latest subscriber.
private final class ScriptedPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let subscription: any Subscription
    private let beforeSubscription: (AnySubscriber<Output, Failure>) -> Void
    private let box = Locked<AnySubscriber<Output, Failure>?>(nil)

    init(subscription: any Subscription, beforeSubscription: @escaping (AnySubscriber<Output, Failure>) -> Void) {
        self.subscription = subscription
        self.beforeSubscription = beforeSubscription
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let erased = AnySubscriber(subscriber)
        box.withLock { $0 = erased }
        beforeSubscription(erased)
        subscriber.receive(subscription: subscription)
    }

    func send(completion: Subscribers.Completion<Failure>) { box.current?.receive(completion: completion) }
}
