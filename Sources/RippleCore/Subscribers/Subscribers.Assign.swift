extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    ///
    /// It holds the object strongly until completion or cancellation. Values that arrive before
    /// the subscription are ignored.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        public typealias Failure = Never

        private let lock = Lock()
        private var status = UpstreamStatus.awaitingSubscription
        private var root: Root?

        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object that contains the property to assign (`nil` once terminated).
        public var object: Root? {
            lock.withLock { root }
        }

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.root = object
            self.keyPath = keyPath
        }

        /// Combine's description: "Assign" and the root type, with a period ("Assign Model.").
        public var description: String { "Assign \(Root.self)." }

        /// As Combine's: the object (`nil` once terminated), the key path and the subscription status.
        public var customMirror: Mirror {
            let (object, status) = lock.withLock { (root, self.status) }
            let statusDescription: String
            switch status {
            case .awaitingSubscription: statusDescription = "awaiting subscription"
            case .subscribed(let subscription): statusDescription = "subscribed: \(subscription)"
            case .terminal: statusDescription = "terminal"
            }
            return Mirror(self, children: ["object": object as Any, "keyPath": keyPath, "status": statusDescription])
        }

        /// The description, as Combine shows it in a playground.
        public var playgroundDescription: Any { description }

        public func receive(subscription: any Subscription) {
            lock.lock()
            let accepted = status.accept(subscription)
            lock.unlock()
            guard accepted else {
                subscription.cancel()
                return
            }
            subscription.request(.unlimited)
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = status, let root else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            root[keyPath: keyPath] = value
            return .none
        }

        public func receive(completion: Subscribers.Completion<Never>) {
            _ = terminate()
        }

        /// Cancels the subscription and releases the object.
        public func cancel() {
            terminate()?.cancel()
        }

        /// Ends the subscription (once) and releases the object; returns the subscription to cancel.
        private func terminate() -> (any Subscription)? {
            lock.lock()
            guard status.subscription != nil else {
                lock.unlock()
                return nil
            }
            let subscription = status.terminate()
            let released = root
            root = nil
            lock.unlock()
            _ = released
            return subscription
        }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    ///
    /// ```swift
    /// final class Label { var text = "" }
    /// let label = Label()
    /// let cancellable = Just("Hi").assign(to: \.text, on: label)
    /// print(label.text)
    /// // Prints "Hi"
    /// ```
    ///
    /// The subscriber holds `object` strongly until the stream completes or is cancelled.
    public func assign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
    ) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        if diagnosticsAreOn {
            DiagnosticsRecording.recordObject(on: self, subscriber: subscriber, description: subscriber.description) {
                ($0 as? Subscribers.Assign<Root, Output>)?.object != nil
            }
        }
        receive(subscriber: subscriber)
        return AnyCancellable(object: subscriber)
    }
}

extension Subscribers.Assign: DiagnosedSubscriber {
    var diagnosticName: String { description }
    var diagnosticDemand: Subscribers.Demand? { .unlimited }
    var diagnosticIsSubscribed: Bool { object != nil }
}
