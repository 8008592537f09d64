extension Optional {
    /// A publisher that publishes an optional value to each subscriber exactly once, if the optional
    /// has a value, and then finishes. `nil` finishes at once, without waiting for demand.
    public struct Publisher: RippleCore.Publisher {
        public typealias Output = Wrapped
        public typealias Failure = Never

        /// The output to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if `nil`.
        public init(_ output: Output?) {
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                subscriber.receive(
                    subscription: SingleValueSubscription(downstream: subscriber, value: output, name: "Optional"))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }

    /// A publisher of this optional's value (nothing, then finished, when `nil`).
    public var publisher: Publisher {
        Publisher(self)
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
