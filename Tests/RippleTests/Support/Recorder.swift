import Foundation
import RippleCore  // LockedValue
import Ripple

/// A value behind a lock, for test bookkeeping touched from several threads: the library's own
/// box (``LockedValue``, whose lock ThreadSanitizer sees: its fast path is atomics compiled with the
/// tests, not `Synchronization.Mutex`'s uninstrumented runtime path).
typealias Locked<Value> = LockedValue<Value>

extension LockedValue {
    /// The value now (a copy, read under the lock).
    var current: Value { withLock { $0 } }
}

/// A failure type tests can compare.
struct TestError: Error, Equatable, CustomStringConvertible {
    var id = 0
    var description: String { "TestError(\(id))" }
}

/// One thing a subscriber saw, in order. Failures are kept as their description so streams whose
/// failure type is `any Error` can be compared too.
enum Event<Input> {
    case subscription
    case value(Input)
    case finished
    case failure(String)
}

extension Event: Equatable where Input: Equatable {}

/// A subscriber that records everything it receives and lets the test drive demand.
///
/// - `initialDemand`: requested right after the subscription arrives (`nil`: request nothing).
/// - `onValue`: what `receive(_:)` returns (and any re-entrant action); defaults to `.none`.
final class Recorder<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    private struct State {
        var events: [Event<Input>] = []
        var subscriptions: [any Subscription] = []
    }

    private let state = Locked(State())
    let initialDemand: Subscribers.Demand?
    let onValue: (Input) -> Subscribers.Demand
    let onSubscription: ((any Subscription) -> Void)?
    let onCompletion: ((Subscribers.Completion<Failure>) -> Void)?

    init(
        demand initialDemand: Subscribers.Demand? = .unlimited,
        onValue: @escaping (Input) -> Subscribers.Demand = { _ in .none },
        onSubscription: ((any Subscription) -> Void)? = nil,
        onCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        self.onValue = onValue
        self.onSubscription = onSubscription
        self.onCompletion = onCompletion
    }

    convenience init(for publisher: some Publisher<Input, Failure>, demand: Subscribers.Demand? = .unlimited) {
        self.init(demand: demand)
        publisher.subscribe(self)
    }

    var events: [Event<Input>] { state.withLock { $0.events } }
    var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }
    var subscription: (any Subscription)? { state.withLock { $0.subscriptions.first } }
    var subscriptionCount: Int { state.withLock { $0.subscriptions.count } }
    var isCompleted: Bool {
        events.contains { event in
            switch event {
            case .finished, .failure: true
            default: false
            }
        }
    }

    func receive(subscription: any Subscription) {
        state.withLock {
            $0.events.append(.subscription)
            $0.subscriptions.append(subscription)
        }
        onSubscription?(subscription)
        if let initialDemand, initialDemand > 0 {
            subscription.request(initialDemand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        state.withLock { $0.events.append(.value(input)) }
        return onValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock {
            switch completion {
            case .finished: $0.events.append(.finished)
            case .failure(let error): $0.events.append(.failure(String(describing: error)))
            }
        }
        onCompletion?(completion)
    }

    func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    func cancel() {
        subscription?.cancel()
    }
}

/// A subscription that records what was asked of it.
final class RecordingSubscription: Subscription, @unchecked Sendable {
    enum Event: Equatable {
        case request(Subscribers.Demand)
        case cancel
    }

    private let log = Locked<[Event]>([])
    var events: [Event] { log.withLock { $0 } }
    var requests: [Subscribers.Demand] {
        events.compactMap { if case .request(let demand) = $0 { demand } else { nil } }
    }
    var cancelled: Bool { events.contains(.cancel) }

    func request(_ demand: Subscribers.Demand) { log.withLock { $0.append(.request(demand)) } }
    func cancel() { log.withLock { $0.append(.cancel) } }
}

/// A publisher the test drives by hand: it hands out a ``RecordingSubscription`` and exposes the
/// subscriber so the test can push values and completions exactly when it wants.
final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    let subscription = RecordingSubscription()
    private let subscriberBox = Locked<AnySubscriber<Output, Failure>?>(nil)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriberBox.withLock { $0 = AnySubscriber(subscriber) }
        subscriber.receive(subscription: subscription)
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriberBox.withLock { $0 }?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subscriberBox.withLock { $0 }?.receive(completion: completion)
    }

    /// Sends a second subscription to the same subscriber (a protocol violation some tests need).
    func sendSubscription(_ subscription: any Subscription) {
        subscriberBox.withLock { $0 }?.receive(subscription: subscription)
    }
}

/// Holds an object weakly, to prove it was released.
struct WeakRef<T: AnyObject> {
    weak var object: T?
    init(_ object: T?) { self.object = object }
}

/// A publisher that writes to a shared, ordered log when it is subscribed and when its
/// subscription is asked for demand or cancelled, so a test can pin the order of events across a
/// pipeline (with a subscriber that logs into the same log). Each subscriber gets a fresh
/// subscription; `send` reaches the latest subscriber.
final class LoggingPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    final class LoggedSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
        let name: String
        let log: Locked<[String]>
        init(name: String, log: Locked<[String]>) {
            self.name = name
            self.log = log
        }
        var description: String { name }
        func request(_ demand: Subscribers.Demand) { log.withLock { $0.append("\(name) request \(demand)") } }
        func cancel() { log.withLock { $0.append("\(name) cancel") } }
    }

    let name: String
    let log: Locked<[String]>
    private let subscriberBox = Locked<AnySubscriber<Output, Failure>?>(nil)

    init(_ name: String, log: Locked<[String]>) {
        self.name = name
        self.log = log
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        log.withLock { $0.append("\(name) subscribed") }
        subscriberBox.withLock { $0 = AnySubscriber(subscriber) }
        subscriber.receive(subscription: LoggedSubscription(name: name, log: log))
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriberBox.withLock { $0 }?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subscriberBox.withLock { $0 }?.receive(completion: completion)
    }
}

extension Locked where Value == [String] {
    /// Appends one line to a test's event log.
    func append(_ line: String) { withLock { $0.append(line) } }
}
