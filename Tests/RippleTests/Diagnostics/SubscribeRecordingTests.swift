import Ripple
import RippleTesting
import Testing

/// Subscribers passed to `subscribe(_:)` are recorded as they are, never wrapped: each test looks
/// only at what its own `withRegistry` scope made.
@Suite struct SubscribeRecordingTests {
    @Test func aLeakedCustomSubscriberIsFoundWithItsChainUntilItIsCancelledAndReleased() {
        let subject = PassthroughSubject<Int, Never>()
        var kept: Collector? = nil
        let leaks = leakedSubscriptions {
            let collector = Collector(demand: .max(2))
            subject.map { $0 * 2 }.filter { $0 > 0 }.subscribe(collector)
            subject.send(1)
            kept = collector
        }
        #expect(kept?.values == [2])
        #expect(leaks.map(\.chain) == ["PassthroughSubject → Map → Filter → Collector"])
        // Not known without wrapping it: shown as unknown, not as 0.
        #expect(leaks.first?.demand == nil)
        #expect(leaks.first?.valuesDelivered == nil)
        #expect(leaks.first?.lastDeliveryThread == nil)
        #expect(leaks.first?.status == .active)
        #expect(leaks.first?.description.hasSuffix("PassthroughSubject → Map → Filter → Collector: active") == true)

        // Cancelled and released inside: not a leak.
        let none = leakedSubscriptions {
            let collector = Collector(demand: .unlimited)
            subject.subscribe(collector)
            collector.cancel()
        }
        #expect(none.isEmpty)
        // Completed and released inside: not a leak.
        let completed = leakedSubscriptions {
            Just(1).subscribe(Collector(demand: .unlimited))
        }
        #expect(completed.isEmpty)

        // The leaked one is listed while it is alive, and no longer once it is released.
        let weakCollector = WeakRef(kept!)
        kept?.cancel()
        kept = nil
        #expect(weakCollector.object == nil)
        #expect(!RippleDiagnostics.liveSubscriptions.contains { $0.id == leaks.first?.id })
    }

    /// A subscriber of the user's is held weakly and nothing tells its end: one still held after
    /// its cancel is still listed (documented).
    @Test func aCustomSubscriberStillHeldAfterItsCancelIsStillListed() {
        let subject = PassthroughSubject<Int, Never>()
        let (collector, alive) = RippleDiagnostics.withRegistry {
            let collector = Collector(demand: .unlimited)
            subject.subscribe(collector)
            collector.cancel()
            return collector
        }
        #expect(alive.map(\.chain) == ["PassthroughSubject → Collector"])
        withExtendedLifetime(collector) {}
    }

    @Test func anExplicitSinkIsRecordedOnceUntilItEnds() {
        let subject = PassthroughSubject<Int, Never>()
        let (sink, alive) = RippleDiagnostics.withRegistry {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            subject.map { $0 }.subscribe(sink)
            subject.send(1)
            return sink
        }
        #expect(alive.map(\.chain) == ["PassthroughSubject → Map → Sink"])
        #expect(alive.first?.demand == .unlimited)
        #expect(alive.first?.valuesDelivered == nil)  // its closures are the user's: not counted
        // Its end is known: cancelled, it is gone although it is still held.
        sink.cancel()
        #expect(!RippleDiagnostics.liveSubscriptions.contains { $0.id == alive.first?.id })
        let (_, completed) = RippleDiagnostics.withRegistry {
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
            Just(1).subscribe(sink)
            return sink
        }
        #expect(completed.isEmpty)
    }

    @Test func sinkIsStillRecordedExactlyOnceEvenThroughAPublisherThatPassesItOn() {
        let subject = PassthroughSubject<Int, Never>()
        let (tokens, alive) = RippleDiagnostics.withRegistry {
            [
                subject.map { $0 }.sink { _ in },
                PassingOn(upstream: subject).sink { _ in },
                PassingOn(upstream: subject.scan(0, +)).sink(receiveCompletion: { _ in }, receiveValue: { _ in }),
            ]
        }
        #expect(
            alive.map(\.chain) == [
                "PassthroughSubject → Map → Sink", "PassthroughSubject → PassingOn → Sink",
                "PassthroughSubject → Scan → PassingOn → Sink",
            ])
        #expect(alive.allSatisfy { $0.valuesDelivered == 0 })
        tokens.forEach { $0.cancel() }
    }

    @Test func aCustomSubscriberPassedOnByAPublisherOfTheUsersIsRecordedOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let (collector, alive) = RippleDiagnostics.withRegistry {
            let collector = Collector(demand: .unlimited)
            PassingOn(upstream: PassingOn(upstream: subject)).subscribe(collector)
            return collector
        }
        #expect(alive.map(\.chain) == ["PassthroughSubject → PassingOn → PassingOn → Collector"])
        collector.cancel()
    }

    @Test func aSubjectSubscribedToAPublisherIsRecordedUntilCancelledOrCompleted() {
        let upstream = PassthroughSubject<Int, Never>()
        let downstream = PassthroughSubject<Int, Never>()
        let (cancellable, alive) = RippleDiagnostics.withRegistry {
            upstream.map { $0 + 1 }.subscribe(downstream)
        }
        #expect(alive.map(\.chain) == ["PassthroughSubject → Map → PassthroughSubject"])
        #expect(alive.first?.demand == nil)  // the subject decides
        cancellable.cancel()
        #expect(!RippleDiagnostics.liveSubscriptions.contains { $0.id == alive.first?.id })

        let current = CurrentValueSubject<Int, Never>(0)
        let (tokens, erased) = RippleDiagnostics.withRegistry {
            let token = current.sink { _ in }
            upstream.subscribe(AnySubscriber(current))
            return token
        }
        #expect(erased.map(\.chain) == ["CurrentValueSubject → Sink", "PassthroughSubject → CurrentValueSubject"])
        upstream.send(completion: .finished)  // ends the forwarder
        let ids = Set(RippleDiagnostics.liveSubscriptions.map(\.id))
        #expect(!ids.contains(erased[1].id))
        tokens.cancel()
    }

    @Test func anAnySubscriberIsRecordedAsTheSubscriberItWraps() {
        let subject = PassthroughSubject<Int, Never>()
        let (collector, alive) = RippleDiagnostics.withRegistry {
            let collector = Collector(demand: .unlimited)
            subject.subscribe(AnySubscriber(AnySubscriber(collector)))
            return collector
        }
        #expect(alive.map(\.chain) == ["PassthroughSubject → Collector"])
        collector.cancel()
    }

    /// Nothing tells when a subscriber with no object ends: not recorded.
    @Test func aSubscriberWithNoObjectIsNotRecorded() {
        let subject = PassthroughSubject<Int, Never>()
        let box = Locked<(any Subscription)?>(nil)
        let (_, alive) = RippleDiagnostics.withRegistry {
            subject.subscribe(ValueSubscriber(combineIdentifier: CombineIdentifier()))
            subject.subscribe(AnySubscriber<Int, Never>(receiveSubscription: { s in box.withLock { $0 = s } }))
        }
        #expect(alive.isEmpty)
        box.current?.cancel()
    }

    /// Ripple's operators subscribe their inners upstream without going through `subscribe(_:)`:
    /// one subscription is one record, however many operators and inner publishers it goes through.
    @Test func operatorsInnerSubscriptionsAreNotRecordedAsSubscriptionsOfTheirOwn() {
        let subject = PassthroughSubject<Int, Never>()
        let other = CurrentValueSubject<Int, Never>(0)
        let (collector, alive) = RippleDiagnostics.withRegistry {
            let collector = Collector(demand: .unlimited)
            subject
                .flatMap { value in Just(value).merge(with: other.first()) }
                .combineLatest(other)
                .map { $0 + $1 }
                .zip(Deferred { other }.prefix(10))
                .map { $0.0 }
                .scan(0, +)
                .receive(on: ImmediateScheduler.shared)
                .share()
                .eraseToAnyPublisher()
                .map { [$0].publisher }
                .switchToLatest()
                .subscribe(collector)
            subject.send(1)
            subject.send(2)
            return collector
        }
        #expect(!collector.values.isEmpty)
        #expect(alive.count == 1)
        #expect(alive.first?.subscriber == "Collector")
        collector.cancel()
    }

    /// An operator of the user's whose inner subscriber is its own class, subscribed with
    /// `subscribe(_:)`: that inner subscriber is a record of its own (documented).
    @Test func anInnerSubscriberOfTheUsersOwnOperatorIsARecordOfItsOwn() {
        let subject = PassthroughSubject<Int, Never>()
        let (collector, alive) = RippleDiagnostics.withRegistry {
            let collector = Collector(demand: .unlimited)
            Relaying(upstream: subject.map { $0 }).subscribe(collector)
            subject.send(1)
            return collector
        }
        #expect(collector.values == [1])
        #expect(alive.map(\.chain) == ["PassthroughSubject → Map → Relaying → Collector", "PassthroughSubject → Map → RelayInner"])
        collector.cancel()
        // The inner one was released with the cancel; the collector is still held here, so listed.
        let ids = alive.map(\.id)
        #expect(RippleDiagnostics.liveSubscriptions.filter { ids.contains($0.id) }.map(\.subscriber) == ["Collector"])
    }

    /// What the publisher and the subscriber see is the same with diagnostics on or off: the very
    /// subscription object, the subscriber's type and identifier, the requests.
    @Test func recordingASubscriberChangesNothingItOrItsPublisherObserve() {
        func run(recording: Bool) -> [String] {
            let log = Locked<[String]>([])
            let subscription = FixedSubscription(log: log)
            let publisher = FixedPublisher(subscription: subscription, log: log)
            let body = {
                let collector = Collector(demand: .max(3))
                publisher.subscribe(collector)
                log.append("collector got the fixed subscription: \(collector.subscription === subscription)")
                log.append("identifier matches: \(publisher.lastIdentifier == collector.combineIdentifier)")
                let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
                publisher.subscribe(sink)
                log.append("identifier matches: \(publisher.lastIdentifier == sink.combineIdentifier)")
                let erased = AnySubscriber(Collector(demand: .max(1)))
                publisher.subscribe(erased)
                log.append("identifier matches: \(publisher.lastIdentifier == erased.combineIdentifier)")
                collector.cancel()
                sink.cancel()
            }
            if recording {
                let (_, alive) = RippleDiagnostics.withRegistry(body)
                log.append("alive \(alive.map(\.chain))")
            } else {
                body()
            }
            return log.current
        }
        let off = run(recording: false)
        let on = run(recording: true)
        #expect(Array(on.dropLast()) == off)
        #expect(
            off == [
                "subscribed Collector", "request max(3)", "collector got the fixed subscription: true",
                "identifier matches: true", "subscribed Sink<Int, Never>", "request unlimited",
                "identifier matches: true", "subscribed AnySubscriber<Int, Never>", "request max(1)",
                "identifier matches: true", "cancel", "cancel",
            ])
        #expect(on.last == "alive []")
    }

    @Test func theChainGoesOnAboveShareMulticastAndAutoconnect() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.map { $0 * 2 }.share()
        let (tokens, alive) = RippleDiagnostics.withRegistry {
            [
                shared.filter { $0 > 0 }.sink { _ in },
                shared.sink { _ in },
                subject.compactMap { $0 }.multicast { PassthroughSubject() }.autoconnect().sink { _ in },
                Future<Int, Never> { _ in }.map { $0 }.sink { _ in },
            ]
        }
        #expect(
            alive.map(\.chain) == [
                "PassthroughSubject → Map → Share → Filter → Sink",
                "PassthroughSubject → Map → Share → Sink",
                "PassthroughSubject → CompactMap → Multicast → Autoconnect → Sink",
                "Future → Map → Sink",
            ])
        // One share is one node, with its upstreams once.
        let graph = RippleDiagnostics.graph(alive)
        #expect(graph.nodes.filter { $0.label == "Share" }.count == 1)
        #expect(graph.nodes.filter { $0.label == "Map" }.count == 2)
        tokens.forEach { $0.cancel() }
    }
}

/// A subscriber of the user's: a class that keeps its subscription.
private final class Collector: Subscriber, Cancellable, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    let demand: Subscribers.Demand
    private let state = Locked<(subscription: (any Subscription)?, values: [Int])>((nil, []))
    var values: [Int] { state.current.values }
    var subscription: AnyObject? { state.current.subscription.map { $0 as AnyObject } }

    init(demand: Subscribers.Demand) {
        self.demand = demand
    }

    func receive(subscription: any Subscription) {
        state.withLock { $0.subscription = subscription }
        subscription.request(demand)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        state.withLock { $0.values.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        state.withLock { $0.subscription = nil }
    }

    func cancel() {
        let subscription = state.withLock { state in
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }
}

/// A subscriber with no object in it.
private struct ValueSubscriber: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    let combineIdentifier: CombineIdentifier
    func receive(subscription: any Subscription) { subscription.request(.unlimited) }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}

/// A publisher of the user's that passes its subscriber on through `subscribe(_:)`.
private struct PassingOn<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(subscriber)
    }
}

private final class FixedSubscription: Subscription, @unchecked Sendable {
    let log: Locked<[String]>
    init(log: Locked<[String]>) { self.log = log }
    func request(_ demand: Subscribers.Demand) { log.append("request \(demand)") }
    func cancel() { log.append("cancel") }
}

/// Hands every subscriber the same subscription object, and notes what it was given.
private final class FixedPublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never
    let subscription: FixedSubscription
    let log: Locked<[String]>
    private let identifier = Locked<CombineIdentifier?>(nil)
    var lastIdentifier: CombineIdentifier? { identifier.current }

    init(subscription: FixedSubscription, log: Locked<[String]>) {
        self.subscription = subscription
        self.log = log
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        log.append("subscribed \(plainName(of: S.self))")
        identifier.withLock { $0 = subscriber.combineIdentifier }
        subscriber.receive(subscription: subscription)
    }
}

/// An operator of the user's that subscribes an inner subscriber of its own upstream.
private struct Relaying<Upstream: Publisher>: Publisher where Upstream.Output == Int, Upstream.Failure == Never {
    typealias Output = Int
    typealias Failure = Never
    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        upstream.subscribe(RelayInner(downstream: AnySubscriber(subscriber)))
    }
}

private final class RelayInner: Subscriber, Subscription, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    let downstream: AnySubscriber<Int, Never>
    private let upstream = Locked<(any Subscription)?>(nil)

    init(downstream: AnySubscriber<Int, Never>) {
        self.downstream = downstream
    }

    func receive(subscription: any Subscription) {
        upstream.withLock { $0 = subscription }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Int) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<Never>) { downstream.receive(completion: completion) }
    func request(_ demand: Subscribers.Demand) { upstream.current?.request(demand) }

    func cancel() {
        let subscription = upstream.withLock { state in
            defer { state = nil }
            return state
        }
        subscription?.cancel()
    }
}

/// A type's name without the private discriminator an optimized build prints for a private type
/// ("(Collector in _A4F0…)" where a debug build prints "Collector").
private func plainName<T>(of type: T.Type) -> String {
    let name = String(describing: type)
    guard name.hasPrefix("("), name.hasSuffix(")"), let space = name.firstIndex(of: " ") else { return name }
    return String(name[name.index(after: name.startIndex)..<space])
}
