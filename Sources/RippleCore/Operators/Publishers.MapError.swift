extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that converts the upstream failure into a new error.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates a `MapError` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FailureMappingInner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    ///
    /// ```swift
    /// struct Wrapped: Error { let underlying: any Error }
    /// let mapped = Fail<Int, CancellationError>(error: CancellationError()).mapError { Wrapped(underlying: $0) }
    /// ```
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}
