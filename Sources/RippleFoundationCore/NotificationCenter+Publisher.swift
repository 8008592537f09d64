extension NotificationCenter {
    /// A publisher that emits elements when broadcasting notifications.
    public struct Publisher: RippleCore.Publisher, @unchecked Sendable {
        public typealias Output = Notification
        public typealias Failure = Never

        /// The notification center this publisher uses as a source.
        public let center: NotificationCenter
        /// The name of notifications published by this publisher.
        public let name: Notification.Name
        /// The object posting the named notification (any object when `nil`).
        public let object: AnyObject?

        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = NotificationSubscription(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.observe(center: center, name: name, object: object)
        }
    }

    /// Returns a publisher that emits events when broadcasting notifications.
    ///
    /// ```swift
    /// let cancellable = NotificationCenter.default
    ///     .publisher(for: .NSCalendarDayChanged)
    ///     .sink { _ in refresh() }
    /// ```
    ///
    /// Notifications posted while the subscriber has no demand are dropped (as a
    /// `PassthroughSubject` would); cancelling removes the observer.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        NotificationCenter.Publisher(center: self, name: name, object: object)
    }
}

/// The non-generic face the observer block captures (a block capturing a generic class would
/// capture its type metadata, which Swift 6 flags in a `@Sendable` closure).
private class NotificationSink: @unchecked Sendable {
    func deliver(_ notification: Notification) {}
}

/// Observes the notification center while the subscriber is attached.
private final class NotificationSubscription<Downstream: Subscriber>: NotificationSink, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var observer: (any NSObjectProtocol)?
        var center: NotificationCenter?
    }

    private let state: LockedValue<State>

    init(downstream: Downstream) {
        state = LockedValue(State(downstream: downstream))
    }

    private var sink: NotificationSink { self }

    var description: String { "NotificationCenter Observer" }

    func observe(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
        // The center holds the subscription (through the block) until it is cancelled, as a subject
        // holds its subscriptions: a subscriber need not keep it alive.
        let sink = self.sink
        let observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
            sink.deliver(notification)
        }
        let stillWanted = state.withLock { state -> Bool in
            guard state.downstream != nil else { return false }
            state.observer = observer
            state.center = center
            return true
        }
        if !stillWanted { center.removeObserver(observer) }
    }

    override func deliver(_ notification: Notification) {
        let downstream = state.withLock { state -> Downstream? in
            guard state.demand > 0, let downstream = state.downstream else { return nil }
            state.demand -= 1
            return downstream
        }
        guard let downstream else { return }
        let more = downstream.receive(notification)
        if more > 0 { state.withLock { $0.demand += more } }
    }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "NotificationCenter.Publisher: demand must be greater than zero (got \(demand))")
        state.withLock { $0.demand += demand }
    }

    func cancel() {
        let (observer, center, released) = state.withLock { state -> ((any NSObjectProtocol)?, NotificationCenter?, Downstream?) in
            defer { state = State() }
            return (state.observer, state.center, state.downstream)
        }
        if let observer { center?.removeObserver(observer) }
        _ = released
    }
}
