extension Publishers {
    /// A publisher that emits all of one publisher's elements before those from another publisher.
    ///
    /// As in Combine, the prefix is subscribed first, and the downstream receives this operator's
    /// subscription from inside the prefix's `receive(subscription:)`, so its first request goes
    /// straight to the prefix (a request for `.none` too). The suffix is subscribed only after the prefix finishes, from
    /// inside that completion, and is asked at once for whatever demand the prefix left unmet. A
    /// prefix failure fails the whole stream.
    ///
    /// Subscribing the next part does not deepen the stack without bound: a part that completes
    /// while the one before it is still being subscribed is followed from a loop, and a concatenation nested in another (or in `catch`/`retry`) joins
    /// the outer one's run instead of nesting, so chains of any length are safe.
    ///
    /// Differs from Combine: a long chain of concatenations (`chain = chain.append(next)` thirty
    /// thousand times) delivers through one subscription instead of one per link, so it does not
    /// overflow the stack.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before republishing elements from `suffix`.
        public let prefix: Prefix
        /// The publisher to republish only after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher that republishes all of `prefix`, then all of `suffix`.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // The cast to a constrained existential needs the 2022 systems' runtime on Apple
            // platforms; before them a concatenation nests instead of splicing (the same behaviour,
            // one subscription level per link).
            if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *),
                let outer = subscriber as? any ConcatenationSplicing<Output, Failure>,
                outer.splice(prefix: prefix, suffix: suffix)
            {
                return
            }
            let sequential = SequentialSubscription(downstream: subscriber, name: "Concatenate", passesZeroDemand: true)
            let suffix = self.suffix
            sequential.start(with: prefix) { [unowned sequential] completion in
                guard case .finished = completion else { return .complete(completion) }
                return .continue {
                    sequential.attach(suffix) { .complete($0) }
                }
            }
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publisher {
    /// Appends a publisher's output with the specified elements.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher.append(3, 4).sink { print($0) }
    /// // Prints "1", "2", "3", "4"
    /// ```
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends a publisher's output with the specified sequence.
    public func append<S: Swift.Sequence>(
        _ elements: S
    ) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where Output == S.Element {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of this publisher with the elements emitted by the given publisher.
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P.Failure == Failure, P.Output == Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Prefixes a publisher's output with the specified values.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes a publisher's output with the specified sequence.
    public func prepend<S: Swift.Sequence>(
        _ elements: S
    ) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where Output == S.Element {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes the output of this publisher with the elements emitted by the given publisher.
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P.Failure == Failure, P.Output == Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}
