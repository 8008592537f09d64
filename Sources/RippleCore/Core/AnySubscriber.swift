/// A type-erasing subscriber.
///
/// Wrapping a subscriber keeps its ``combineIdentifier``, so publishers that track subscribers by
/// identity see the wrapped one.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    internal let receiveSubscriptionBody: ((any Subscription) -> Void)?
    @usableFromInline
    internal let receiveValueBody: ((Input) -> Subscribers.Demand)?
    @usableFromInline
    internal let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?

    public let combineIdentifier: CombineIdentifier

    /// What the description, mirror and playground description come from: the wrapped subscriber
    /// or subject, or `nil` for closures.
    @usableFromInline
    internal let wrapped: Any?

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
        wrapped = s
    }

    /// Creates a type-erasing subscriber that forwards to a subject.
    ///
    /// As in Combine, the subject is handed a subscription of the wrapper's own and decides what to
    /// request through it (a ``PassthroughSubject`` asks for `.unlimited` once it has a subscriber
    /// with demand, a ``CurrentValueSubject`` at once); a second subscription is cancelled. Values
    /// and the completion are sent to the subject, and `receive(_:)` returns `.none`. A value or
    /// completion that arrives before any subscription traps, as in Combine.
    ///
    /// Differs from Combine: events that arrive after the completion are not passed on (Combine's
    /// wrapper passes them to the subject, which ignores them if it is one of the built-in
    /// subjects). The wrapper lets the subject go at the completion, so that the two do not keep
    /// each other alive.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let cancellable = subject.sink { print($0) }
    /// [1, 2].publisher.subscribe(AnySubscriber(subject))
    /// // Prints "1", "2"
    /// ```
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        let forwarder = SubjectSubscriber(s, requiresSubscription: true)
        receiveSubscriptionBody = forwarder.receive(subscription:)
        receiveValueBody = forwarder.receive(_:)
        receiveCompletionBody = forwarder.receive(completion:)
        combineIdentifier = CombineIdentifier(s)
        wrapped = forwarder
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
        wrapped = nil
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

    /// The wrapped subscriber's description ("Anonymous AnySubscriber" for closures).
    public var description: String {
        guard let wrapped else { return "Anonymous AnySubscriber" }
        return String(describing: wrapped)
    }

    /// The wrapped subscriber's mirror (an empty one for closures or a subscriber without one).
    public var customMirror: Mirror {
        if let wrapped, let reflectable = wrapped as? any CustomReflectable { return reflectable.customMirror }
        return Mirror(self, children: [:])
    }

    /// The wrapped subscriber's playground description, else its description, else its type's name.
    public var playgroundDescription: Any {
        guard let wrapped else { return description }
        if let displayable = wrapped as? any CustomPlaygroundDisplayConvertible {
            return displayable.playgroundDescription
        }
        if let describable = wrapped as? any CustomStringConvertible { return describable.description }
        return String(describing: type(of: wrapped))
    }
}

extension AnySubscriber: DiagnosticWrapper {
    var diagnosticWrapped: Any? { wrapped }
}
