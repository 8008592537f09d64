// Combine's specialised operators on Publishers.Sequence: the elements are all known, so each
// operator is applied to the sequence at once and returns another Publishers.Sequence, an
// Optional.Publisher, a Result.Publisher, Just or Empty — computed eagerly, as in Combine. Which
// constraint each needs (Collection, BidirectionalCollection, RandomAccessCollection,
// RangeReplaceableCollection, `Failure == Never`) follows Combine, so the same call returns the same
// type as it does there.

extension Publishers.Sequence where Failure == Never {
    /// The eager form of `min(by:)`: the sequence's minimum, or nothing when it is empty.
    public func min(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The eager form of `max(by:)`: the sequence's maximum, or nothing when it is empty.
    public func max(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// The eager form of `first(where:)`: the first element that satisfies the predicate, if any.
    public func first(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence {
    /// The eager form of `allSatisfy(_:)`.
    public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.allSatisfy(predicate)))
    }

    /// The eager form of `tryAllSatisfy(_:)`: a thrown error becomes the failure.
    public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// The eager form of `collect()`: all the elements in one array.
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        Result<[Elements.Element], Failure>.Publisher(.success(Array(sequence)))
    }

    /// The eager form of `compactMap(_:)`.
    public func compactMap<ElementOfResult>(
        _ transform: (Elements.Element) -> ElementOfResult?
    ) -> Publishers.Sequence<[ElementOfResult], Failure> {
        Publishers.Sequence<[ElementOfResult], Failure>(sequence: sequence.compactMap(transform))
    }

    /// The eager form of `contains(where:)`.
    public func contains(where predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(where: predicate)))
    }

    /// The eager form of `tryContains(where:)`: a thrown error becomes the failure.
    public func tryContains(where predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// The eager form of `drop(while:)`.
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// The eager form of `dropFirst(_:)`. Traps on a negative count.
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        require(count >= 0, "dropFirst: count must not be negative (got \(count))")
        return Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// The eager form of `filter(_:)`.
    public func filter(_ isIncluded: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// The eager form of `ignoreOutput()`: an empty publisher that finishes at once.
    public func ignoreOutput() -> Empty<Elements.Element, Failure> { Empty() }

    /// The eager form of `map(_:)`.
    public func map<ElementOfResult>(
        _ transform: (Elements.Element) -> ElementOfResult
    ) -> Publishers.Sequence<[ElementOfResult], Failure> {
        Publishers.Sequence<[ElementOfResult], Failure>(sequence: sequence.map(transform))
    }

    /// The eager form of `prefix(_:)`. Traps on a negative length.
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        require(maxLength >= 0, "prefix: maxLength must not be negative (got \(maxLength))")
        return Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// The eager form of `prefix(while:)`.
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
    }

    /// The eager form of `reduce(_:_:)`.
    public func reduce<Accumulator>(
        _ initialResult: Accumulator, _ nextPartialResult: (Accumulator, Elements.Element) -> Accumulator
    ) -> Result<Accumulator, Failure>.Publisher {
        Result<Accumulator, Failure>.Publisher(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// The eager form of `tryReduce(_:_:)`: a thrown error becomes the failure.
    public func tryReduce<Accumulator>(
        _ initialResult: Accumulator, _ nextPartialResult: (Accumulator, Elements.Element) throws -> Accumulator
    ) -> Result<Accumulator, any Error>.Publisher {
        Result<Accumulator, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// The eager form of `replaceNil(with:)`.
    public func replaceNil<ElementOfResult>(
        with output: ElementOfResult
    ) -> Publishers.Sequence<[Elements.Element], Failure> where Elements.Element == ElementOfResult? {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// The eager form of `scan(_:_:)`: every partial result, in order.
    public func scan<ElementOfResult>(
        _ initialResult: ElementOfResult, _ nextPartialResult: (ElementOfResult, Elements.Element) -> ElementOfResult
    ) -> Publishers.Sequence<[ElementOfResult], Failure> {
        var accumulator = initialResult
        var partials: [ElementOfResult] = []
        for element in sequence {
            accumulator = nextPartialResult(accumulator, element)
            partials.append(accumulator)
        }
        return Publishers.Sequence<[ElementOfResult], Failure>(sequence: partials)
    }

    /// The eager form of `setFailureType(to:)`: the same sequence with another failure type.
    public func setFailureType<NewFailure: Error>(to error: NewFailure.Type) -> Publishers.Sequence<Elements, NewFailure> {
        Publishers.Sequence<Elements, NewFailure>(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// The eager form of `removeDuplicates()`: consecutive repeats removed.
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        var previous: Elements.Element?
        var kept: [Elements.Element] = []
        for element in sequence where element != previous {
            kept.append(element)
            previous = element
        }
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: kept)
    }

    /// The eager form of `contains(_:)`.
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(output)))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The eager form of `min()`: the smallest element, or nothing when the sequence is empty.
    public func min() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.min()) }

    /// The eager form of `max()`: the largest element, or nothing when the sequence is empty.
    public func max() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.max()) }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// The eager form of `first()`: the first element, or nothing when the collection is empty.
    public func first() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.first) }

    /// The eager form of `output(at:)`: the element at `index`, or nothing when the index is out of
    /// the collection's bounds.
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// The eager form of `count()`.
    public func count() -> Result<Int, Failure>.Publisher { Result<Int, Failure>.Publisher(.success(sequence.count)) }

    /// The eager form of `output(in:)`: the elements in `range`. Traps when the range is outside
    /// the collection's bounds.
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        require(
            range.lowerBound >= sequence.startIndex && range.upperBound <= sequence.endIndex,
            "output(in:): the range \(range) is outside the sequence's bounds")
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// The eager form of `last()`: the last element, or nothing when the collection is empty.
    public func last() -> Optional<Elements.Element>.Publisher { Optional<Elements.Element>.Publisher(sequence.last) }

    /// The eager form of `last(where:)`: the last element that satisfies the predicate, if any.
    public func last(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The eager form of `output(at:)`: the element at `index`, or nothing when the index is out of
    /// the collection's bounds.
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }

    /// The eager form of `count()`: a collection that cannot fail counts to a `Just`.
    public func count() -> Just<Int> { Just(sequence.count) }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// The eager form of `output(in:)`: the elements in `range`. Traps when the range is outside
    /// the collection's bounds.
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        require(
            range.lowerBound >= sequence.startIndex && range.upperBound <= sequence.endIndex,
            "output(in:): the range \(range) is outside the sequence's bounds")
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
    }

    /// The eager form of `count()`.
    public func count() -> Result<Int, Failure>.Publisher { Result<Int, Failure>.Publisher(.success(sequence.count)) }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// The eager form of `prepend(_:)`: a sequence of the same type with `elements` in front.
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// The eager form of `prepend(_:)`: a sequence of the same type with `elements` in front.
    public func prepend<OtherSequence: Swift.Sequence>(
        _ elements: OtherSequence
    ) -> Publishers.Sequence<Elements, Failure> where OtherSequence.Element == Elements.Element {
        var joined = Elements()
        joined.append(contentsOf: elements)
        joined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// The eager form of `prepend(_:)`: `publisher`'s elements in front of this sequence's.
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        prepend(publisher.sequence)
    }

    /// The eager form of `append(_:)`: a sequence of the same type with `elements` after it.
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// The eager form of `append(_:)`: a sequence of the same type with `elements` after it.
    public func append<OtherSequence: Swift.Sequence>(
        _ elements: OtherSequence
    ) -> Publishers.Sequence<Elements, Failure> where OtherSequence.Element == Elements.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// The eager form of `append(_:)`: `publisher`'s elements after this sequence's.
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
