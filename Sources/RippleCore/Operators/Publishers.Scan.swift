extension Publishers {
    /// A publisher that transforms elements by applying a closure that receives its previous return
    /// value and the next element, publishing each intermediate result.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The previous result, before any element arrives.
        public let initialResult: Output
        /// The closure that combines the previous result with the next element.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a `Scan` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Each subscription starts from `initialResult`; serial calls make the accumulator lock-free.
            let accumulator = PreviousValue<Output>()
            accumulator.value = initialResult
            let next = nextPartialResult
            upstream.receive(subscriber:
                ForwardingInner(downstream: subscriber, name: "Scan") { value in
                    let result = next(accumulator.value!, value)
                    accumulator.value = result
                    return result
                })
        }
    }
}

extension Publisher {
    /// Transforms elements by providing the current element to a closure along with the last value
    /// returned by the closure.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher.scan(0, +).sink { print($0) }
    /// // Prints "1", "3", "6", "10"
    /// ```
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
