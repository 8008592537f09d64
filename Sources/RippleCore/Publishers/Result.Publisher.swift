extension Result {
    /// A publisher that publishes a result's output to each subscriber exactly once and then
    /// finishes, or fails immediately (without waiting for demand) if the result is a failure.
    public struct Publisher: RippleCore.Publisher {
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Success, Failure>

        /// Creates a publisher that delivers the specified result.
        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends the specified output to each subscriber and then finishes.
        public init(_ output: Success) {
            self.result = .success(output)
        }

        /// Creates a publisher that immediately sends the specified failure to each subscriber.
        public init(_ failure: Failure) {
            self.result = .failure(failure)
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let output):
                subscriber.receive(
                    subscription: SingleValueSubscription(downstream: subscriber, value: output, name: "Once"))
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }

    /// A publisher of this result.
    public var publisher: Publisher {
        Publisher(self)
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
