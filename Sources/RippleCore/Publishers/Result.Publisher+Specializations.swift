// Combine's specialised operators on Result.Publisher: one value or one failure, so each
// operator's answer is known at once and is another Result.Publisher (or Empty), computed eagerly
// when the operator is applied. The `try` forms turn a thrown error into the result's failure.

extension Result.Publisher where Output: Equatable {
    /// The eager form of `contains(_:)`: whether the value equals `output`, or the failure.
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// The eager form of `removeDuplicates()`: one value has no duplicates, so this publisher itself.
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
    /// The eager form of `min()`: the one value is the minimum.
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// The eager form of `max()`: the one value is the maximum.
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher {
    /// The result of `body`, any thrown error as the failure.
    private func attempt<T>(_ body: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(
            result.mapError { $0 as any Error }.flatMap { value in Result<T, any Error> { try body(value) } })
    }

    /// The eager form of `allSatisfy(_:)`: the predicate applied to the value, or the failure.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// The eager form of `tryAllSatisfy(_:)`: the predicate applied to the value; a thrown error or
    /// the failure fails.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        attempt(predicate)
    }

    /// The eager form of `contains(where:)`: the predicate applied to the value, or the failure.
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// The eager form of `tryContains(where:)`: the predicate applied to the value; a thrown error or
    /// the failure fails.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        attempt(predicate)
    }

    /// The eager form of `collect()`: the value in an array, or the failure.
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// The eager form of `min(by:)`: the one value is the minimum.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The eager form of `tryMin(by:)`: the value, after calling the comparison once with it (as
    /// Combine does), so a comparison that throws fails.
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        attempt { value in
            _ = try areInIncreasingOrder(value, value)
            return value
        }
    }

    /// The eager form of `max(by:)`: the one value is the maximum.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The eager form of `tryMax(by:)`: the value, after calling the comparison once with it (as
    /// Combine does), so a comparison that throws fails.
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        attempt { value in
            _ = try areInIncreasingOrder(value, value)
            return value
        }
    }

    /// The eager form of `count()`: 1, or the failure.
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// The eager form of `first()`: this publisher itself.
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// The eager form of `last()`: this publisher itself.
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// The eager form of `ignoreOutput()`: `Empty` for a value. For a failure Combine's answer is
    /// also an `Empty` (that finishes), since the type cannot carry the failure.
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// The eager form of `map(_:)`: the value transformed, or the failure.
    public func map<ElementOfResult>(_ transform: (Output) -> ElementOfResult) -> Result<ElementOfResult, Failure>.Publisher {
        Result<ElementOfResult, Failure>.Publisher(result.map(transform))
    }

    /// The eager form of `tryMap(_:)`: the value transformed; a thrown error or the failure fails.
    public func tryMap<ElementOfResult>(_ transform: (Output) throws -> ElementOfResult) -> Result<ElementOfResult, any Error>.Publisher {
        attempt(transform)
    }

    /// The eager form of `mapError(_:)`: the failure transformed.
    public func mapError<TransformedFailure: Error>(
        _ transform: (Failure) -> TransformedFailure
    ) -> Result<Output, TransformedFailure>.Publisher {
        Result<Output, TransformedFailure>.Publisher(result.mapError(transform))
    }

    /// The eager form of `removeDuplicates(by:)`: one value has no duplicates.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The eager form of `tryRemoveDuplicates(by:)`: the value, after calling the predicate once with
    /// it (as Combine does), so a predicate that throws fails.
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        attempt { value in
            _ = try predicate(value, value)
            return value
        }
    }

    /// The eager form of `replaceError(with:)`: the value, or `output` for a failure.
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        Result<Output, Never>.Publisher(.success((try? result.get()) ?? output))
    }

    /// The eager form of `replaceEmpty(with:)`: never empty, so this publisher itself.
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// The eager form of `retry(_:)`: the same result every time, so this publisher itself.
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

    /// The eager form of `reduce(_:_:)`: the value folded into `initialResult`, or the failure.
    public func reduce<Accumulator>(
        _ initialResult: Accumulator, _ nextPartialResult: (Accumulator, Output) -> Accumulator
    ) -> Result<Accumulator, Failure>.Publisher {
        Result<Accumulator, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// The eager form of `tryReduce(_:_:)`: the value folded into `initialResult`; a thrown error or
    /// the failure fails.
    public func tryReduce<Accumulator>(
        _ initialResult: Accumulator, _ nextPartialResult: (Accumulator, Output) throws -> Accumulator
    ) -> Result<Accumulator, any Error>.Publisher {
        attempt { try nextPartialResult(initialResult, $0) }
    }

    /// The eager form of `scan(_:_:)`: the value folded into `initialResult`, or the failure.
    public func scan<ElementOfResult>(
        _ initialResult: ElementOfResult, _ nextPartialResult: (ElementOfResult, Output) -> ElementOfResult
    ) -> Result<ElementOfResult, Failure>.Publisher {
        Result<ElementOfResult, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// The eager form of `tryScan(_:_:)`: the value folded into `initialResult`; a thrown error or
    /// the failure fails.
    public func tryScan<ElementOfResult>(
        _ initialResult: ElementOfResult, _ nextPartialResult: (ElementOfResult, Output) throws -> ElementOfResult
    ) -> Result<ElementOfResult, any Error>.Publisher {
        attempt { try nextPartialResult(initialResult, $0) }
    }
}

extension Result.Publisher where Failure == Never {
    /// The eager form of `setFailureType(to:)`: the same value, with a failure type that is never used.
    public func setFailureType<NewFailure: Error>(to failureType: NewFailure.Type) -> Result<Output, NewFailure>.Publisher {
        Result<Output, NewFailure>.Publisher(.success(result.get()))
    }
}
