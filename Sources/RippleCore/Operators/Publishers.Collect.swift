extension Publishers {
    /// A publisher that buffers every element and publishes them as one array when the upstream
    /// finishes. A failure is forwarded at once and the buffer dropped.
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` of the result gets no
    /// `.finished` after it (nothing is delivered after `cancel()` returns); the same holds for every
    /// reducing operator (first, last, min, max, count, collect, contains, allSatisfy, and the `try`
    /// forms).
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `Collect` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber:
                ReduceInner<Upstream.Output, Failure, S>(
                    downstream: subscriber, initial: [], name: "Collect", mapFailure: { $0 }
                ) { result, value in
                    result!.append(value)
                    return false
                })
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the upstream
    /// publisher finishes.
    ///
    /// ```swift
    /// let cancellable = (1...3).publisher.collect().sink { print($0) }
    /// // Prints "[1, 2, 3]"
    /// ```
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}
