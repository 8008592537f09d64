// Combine's specialised operators on Just: with one value and no failure, each operator's answer
// is known at once, so it returns another Just, an Optional.Publisher, a Result.Publisher or
// Empty — computed eagerly, when the operator is applied (as in Combine).

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
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.contains(0) ? output : nil)
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
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(.success(output))
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

// MARK: Optional.Publisher

extension Optional.Publisher {
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output == nil ? 0 : 1)
    }

    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        require(count >= 0, "dropFirst: count must not be negative (got \(count))")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }

    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    public func first() -> Optional<Output>.Publisher { self }
    public func last() -> Optional<Output>.Publisher { self }

    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) } ?? initialResult)
    }

    public func replaceEmpty(with output: Output) -> Just<Output> { Just<Output>(self.output ?? output) }

    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Equatable {
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    public func removeDuplicates() -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Comparable {
    public func min() -> Optional<Output>.Publisher { self }
    public func max() -> Optional<Output>.Publisher { self }
}

// MARK: Result.Publisher

extension Result.Publisher {
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(result.mapError { $0 as any Error }.flatMap { value in Result<T, any Error> { try transform(value) } })
    }

    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        Result<Output, Never>.Publisher(.success((try? result.get()) ?? output))
    }

    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    public func first() -> Result<Output, Failure>.Publisher { self }
    public func last() -> Result<Output, Failure>.Publisher { self }
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }
}

extension Result.Publisher where Output: Equatable {
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
    public func min() -> Result<Output, Failure>.Publisher { self }
    public func max() -> Result<Output, Failure>.Publisher { self }
}

// MARK: Publishers.Sequence

extension Publishers.Sequence {
    /// The eager form of `map` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// The eager form of `filter` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func filter(_ isIncluded: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// The eager form of `compactMap` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func compactMap<T>(_ transform: (Elements.Element) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// The eager form of `dropFirst` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// The eager form of `drop` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func drop(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// The eager form of `prefix` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// The eager form of `prefix` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
    }

    /// The eager form of `scan` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        var accumulator = initialResult
        return Publishers.Sequence<[T], Failure>(sequence: sequence.map { element in
            accumulator = nextPartialResult(accumulator, element)
            return accumulator
        })
    }

    /// The eager form of `reduce` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Elements.Element) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// The eager form of `count` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.reduce(0) { count, _ in count + 1 }))
    }

    /// The eager form of `collect` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        Result<[Elements.Element], Failure>.Publisher(.success(Array(sequence)))
    }

    /// The eager form of `allSatisfy` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.allSatisfy(predicate)))
    }

    /// The eager form of `contains` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func contains(where predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(where: predicate)))
    }

    /// The eager form of `ignoreOutput` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func ignoreOutput() -> Empty<Elements.Element, Failure> { Empty() }

    /// The eager form of `setFailureType` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> where Failure == Never {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }

    /// The eager form of `append` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence) + elements)
    }

    /// The eager form of `prepend` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: elements + Array(sequence))
    }
}

extension Publishers.Sequence where Failure == Never {
    /// The eager form of `first` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func first() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first { _ in true })
    }

    /// The eager form of `first` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func first(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
    }

    /// The eager form of `min` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The eager form of `max` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// The eager form of `output` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func output(at index: Int) -> Optional<Elements.Element>.Publisher {
        require(index >= 0, "output(at:): index must not be negative (got \(index))")
        return Optional<Elements.Element>.Publisher(sequence.dropFirst(index).first { _ in true })
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The eager form of `min` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func min() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.min()) }
    /// The eager form of `max` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func max() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.max()) }
}

extension Publishers.Sequence where Failure == Never, Elements: BidirectionalCollection {
    /// The eager form of `last` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func last() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.last) }

    /// The eager form of `last` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func last(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// The eager form of `removeDuplicates` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        var previous: Elements.Element?
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter { element in
            defer { previous = element }
            return previous != element
        })
    }

    /// The eager form of `contains` for ``Publishers/Sequence``: the result is computed when the operator is applied, as in Combine.
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(output)))
    }
}
