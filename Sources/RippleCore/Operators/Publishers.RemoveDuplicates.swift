extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    /// Each skipped duplicate returns `.max(1)` upstream.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Output, Output) -> Bool

        /// Creates a `RemoveDuplicates` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let previous = PreviousValue<Output>()
            let predicate = self.predicate
            upstream.receive(subscriber:
                // As in Combine, an event before the upstream subscription traps.
                StepInner(downstream: subscriber, name: "RemoveDuplicates", trapsBeforeSubscription: true, mapFailure: { $0 }) {
                    value in
                    // Serial calls by contract: `previous` needs no lock.
                    if let last = previous.value, predicate(last, value) { return .drop }
                    previous.value = value
                    return .send(value)
                })
        }
    }
}

/// One subscription's memory of the last value it let through.
final class PreviousValue<Value> {
    var value: Value?
}

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    ///
    /// ```swift
    /// let cancellable = [1, 1, 2, 2, 1].publisher.removeDuplicates().sink { print($0) }
    /// // Prints "1", "2", "1"
    /// ```
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a closure
    /// that returns `true` when two elements are equivalent.
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}
