// The `try` variants of stateful serial operators: each subscription keeps its own state, touched
// only from the upstream's serial calls; a thrown error cancels the upstream and fails (rule 23).

extension Publishers {
    /// A publisher that transforms elements by applying an error-throwing closure that receives its
    /// previous return value and the next element.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The previous result, before any element arrives.
        public let initialResult: Output
        /// An error-throwing closure that combines the previous result with the next element.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a `TryScan` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let accumulator = PreviousValue<Output>()
            accumulator.value = initialResult
            let next = nextPartialResult
            upstream.receive(subscriber:
                StepInner.trying(downstream: subscriber, name: "TryScan", mirrorsDownstream: false) { value in
                    let result = try next(accumulator.value!, value)
                    accumulator.value = result
                    return result
                })
        }
    }

    /// A publisher that republishes all non-`nil` results of calling an error-throwing closure with
    /// each received element.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that receives values from the upstream publisher and returns
        /// optional values.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a `TryCompactMap` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            // As in Combine, an event before the upstream subscription traps.
            upstream.receive(subscriber:
                StepInner.trying(
                    downstream: subscriber, name: "TryCompactMap", trapsBeforeSubscription: true, transform: transform))
        }
    }

    /// A publisher that publishes only elements that don't match the previous element, as evaluated
    /// by a provided error-throwing closure.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure to evaluate whether two elements are equivalent.
        public let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a `TryRemoveDuplicates` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let previous = PreviousValue<Output>()
            let predicate = self.predicate
            upstream.receive(subscriber:
                StepInner.trying(downstream: subscriber, name: "TryRemoveDuplicates", trapsBeforeSubscription: true) { value in
                    if let last = previous.value, try predicate(last, value) { return nil }
                    previous.value = value
                    return value
                })
        }
    }

    /// A publisher that omits elements from an upstream publisher until a given closure returns false.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a `DropWhile` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let dropping = PreviousValue<Bool>()
            dropping.value = true
            let predicate = self.predicate
            upstream.receive(subscriber:
                StepInner(downstream: subscriber, name: "DropWhile", mirrorsDownstream: false, mapFailure: { $0 }) {
                    value in
                    if dropping.value!, predicate(value) { return .drop }
                    dropping.value = false
                    return .send(value)
                })
        }
    }

    /// A publisher that omits elements from an upstream publisher until a given error-throwing
    /// closure returns false.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a `TryDropWhile` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let dropping = PreviousValue<Bool>()
            dropping.value = true
            let predicate = self.predicate
            upstream.receive(subscriber:
                StepInner.trying(downstream: subscriber, name: "TryDropWhile", mirrorsDownstream: false) { value in
                    if dropping.value!, try predicate(value) { return nil }
                    dropping.value = false
                    return value
                })
        }
    }

    /// A publisher that republishes elements while a predicate closure indicates publishing should
    /// continue; the first element that fails it cancels the upstream and finishes.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a `PrefixWhile` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber:
                // As in Combine, an event before the upstream subscription traps.
                StepInner(downstream: subscriber, name: "PrefixWhile", trapsBeforeSubscription: true, mapFailure: { $0 }) {
                    value in
                    predicate(value) ? .send(value) : .finish
                })
        }
    }

    /// A publisher that republishes elements while an error-throwing predicate closure indicates
    /// publishing should continue.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a `TryPrefixWhile` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let predicate = self.predicate
            upstream.receive(subscriber:
                StepInner(downstream: subscriber, name: "TryPrefixWhile", trapsBeforeSubscription: true, mapFailure: { $0 }) { value in
                    attempt { try predicate(value) ? .send(value) : .finish }
                })
        }
    }

    /// A publisher that ignores all upstream elements, but passes along the upstream publisher's
    /// completion state (finished or failed).
    ///
    /// It requests `.unlimited` upstream as soon as it is subscribed: nothing it receives can reach
    /// the downstream, so the downstream's demand has nothing to limit.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `IgnoreOutput` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.receive(subscriber: IgnoreOutputInner<S, Upstream.Output>(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

private struct IgnoreOutputInner<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible
where Downstream.Input == Never {
    typealias Failure = Downstream.Failure
    let downstream: Downstream
    let combineIdentifier = CombineIdentifier()
    var description: String { "IgnoreOutput" }

    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}

extension Publisher {
    /// Transforms elements by providing the current element to an error-throwing closure along with
    /// the last value returned by the closure.
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Calls an error-throwing closure with each received element and publishes any returned
    /// optional that has a value.
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }

    /// Publishes only elements that don't match the previous element, as evaluated by a provided
    /// error-throwing closure.
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }

    /// Omits elements from the upstream publisher until a given closure returns false, before
    /// republishing all remaining elements.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Omits elements from the upstream publisher until an error-throwing closure returns false,
    /// before republishing all remaining elements.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }

    /// Republishes elements while a predicate closure indicates publishing should continue.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Republishes elements while an error-throwing predicate closure indicates publishing should
    /// continue.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }

    /// Ignores all upstream elements, but passes along the upstream publisher's completion state.
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }

    /// Publishes a specific element, indicated by its index in the sequence of published elements.
    ///
    /// Finishes (and cancels the upstream) right after delivering that element, as Combine does.
    public func output(at index: Int) -> Publishers.Output<Self> {
        require(index >= 0, "output(at:): index must not be negative (got \(index))")
        return Publishers.Output(upstream: self, range: index..<(index + 1))
    }

    /// Publishes elements specified by their range in the sequence of published elements.
    ///
    /// Finishes (and cancels the upstream) right after delivering the range's last element, as
    /// Combine does.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }

    /// Replaces `nil` elements in the stream with the provided element.
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}

// MARK: Fusion

extension Publishers.TryCompactMap {
    /// Fused with this operator, as in Combine: one `TryCompactMap` over the same upstream instead
    /// of two operators. The stream fails with the first error either closure throws.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}
