extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling a closure with each received
    /// element. Each `nil` returns `.max(1)` upstream.
    ///
    /// Differs from Combine: a value that a broken upstream sends before its subscription is
    /// passed on instead of trapping. The operator keeps no state (no allocation per subscription,
    /// no lock per value), so it cannot tell that no subscription came.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that receives values from the upstream publisher and returns optional values.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a `CompactMap` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ForwardingInner(downstream: subscriber, name: "CompactMap", transform: transform))
        }
    }
}

extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that has a value.
    ///
    /// ```swift
    /// let cancellable = ["1", "x", "3"].publisher.compactMap { Int($0) }.sink { print($0) }
    /// // Prints "1", "3"
    /// ```
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

// MARK: Fusion

extension Publishers.CompactMap {
    /// Fused with this operator: one operator over the same upstream instead of two.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Fused with this operator: one operator over the same upstream instead of two.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}

extension Publishers.Map {
    /// Fused with this operator: one operator over the same upstream instead of two.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { transform(first($0)) }
    }
}
