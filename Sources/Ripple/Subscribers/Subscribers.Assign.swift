extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    ///
    /// It holds the object strongly until completion or cancellation. Values that arrive before
    /// the subscription are ignored.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
        @unchecked Sendable
    {
        public typealias Failure = Never

        private enum Status {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        private let lock = Lock()
        private var status = Status.awaitingSubscription
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

        public var description: String { "Assign \(Root.self)" }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription = status else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed(subscription)
            lock.unlock()
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
            lock.lock()
            guard case .subscribed = status else {
                lock.unlock()
                return
            }
            status = .terminal
            let released = root
            root = nil
            lock.unlock()
            _ = released
        }

        /// Cancels the subscription and releases the object.
        public func cancel() {
            lock.lock()
            guard case .subscribed(let subscription) = status else {
                lock.unlock()
                return
            }
            status = .terminal
            let released = root
            root = nil
            lock.unlock()
            subscription.cancel()
            _ = released
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
        subscribe(subscriber)
        return AnyCancellable(object: subscriber)
    }
}
