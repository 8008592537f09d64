extension Publishers {
    /// A publisher that publishes a given sequence of elements, as demand allows, then finishes.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.sink { print($0) }
    /// // Prints "1", "2", "3"
    /// ```
    ///
    /// An empty sequence finishes at once, without waiting for demand.
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` of the last element
    /// gets no `.finished` (Combine sends it): nothing is delivered after `cancel()` returns.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            SequenceSubscription.start(sequence, then: .finished, to: subscriber, origin: .sequence)
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Sequence {
    /// A publisher of this sequence's elements.
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}
