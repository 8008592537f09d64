/// A publisher that exposes a method for outside callers to publish elements.
///
/// Subjects are how imperative code (callbacks, delegates, UI events) enters a stream.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscriber.
    func send(_ value: Output)
    /// Sends a completion signal to the subscriber.
    func send(completion: Subscribers.Completion<Failure>)
    /// Provides this subject an upstream subscription to manage.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscriber.
    @inlinable
    public func send() {
        send(())
    }
}

extension Publisher {
    /// Attaches the specified subject to this publisher.
    ///
    /// The subject requests unlimited demand (``PassthroughSubject`` once it has a subscriber of its
    /// own) and forwards values and completion. Cancel the returned object to detach.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber<S>(subject)
        if diagnosticsAreOn {
            DiagnosticsRecording.recordSubscriber(subscriber, on: self)
        }
        receive(subscriber: subscriber)
        return AnyCancellable(object: subscriber)
    }

    /// `subscribe(subject)` for Ripple's operators (`multicast`'s `connect()`): never
    /// recorded by `RippleDiagnostics`, which records the subscriber of the operator instead.
    func attachSubject<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber<S>(subject)
        receive(subscriber: subscriber)
        return AnyCancellable(object: subscriber)
    }
}

/// Forwards an upstream into a subject (`publisher.subscribe(subject)`, `AnySubscriber(subject)`).
///
/// As Combine's, it hands the subject *itself* as the subscription, so the subject decides how
/// much to request (``PassthroughSubject`` once it has demand of its own, ``CurrentValueSubject`` at
/// once), and it cancels any second subscription. After the completion it lets the subject go:
/// the subject keeps its upstreams (this object among them) until it deinits, so holding on to it
/// would keep both alive.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private struct State {
        var subject: Downstream?
        var upstream: (any Subscription)?
        var terminated = false
    }

    private let lock = Lock()
    private var state: State
    /// `AnySubscriber(subject)`: as in Combine, a value or completion that arrives before any
    /// subscription traps.
    private let requiresSubscription: Bool

    init(_ subject: Downstream, requiresSubscription: Bool = false) {
        state = State(subject: subject)
        self.requiresSubscription = requiresSubscription
    }

    /// Traps if an event arrives before any subscription (``AnySubscriber``'s wrapper only).
    private func checkSubscribed(_ state: State, _ event: String) {
        guard requiresSubscription else { return }
        require(state.upstream != nil || state.terminated, "AnySubscriber(subject): received \(event) before a subscription")
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard !state.terminated, state.upstream == nil, let subject = state.subject else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.upstream = subscription
        lock.unlock()
        // The subject decides how much to request; it talks to us as its upstream.
        subject.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let current = state
        lock.unlock()
        checkSubscribed(current, "a value")
        current.subject?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // Swapped out, released after unlocking: dropping the subject may run its deinit, which
        // cancels its upstreams — this object among them.
        let old = state
        state = State(subject: nil, upstream: nil, terminated: true)
        lock.unlock()
        checkSubscribed(old, "a completion")
        old.subject?.send(completion: completion)
        withExtendedLifetime(old) {}
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = state.upstream
        lock.unlock()
        upstream?.request(demand)
    }

    func cancel() {
        lock.lock()
        let old = state
        state = State(subject: nil, upstream: nil, terminated: true)
        lock.unlock()
        old.upstream?.cancel()
        withExtendedLifetime(old) {}
    }

    var description: String { "Subject" }
}

extension SubjectSubscriber: DiagnosedSubscriber {
    var diagnosticName: String { RecordedPublisher.shortName(of: Downstream.self) }
    var diagnosticDemand: Subscribers.Demand? { nil }  // the subject decides

    var diagnosticIsSubscribed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !state.terminated && state.subject != nil
    }
}
