/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// ```swift
/// let cancellable = Just("one").sink { print($0) }
/// // Prints "one"
/// ```
///
/// The value waits for demand; cancelling inside `receive(subscription:)` suppresses it.
/// Requesting `.none` traps.
///
/// Differs from Combine: cancelling inside `receive(_:)` also suppresses the `.finished` that
/// follows (Combine sends it): nothing is delivered after `cancel()` returns. The same holds for
/// `Optional.Publisher` and `Result.Publisher`.
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    public init(_ output: Output) {
        self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(
            subscription: SingleValueSubscription(downstream: subscriber, value: output, name: "Just"))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}
