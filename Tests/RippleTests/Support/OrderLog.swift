import Ripple

/// One ordered log shared by several publishers and a subscriber, for tests that pin the order of
/// subscription events: who was subscribed when, which subscription the subscriber received, the
/// demand each upstream saw, and when completions and cancels happened.
final class OrderLog: @unchecked Sendable {
    private let lines = Locked<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var entries: [String] { lines.current }
}

/// A publisher the test drives by hand that logs "NAME subscribed" and, for its subscription,
/// "NAME request DEMAND" and "NAME cancel". `onRequest` runs after a request is logged (to send
/// from inside it, as a `CurrentValueSubject` does).
final class LoggedPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private final class LoggedSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
        let name: String
        let log: OrderLog
        let onRequest: (Subscribers.Demand) -> Void
        init(name: String, log: OrderLog, onRequest: @escaping (Subscribers.Demand) -> Void) {
            self.name = name
            self.log = log
            self.onRequest = onRequest
        }
        var description: String { name }
        func request(_ demand: Subscribers.Demand) {
            log.append("\(name) request \(demand)")
            onRequest(demand)
        }
        func cancel() { log.append("\(name) cancel") }
    }

    let name: String
    let log: OrderLog
    var onRequest: (Subscribers.Demand) -> Void = { _ in }
    private let subscriberBox = Locked<AnySubscriber<Output, Failure>?>(nil)

    init(_ name: String, log: OrderLog) {
        self.name = name
        self.log = log
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        log.append("\(name) subscribed")
        subscriberBox.withLock { $0 = AnySubscriber(subscriber) }
        subscriber.receive(subscription: LoggedSubscription(name: name, log: log) { [unowned self] in onRequest($0) })
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriberBox.withLock { $0 }?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subscriberBox.withLock { $0 }?.receive(completion: completion)
    }
}

/// A subscriber that logs "S subscription DESCRIPTION", "S value V" and "S completion C" to an
/// ``OrderLog``, requests `demand` on subscription and returns `onValue`'s demand per value.
final class LoggedSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    let log: OrderLog
    let demand: Subscribers.Demand?
    let onValue: (Input) -> Subscribers.Demand
    private let box = Locked<(any Subscription)?>(nil)

    init(log: OrderLog, demand: Subscribers.Demand?, onValue: @escaping (Input) -> Subscribers.Demand = { _ in .none }) {
        self.log = log
        self.demand = demand
        self.onValue = onValue
    }

    var subscription: (any Subscription)? { box.current }

    func receive(subscription: any Subscription) {
        log.append("S subscription \(subscription)")
        box.withLock { $0 = subscription }
        if let demand { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.append("S value \(input)")
        return onValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.append("S completion finished")
        case .failure(let error): log.append("S completion failure \(error)")
        }
    }
}
