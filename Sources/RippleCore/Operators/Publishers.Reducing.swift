// Operators that consume the upstream and publish at most one value (rule 26): they send their
// subscription first, request `.unlimited` upstream, hold the result until there is demand, and
// the short-circuiting ones cancel the upstream as soon as the answer is known. All of them run on
// `ReduceInner`.

extension Publisher {
    /// Subscribes a ``ReduceInner`` for `subscriber`: the shared body of every reducing operator.
    fileprivate func subscribeReducing<S: Subscriber>(
        _ subscriber: S, name: String, initial: S.Input?,
        reduce: @escaping (inout S.Input?, Output) throws(Failure) -> Bool
    ) where S.Failure == Failure {
        receive(subscriber:
            ReduceInner<Output, Failure, S>(
                downstream: subscriber, initial: initial, name: name, mapFailure: { $0 }, reduce: reduce))
    }

    /// The `try` variant: the step may throw any error, which cancels upstream and fails.
    fileprivate func subscribeTryReducing<S: Subscriber>(
        _ subscriber: S, name: String, initial: S.Input?,
        reduce: @escaping (inout S.Input?, Output) throws -> Bool
    ) where S.Failure == any Error {
        receive(subscriber:
            ReduceInner<Output, Failure, S>(
                downstream: subscriber, initial: initial, name: name, mapFailure: { $0 },
                reduce: { (result: inout S.Input?, value: Output) throws(any Error) -> Bool in
                    try reduce(&result, value)
                }))
    }
}

extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated value
    /// when the upstream publisher finishes.
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` of the result gets no
    /// `.finished` after it (nothing is delivered after `cancel()` returns); the same holds for every
    /// reducing operator (first, last, min, max, count, collect, contains, allSatisfy, and the `try`
    /// forms).
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value provided on the first invocation of the closure.
        public let initial: Output
        /// A closure that takes the previously-accumulated value and the next element from the upstream
        /// publisher to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a `Reduce` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.subscribeReducing(subscriber, name: "Reduce", initial: initial) { result, value in
                result = next(result!, value)
                return false
            }
        }
    }

    /// A publisher that applies an error-throwing closure to all received elements and produces an
    /// accumulated value when the upstream publisher finishes.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value provided on the first invocation of the closure.
        public let initial: Output
        /// An error-throwing closure that takes the previously-accumulated value and the next element
        /// from the upstream to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a `TryReduce` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let next = nextPartialResult
            upstream.subscribeTryReducing(subscriber, name: "TryReduce", initial: initial) { result, value in
                result = try next(result!, value)
                return false
            }
        }
    }

    /// A publisher that publishes the number of elements received from the upstream publisher.
    public struct Count<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `Count` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
            upstream.subscribeReducing(subscriber, name: "Count", initial: 0) { result, _ in
                result! += 1
                return false
            }
        }
    }

    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item (used by `min` and `max`).
    public struct Comparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that receives two elements and returns true if they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a `Comparison` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ordered = areInIncreasingOrder
            upstream.subscribeReducing(subscriber, name: "Comparison", initial: nil) { result, value in
                // Keep the current result unless the new value comes strictly before it.
                if let current = result, !ordered(value, current) { return false }
                result = value
                return false
            }
        }
    }

    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item, and fails if the ordering logic throws
    /// an error.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that receives two elements and returns true if they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a `TryComparison` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let ordered = areInIncreasingOrder
            upstream.subscribeTryReducing(subscriber, name: "TryComparison", initial: nil) { result, value in
                if let current = result, try !ordered(value, current) { return false }
                result = value
                return false
            }
        }
    }

    /// A publisher that emits a Boolean value when it receives a specified element from its upstream
    /// publisher.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The element to scan for in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a `Contains` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
            let wanted = output
            upstream.subscribeReducing(subscriber, name: "Contains", initial: false) { result, value in
                guard value == wanted else { return false }
                result = true
                return true
            }
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies the predicate
    /// closure.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether the publisher should consider an element as a match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a `ContainsWhere` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "ContainsWhere", initial: false) { result, value in
                guard predicate(value) else { return false }
                result = true
                return true
            }
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies the throwing
    /// predicate closure.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether this publisher should emit a true element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a `TryContainsWhere` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribeTryReducing(subscriber, name: "TryContainsWhere", initial: false) { result, value in
                guard try predicate(value) else { return false }
                result = true
                return true
            }
        }
    }

    /// A publisher that publishes a single Boolean value that indicates whether all received elements
    /// pass a given predicate.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a `AllSatisfy` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "AllSatisfy", initial: true) { result, value in
                guard !predicate(value) else { return false }
                result = false
                return true
            }
        }
    }

    /// A publisher that publishes a single Boolean value that indicates whether all received elements
    /// pass a given error-throwing predicate.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a `TryAllSatisfy` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Bool, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribeTryReducing(subscriber, name: "TryAllSatisfy", initial: true) { result, value in
                guard try !predicate(value) else { return false }
                result = false
                return true
            }
        }
    }

    /// A publisher that waits until after the stream finishes, and then publishes the last element
    /// of the stream.
    public struct Last<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `Last` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribeReducing(subscriber, name: "Last", initial: nil) { result, value in
                result = value
                return false
            }
        }
    }

    /// A publisher that waits until after the stream finishes and then publishes the last element of
    /// the stream that satisfies a predicate closure.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a `LastWhere` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribeReducing(subscriber, name: "LastWhere", initial: nil) { result, value in
                if predicate(value) { result = value }
                return false
            }
        }
    }

    /// A publisher that waits until after the stream finishes and then publishes the last element of
    /// the stream that satisfies an error-throwing predicate closure.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a `TryLastWhere` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribeTryReducing(subscriber, name: "TryLastWhere", initial: nil) { result, value in
                if try predicate(value) { result = value }
                return false
            }
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy a predicate closure.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a `FirstWhere` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            // Combine's name for this subscription is "TryFirst" (as recorded against Apple's
            // Combine: its `first(where:)` shares the throwing form's inner).
            upstream.subscribeReducing(subscriber, name: "TryFirst", initial: nil) { result, value in
                guard predicate(value) else { return false }
                result = value
                return true
            }
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy a throwing predicate
    /// closure.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a `TryFirstWhere` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribeTryReducing(subscriber, name: "TryFirstWhere", initial: nil) { result, value in
                guard try predicate(value) else { return false }
                result = value
                return true
            }
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}
extension Publishers.Contains: Equatable where Upstream: Equatable {}
extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result upon
    /// completion.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher.reduce(0, +).sink { print($0) }
    /// // Prints "10"
    /// ```
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Applies an error-throwing closure that collects each element of a stream and publishes a final
    /// result upon completion; a thrown error cancels upstream and fails.
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Publishes the number of elements received from the upstream publisher.
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }

    /// Publishes the minimum value received from the upstream publisher, using the provided ordering
    /// closure.
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided ordering
    /// closure.
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the minimum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items.
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items.
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure, and
    /// cancels the upstream at once.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate
    /// closure.
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }

    /// Publishes a single Boolean value that indicates whether all received elements pass a given
    /// predicate; the first element that fails it cancels the upstream and publishes `false`.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Publishes a single Boolean value that indicates whether all received elements pass a given
    /// error-throwing predicate.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }

    /// Publishes the last element of a stream, after the stream finishes.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Publishes the last element of a stream that satisfies a predicate closure, after upstream
    /// finishes.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the last element of a stream that satisfies an error-throwing predicate closure,
    /// after the stream finishes.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the first element of a stream to satisfy a predicate closure, then finishes
    /// (cancelling the upstream).
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the first element of a stream to satisfy a throwing predicate closure, then
    /// finishes normally.
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    public func min() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: <)
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes.
    public func max() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { $1 < $0 }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument, and cancels the
    /// upstream at once.
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}
