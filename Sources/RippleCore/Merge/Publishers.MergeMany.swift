// Merge: MergeMany, any number of publishers of one type, on `MergeCore` (the fixed arities are
// in Publishers.Merge.swift, written by Scripts/generate-arity.swift).

extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publishers that this publisher receives elements from.
        public let publishers: [Upstream]

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
            publishers = Array(upstream)
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: publishers.count, name: "Merge")
            core.start()
            for (index, publisher) in publishers.enumerated() {
                core.subscribe(publisher, at: index)
            }
        }

        /// Combines elements from this publisher with those from another publisher of the same type.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
