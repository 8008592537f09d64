/// A protocol that declares a type that can receive input from a publisher.
///
/// A publisher calls ``receive(subscription:)`` once, then ``receive(_:)`` no more often than the
/// subscriber requested, then at most one ``receive(completion:)``. Calls are never concurrent.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of errors this subscriber might receive. Use `Never` if it does not receive errors.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed and may request items.
    func receive(subscription: any Subscription)
    /// Tells the subscriber that the publisher has produced an element.
    ///
    /// - Returns: How many more elements the subscriber expects, added to its outstanding demand.
    func receive(_ input: Input) -> Subscribers.Demand
    /// Tells the subscriber that the publisher has completed publishing.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of void elements is ready to receive further requests.
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}
