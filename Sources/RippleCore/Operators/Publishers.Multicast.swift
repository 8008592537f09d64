extension Publishers {
    /// A publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// Subscribers attach to the subject; nothing flows until ``connect()`` subscribes the subject to
    /// the upstream. The subject is created once, on the first subscribe or connect.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher, @unchecked Sendable
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure to create a new Subject each time a subscriber attaches to the multicast publisher.
        public let createSubject: () -> SubjectType

        /// The subject, once made.
        private let subject = LockedValue<SubjectType?>(nil)

        /// Creates a `Multicast` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, created on first use. `createSubject` runs outside the lock; if two threads
        /// race, the first subject stored wins.
        private var lazySubject: SubjectType {
            if let subject = subject.withLock({ $0 }) { return subject }
            let created = createSubject()
            // The loser of a race (`created`, not stored) is released after unlocking.
            return subject.withLock { subject in
                if let subject { return subject }
                subject = created
                return created
            }
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            lazySubject.receive(subscriber: subscriber)
        }

        public func connect() -> any Cancellable {
            upstream.attachSubject(lazySubject)
        }
    }

    /// A publisher that provides explicit connectability to another publisher: subscribers share one
    /// upstream subscription, made by ``connect()``.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a `MakeConnectable` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        public func connect() -> any Cancellable {
            inner.connect()
        }
    }

    /// A publisher that automatically connects to an upstream connectable publisher when the first
    /// subscriber attaches, and cancels that connection when the last one leaves.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        private let state = LockedValue(AutoconnectState())

        /// Creates a `Autoconnect` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            state.withLock { $0.subscribers += 1 }
            upstream.receive(subscriber: AutoconnectInner(downstream: subscriber, owner: self))
            guard state.withLock({ $0.subscribed() }) else { return }
            let connection = upstream.connect()
            state.withLock { $0.connected(connection) }?.cancel()
        }

        /// One subscriber left (cancelled or completed).
        fileprivate func release() {
            state.withLock { $0.released() }?.cancel()
        }
    }

    /// A publisher that shares the output of an upstream publisher with multiple subscribers.
    ///
    /// The first subscriber connects one `.unlimited` subscription to the upstream; later
    /// subscribers see only later values; after the upstream completes, new subscribers receive the
    /// completion at once. When every subscriber has left, the upstream subscription is
    /// cancelled, and a later subscriber connects again. Equal only to itself, as in Combine.
    public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a `Share` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) {
            self.upstream = upstream
            inner = Autoconnect(upstream: Multicast(upstream: upstream) { PassthroughSubject() })
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
    }
}

/// Tells the ``Publishers/Autoconnect`` when its subscriber goes away (cancel or completion).
private final class AutoconnectInner<Downstream: Subscriber, Owner: AnyObject & AutoconnectReleasing>:
    LockedValue<AutoconnectInnerState<Owner>>, Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream

    init(downstream: Downstream, owner: Owner) {
        self.downstream = downstream
        super.init(AutoconnectInnerState(owner: owner))
    }

    var description: String { "Autoconnect" }

    func receive(subscription: any Subscription) {
        let accepted = withLock { $0.upstream.accept(subscription) }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let owner = withLock { state -> Owner? in
            state.upstream = .terminal
            defer { state.owner = nil }
            return state.owner
        }
        downstream.receive(completion: completion)
        owner?.release()
    }

    func request(_ demand: Subscribers.Demand) {
        withLock { $0.upstream.subscription }?.request(demand)
    }

    func cancel() {
        let (upstream, owner) = withLock { state -> ((any Subscription)?, Owner?) in
            defer { state.owner = nil }
            return (state.upstream.terminate(), state.owner)
        }
        upstream?.cancel()
        owner?.release()
    }
}

/// ``AutoconnectInner``'s state: its upstream subscription and the owner to tell once.
private struct AutoconnectInnerState<Owner> {
    var upstream = UpstreamStatus.awaitingSubscription
    var owner: Owner?
}

/// What ``AutoconnectInner`` needs of its owner.
private protocol AutoconnectReleasing {
    func release()
}

extension Publishers.Autoconnect: AutoconnectReleasing {}

extension Publisher {
    /// Applies a closure to create a subject that delivers elements to subscribers.
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Provides a subject to deliver elements to multiple subscribers.
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self) { subject }
    }

    /// Creates a connectable wrapper around the publisher.
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }

    /// Shares the output of an upstream publisher with multiple subscribers.
    ///
    /// ```swift
    /// let shared = expensiveRequest.share()
    /// let a = shared.sink { print("a", $0) }
    /// let b = shared.sink { print("b", $0) }   // one upstream subscription for both
    /// ```
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension ConnectablePublisher {
    /// Automates the process of connecting or disconnecting from this connectable publisher.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

/// What a ``Publishers/Autoconnect`` keeps under its lock: how many subscribers it has, whether a
/// thread is connecting, and the connection; each transition returns what to do after unlocking.
struct AutoconnectState {
    var subscribers = 0
    var connecting = false
    var connection: (any Cancellable)?

    /// A subscriber arrived upstream: whether this thread connects now.
    mutating func subscribed() -> Bool {
        guard connection == nil, !connecting, subscribers > 0 else { return false }
        connecting = true
        return true
    }

    /// `connect()` returned `connection`: the connection to cancel if everyone left meanwhile
    /// (a synchronous upstream completes inside `connect`).
    mutating func connected(_ connection: any Cancellable) -> (any Cancellable)? {
        connecting = false
        guard subscribers > 0 else { return connection }
        self.connection = connection
        return nil
    }

    /// A subscriber left: the connection to cancel if it was the last one.
    mutating func released() -> (any Cancellable)? {
        subscribers -= 1
        guard subscribers == 0 else { return nil }
        defer { connection = nil }
        return connection
    }
}
