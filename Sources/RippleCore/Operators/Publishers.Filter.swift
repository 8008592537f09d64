extension Publishers {
    /// A publisher that republishes all elements that match a provided closure.
    ///
    /// Each dropped element returns `.max(1)` upstream, so downstream demand is still met.
    ///
    /// Differs from Combine: a value that a broken upstream sends before its subscription is
    /// passed on instead of trapping. The operator keeps no state (no allocation per subscription,
    /// no lock per value), so it cannot tell that no subscription came.
    public struct Filter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates a `Filter` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // The closure captures `isIncluded`, never `self`: the upstream publisher is not kept alive.
            let isIncluded = self.isIncluded
            upstream.receive(subscriber: ForwardingInner(downstream: subscriber, name: "Filter") { isIncluded($0) ? $0 : nil })
        }
    }

    /// A publisher that republishes all elements that match a provided error-throwing closure.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a `TryFilter` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let isIncluded = self.isIncluded
            upstream.receive(subscriber:
                // As in Combine, an event before the upstream subscription traps.
                StepInner.trying(downstream: subscriber, name: "TryFilter", trapsBeforeSubscription: true) {
                    try isIncluded($0) ? $0 : nil
                })
        }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided closure.
    ///
    /// ```swift
    /// let cancellable = (1...6).publisher.filter { $0.isMultiple(of: 2) }.sink { print($0) }
    /// // Prints "2", "4", "6"
    /// ```
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }

    /// Republishes all elements that match a provided error-throwing closure; a thrown error cancels
    /// upstream and fails the stream.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

// MARK: Fusion

extension Publishers.Filter {
    /// Fused with this operator: one operator over the same upstream instead of two.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }

    /// Fused with this operator: one operator over the same upstream instead of two.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    /// Fused with this operator: one operator over the same upstream instead of two.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fused with this operator: one operator over the same upstream instead of two.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}
