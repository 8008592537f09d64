extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher
    /// with another publisher.
    ///
    /// As in Combine, the upstream is subscribed first, and the downstream receives this
    /// operator's subscription from inside the upstream's `receive(subscription:)`, so its first
    /// request goes straight to the upstream. The replacement is subscribed only after the
    /// failure, from inside its delivery, and is asked at once for the demand the upstream left
    /// unmet.
    ///
    /// Differs from Combine: a handler that nests a fresh `catch` of itself without end traps with
    /// a message beginning "Ripple: the stack is nearly exhausted" instead of overflowing the
    /// stack silently.
    ///
    /// Differs from Combine: a second failure of a broken upstream — sent from inside the handler
    /// call, or after the first was handled — is ignored, as every event after a completion is;
    /// Combine traps.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and returns a publisher to replace
        /// the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a `Catch` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let sequential = SequentialSubscription(
                downstream: subscriber, name: "Catch", traps: [.valueBeforeSubscription, .valueWithoutDemand])
            let handler = self.handler
            sequential.start(with: upstream) { [unowned sequential] completion in
                switch completion {
                case .finished:
                    return .complete(.finished)
                case .failure(let error):
                    return .continue {
                        sequential.attach(handler(error)) { .complete($0) }
                    }
                }
            }
        }
    }

    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher
    /// with another publisher or producing a new error.
    ///
    /// Subscribes, hands out its subscription and carries demand as ``Publishers/Catch`` does.
    ///
    /// Differs from Combine: a second failure of a broken upstream — sent from inside the handler
    /// call, or after the first was handled — is ignored, as every event after a completion is;
    /// Combine traps.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and either returns a publisher to
        /// replace the upstream publisher or throws an error.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a `TryCatch` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let sequential = SequentialSubscription(
                downstream: subscriber, name: "TryCatch", traps: [.valueBeforeSubscription, .valueWithoutDemand])
            let handler = self.handler
            sequential.start(with: upstream) { [unowned sequential] completion in
                switch completion {
                case .finished:
                    return .complete(.finished)
                case .failure(let error):
                    do {
                        let replacement = try handler(error)
                        return .continue {
                            sequential.attach(replacement) { .complete($0.mapFailure { $0 as any Error }) }
                        }
                    } catch {
                        return .complete(.failure(error))
                    }
                }
            }
        }
    }

    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    ///
    /// As in Combine, the upstream is subscribed first and the downstream receives this operator's
    /// subscription, once, from inside the first attempt's `receive(subscription:)`. Demand the
    /// downstream returns from `receive(_:)` is requested from the current attempt's subscription
    /// (the attempt is returned `.none`), and a new attempt is asked at once for the demand still
    /// unmet. A failure subscribes the next attempt from inside its delivery; an attempt that fails
    /// while it is still being subscribed is followed from a loop instead of nesting, so an
    /// upstream that fails synchronously can be retried any number of times.
    ///
    /// Differs from Combine: `retry(1_000_000)` over a publisher that fails inside `subscribe`
    /// (`Fail`, a synchronous custom publisher) ends with the failure; in Combine each attempt
    /// nests in the previous one and the stack overflows.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of retry attempts to perform; `nil` (or, as in Combine, a negative
        /// number) retries forever.
        public let retries: Int?

        /// Creates a `Retry` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let sequential = SequentialSubscription(
                downstream: subscriber, name: "Retry", requestsReturnedDemand: true,
                traps: [.valueBeforeSubscription, .valueWithoutDemandFromEveryChild])
            let upstream = self.upstream
            // One attempt's completion handler; each failure with retries left subscribes again.
            func handler(remaining: Int?) -> (Subscribers.Completion<Failure>) -> SequentialSubscription<S>.Next {
                { [unowned sequential] completion in
                    guard case .failure = completion, remaining.map({ $0 > 0 }) ?? true else {
                        return .complete(completion)
                    }
                    let next = remaining.map { $0 - 1 }
                    return .continue { sequential.attach(upstream, onCompletion: handler(remaining: next)) }
                }
            }
            // As in Combine, a negative count never runs out.
            sequential.start(with: upstream, onCompletion: handler(remaining: retries.flatMap { $0 < 0 ? nil : $0 }))
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    ///
    /// ```swift
    /// let cancellable = Fail<Int, TestError>(error: TestError())
    ///     .catch { _ in Just(0) }
    ///     .sink { print($0) }
    /// // Prints "0"
    /// ```
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Handles errors from an upstream publisher by either replacing it with another publisher or
    /// throwing a new error.
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }

    /// Attempts to recreate a failed subscription with the upstream publisher up to the number of
    /// times you specify.
    ///
    /// ```swift
    /// let cancellable = flakyRequest()  // fails twice, then sends "response"
    ///     .retry(2)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints "response", "finished"
    /// ```
    ///
    /// - Parameter retries: the number of attempts after the first; as in Combine, a negative
    ///   number retries without limit.
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}
