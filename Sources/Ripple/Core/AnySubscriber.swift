/// A type-erasing subscriber.
///
/// Wrapping a subscriber keeps its ``combineIdentifier``, so publishers that track subscribers by
/// identity see the wrapped one.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline
    internal let receiveSubscriptionBody: ((any Subscription) -> Void)?
    @usableFromInline
    internal let receiveValueBody: ((Input) -> Subscribers.Demand)?
    @usableFromInline
    internal let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?

    public let combineIdentifier: CombineIdentifier

    @usableFromInline
    internal let descriptionBody: () -> String

    /// Creates a type-erasing subscriber to wrap an existing subscriber.
    @inlinable
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        receiveSubscriptionBody = s.receive(subscription:)
        receiveValueBody = s.receive(_:)
        receiveCompletionBody = s.receive(completion:)
        combineIdentifier = s.combineIdentifier
        descriptionBody = { String(describing: s) }
    }

    /// Creates a type-erasing subscriber that forwards to a subject: values and completions are sent
    /// to it, the subscription is handed to it, and unlimited demand is requested.
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        receiveSubscriptionBody = { subscription in
            s.send(subscription: subscription)
            subscription.request(.unlimited)
        }
        receiveValueBody = { value in
            s.send(value)
            return .none
        }
        receiveCompletionBody = { completion in s.send(completion: completion) }
        combineIdentifier = CombineIdentifier(s)
        descriptionBody = { String(describing: s) }
    }

    /// Creates a type-erasing subscriber that executes the provided closures.
    ///
    /// A missing `receiveValue` asks for no further values (returns `.none`).
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
        combineIdentifier = CombineIdentifier()
        descriptionBody = { "Anonymous AnySubscriber" }
    }

    @inlinable
    public func receive(subscription: any Subscription) {
        receiveSubscriptionBody?(subscription)
    }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        receiveValueBody?(value) ?? .none
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionBody?(completion)
    }

    public var description: String { descriptionBody() }
}
