extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided closure.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) -> Output

        /// Creates a `Map` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // The inner holds the closure, never `self`: the upstream publisher is not kept alive.
            upstream.receive(subscriber: ForwardingInner(downstream: subscriber, name: "Map", transform: transform))
        }
    }

    /// A publisher that transforms all elements from the upstream publisher with a provided
    /// error-throwing closure; a thrown error cancels upstream and fails the stream.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a `TryMap` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            upstream.receive(subscriber: StepInner.trying(downstream: subscriber, name: "TryMap", transform: transform))
        }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.map { $0 * $0 }.sink { print($0) }
    /// // Prints "1", "4", "9"
    /// ```
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    /// Transforms all elements from the upstream publisher with a provided error-throwing closure.
    ///
    /// If the closure throws, the publisher cancels its upstream and fails with the thrown error.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

// MARK: Fusion: consecutive maps become one operator over the same upstream.

extension Publishers.Map {
    /// Fused with this operator: one operator over the same upstream instead of two.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }

    /// Fused with this operator: one operator over the same upstream instead of two.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publishers.TryMap {
    /// Fused with this operator: one operator over the same upstream instead of two.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Fused with this operator: one operator over the same upstream instead of two.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}
