/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// With `completeImmediately` (the default) it sends ``Subscriptions/empty`` and then `.finished`
/// without waiting for demand; otherwise it stays silent forever (useful in tests).
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// A Boolean value that indicates whether the publisher immediately sends a completion.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given completion behavior and output and failure types.
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }
}

// `Subscriptions.empty` — what Empty and Fail hand their subscribers — describes itself as Combine's.
extension EmptySubscription: CustomReflectable, CustomPlaygroundDisplayConvertible {
    @usableFromInline var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }
    @usableFromInline var playgroundDescription: Any { description }
}
