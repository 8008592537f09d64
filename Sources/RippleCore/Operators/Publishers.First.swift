extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    ///
    /// It requests `.unlimited` upstream, cancels the upstream as soon as the first element
    /// arrives, and holds that element until the downstream has demand.
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` of the result gets no
    /// `.finished` after it (nothing is delivered after `cancel()` returns); the same holds for every
    /// reducing operator (first, last, min, max, count, collect, contains, allSatisfy, and the `try`
    /// forms).
    public struct First<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `First` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber:
                ReduceInner<Output, Failure, S>(
                    downstream: subscriber, initial: nil, name: "First", mapFailure: { $0 }
                ) { result, value in
                    result = value
                    return true
                })
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    ///
    /// ```swift
    /// let cancellable = (1...3).publisher.first().sink { print($0) }
    /// // Prints "1"
    /// ```
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}
