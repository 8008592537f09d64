/// A publisher that immediately terminates with the specified error, without waiting for demand.
///
/// ```swift
/// struct Oops: Error {}
/// let cancellable = Fail<Int, Oops>(error: Oops()).sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
/// // Prints "failure(Oops())"
/// ```
public struct Fail<Output, Failure: Error>: Publisher {
    /// The failure to send when terminating the publisher.
    public let error: Failure

    /// Creates a publisher that immediately terminates with the specified failure.
    public init(error: Failure) {
        self.error = error
    }

    /// Creates a publisher with the given output type that immediately terminates with `failure`.
    public init(outputType: Output.Type, failure: Failure) {
        self.error = failure
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable where Failure: Sendable {}
