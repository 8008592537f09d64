extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later elements.
    ///
    /// Each omitted element returns `.max(1)` upstream, so the downstream still gets what it asked for.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The number of elements to drop.
        public let count: Int

        /// Creates a `Drop` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, count: Int) {
            require(count >= 0, "dropFirst: count must not be negative (got \(count))")
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let remaining = PreviousValue<Int>()
            remaining.value = count
            upstream.subscribe(
                ForwardingInner(downstream: subscriber, name: "Drop") { value in
                    // Serial calls by contract: `remaining` needs no lock.
                    if remaining.value! > 0 {
                        remaining.value! -= 1
                        return nil
                    }
                    return value
                })
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher.dropFirst(2).sink { print($0) }
    /// // Prints "3", "4"
    /// ```
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}
