// Combine's specialised operators on Just: with one value and no failure, each operator's answer
// is known at once, so it returns another Just, an Optional.Publisher, a Result.Publisher, a
// Publishers.Sequence or Empty — computed eagerly, when the operator is applied (as in Combine).

extension Just {
    /// The eager form of `allSatisfy` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// The eager form of `tryAllSatisfy` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// The eager form of `collect` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// The eager form of `compactMap` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// The eager form of `min` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }
    /// The eager form of `max` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The eager form of `contains` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// The eager form of `tryContains` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// The eager form of `count` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func count() -> Just<Int> { Just<Int>(1) }

    /// The eager form of `dropFirst` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        require(count >= 0, "dropFirst: count must not be negative (got \(count))")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }

    /// The eager form of `drop` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// The eager form of `first` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func first() -> Just<Output> { self }

    /// The eager form of `first` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The eager form of `last` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func last() -> Just<Output> { self }

    /// The eager form of `last` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The eager form of `filter` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// The eager form of `ignoreOutput` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// The eager form of `map` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

    /// The eager form of `tryMap` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try transform(output) })
    }

    /// The eager form of `mapError` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(output))
    }

    /// The eager form of `output` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        require(index >= 0, "output(at:): index must not be negative (got \(index))")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// The eager form of `output` for ``Just``: the result is computed when the operator is applied, as in Combine.
    ///
    /// As in Combine, the value is published when the range starts at 0, even an empty one.
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// The eager form of `prefix` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        require(maxLength >= 0, "prefix: maxLength must not be negative (got \(maxLength))")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// The eager form of `prefix` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The eager form of `reduce` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(.success(nextPartialResult(initialResult, output)))
    }

    /// The eager form of `tryReduce` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// The eager form of `removeDuplicates` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The eager form of `tryRemoveDuplicates` for ``Just``: the result is computed when the operator is applied, as in Combine.
    ///
    /// As in Combine, the predicate is called once, with the value as both arguments, and an error
    /// it throws becomes the result's failure (`removeDuplicates(by:)` does not call its predicate).
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        do {
            _ = try predicate(output, output)
            return Result<Output, any Error>.Publisher(.success(output))
        } catch {
            return Result<Output, any Error>.Publisher(.failure(error))
        }
    }

    /// The eager form of `replaceError` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// The eager form of `replaceEmpty` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// The eager form of `retry` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func retry(_ times: Int) -> Just<Output> { self }

    /// The eager form of `scan` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(.success(nextPartialResult(initialResult, output)))
    }

    /// The eager form of `tryScan` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// The eager form of `prepend` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        prepend(elements)
    }

    /// The eager form of `prepend` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func prepend<Elements: Swift.Sequence>(_ elements: Elements) -> Publishers.Sequence<[Output], Never>
    where Elements.Element == Output {
        Publishers.Sequence<[Output], Never>(sequence: Array(elements) + [output])
    }

    /// The eager form of `append` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        append(elements)
    }

    /// The eager form of `append` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func append<Elements: Swift.Sequence>(_ elements: Elements) -> Publishers.Sequence<[Output], Never>
    where Elements.Element == Output {
        Publishers.Sequence<[Output], Never>(sequence: [output] + Array(elements))
    }

    /// The eager form of `setFailureType` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(output))
    }
}

extension Just where Output: Comparable {
    /// The eager form of `min` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func min() -> Just<Output> { self }
    /// The eager form of `max` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// The eager form of `contains` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }
    /// The eager form of `removeDuplicates` for ``Just``: the result is computed when the operator is applied, as in Combine.
    public func removeDuplicates() -> Just<Output> { self }
}
