/// A publisher that awaits subscription before running the supplied closure to create a publisher
/// for the new subscriber.
///
/// The factory runs once per subscription, never at creation:
///
/// ```swift
/// let now = Deferred { Just(Int.random(in: 0..<100)) }  // nothing runs yet
/// let a = now.sink { print("first", $0) }
/// let b = now.sink { print("second", $0) }  // a fresh Just, a fresh number
/// ```
///
/// Differs from Combine: a factory that returns a `Deferred` of itself, nesting without end, traps
/// with a message beginning "Ripple: the stack is nearly exhausted" instead of overflowing the
/// stack silently.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    public typealias Output = DeferredPublisher.Output
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this publisher receives a subscription.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        StackGuard.check("Deferred")
        createPublisher().receive(subscriber: subscriber)
    }
}
