// Combine's specialised operators on Optional.Publisher: at most one value and no failure, so each
// operator's answer is known at once and is another Optional.Publisher (or Just, or Empty),
// computed eagerly when the operator is applied. As in Combine, an operator that needs a value to
// produce one (count, reduce, scan…) produces nothing from an empty optional.

extension Optional.Publisher where Wrapped: Equatable {
    /// The eager form of `contains(_:)`: `nil` stays empty, a value becomes whether it equals `output`.
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// The eager form of `removeDuplicates()`: one value has no duplicates, so this publisher itself.
    public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// The eager form of `min()`: the one value (if any) is the minimum.
    public func min() -> Optional<Wrapped>.Publisher { self }

    /// The eager form of `max()`: the one value (if any) is the maximum.
    public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
    /// The eager form of `allSatisfy(_:)`: the predicate applied to the value, if any.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The eager form of `collect()`: the value in an array, or an empty array.
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// The eager form of `compactMap(_:)`: the value transformed, dropped if the transform gives `nil`.
    public func compactMap<ElementOfResult>(_ transform: (Output) -> ElementOfResult?) -> Optional<ElementOfResult>.Publisher {
        Optional<ElementOfResult>.Publisher(output.flatMap(transform))
    }

    /// The eager form of `min(by:)`: the one value (if any) is the minimum.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// The eager form of `max(by:)`: the one value (if any) is the maximum.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// The eager form of `contains(where:)`: the predicate applied to the value, if any.
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The eager form of `count()`: 1 for a value; nothing (as in Combine) for `nil`.
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// The eager form of `dropFirst(_:)`: the value only when `count` is 0. Traps on a negative count.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        require(count >= 0, "dropFirst: count must not be negative (got \(count))")
        return Optional<Output>.Publisher(output.flatMap { count == 0 ? $0 : nil })
    }

    /// The eager form of `drop(while:)`: the value unless the predicate holds for it.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// The eager form of `first()`: this publisher itself.
    public func first() -> Optional<Output>.Publisher { self }

    /// The eager form of `first(where:)`: the value if the predicate holds for it.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// The eager form of `last()`: this publisher itself.
    public func last() -> Optional<Output>.Publisher { self }

    /// The eager form of `last(where:)`: the value if the predicate holds for it.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// The eager form of `filter(_:)`: the value if it is included.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// The eager form of `ignoreOutput()`: an empty publisher that finishes at once.
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// The eager form of `map(_:)`: the value transformed.
    public func map<ElementOfResult>(_ transform: (Output) -> ElementOfResult) -> Optional<ElementOfResult>.Publisher {
        Optional<ElementOfResult>.Publisher(output.map(transform))
    }

    /// The eager form of `output(at:)`: the value only at index 0. Traps on a negative index.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        require(index >= 0, "output(at:): index must not be negative (got \(index))")
        return Optional<Output>.Publisher(output.flatMap { index == 0 ? $0 : nil })
    }

    /// The eager form of `output(in:)`: the value when the range starts at 0 and is not empty.
    /// Traps on a negative lower bound, and, as Combine's does, on an upper bound above
    /// `Int.max - 2` (so `output(in: 0...)` traps here).
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let range = range.relative(to: 0..<Int.max)
        require(range.lowerBound >= 0, "output(in:): the lower bound must not be negative (got \(range.lowerBound))")
        require(
            range.upperBound <= Int.max - 2,
            "output(in:): the upper bound must not be above Int.max - 2 (got \(range.upperBound))")
        return Optional<Output>.Publisher(output.flatMap { range.lowerBound == 0 && range.upperBound != 0 ? $0 : nil })
    }

    /// The eager form of `prefix(_:)`: the value unless `maxLength` is 0. Traps on a negative length.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        require(maxLength >= 0, "prefix: maxLength must not be negative (got \(maxLength))")
        return Optional<Output>.Publisher(output.flatMap { maxLength > 0 ? $0 : nil })
    }

    /// The eager form of `prefix(while:)`: the value if the predicate holds for it.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// The eager form of `reduce(_:_:)`: the value folded into `initialResult`; nothing for `nil`.
    public func reduce<Accumulator>(
        _ initialResult: Accumulator, _ nextPartialResult: (Accumulator, Output) -> Accumulator
    ) -> Optional<Accumulator>.Publisher {
        Optional<Accumulator>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// The eager form of `scan(_:_:)`: the value folded into `initialResult`; nothing for `nil`.
    public func scan<ElementOfResult>(
        _ initialResult: ElementOfResult, _ nextPartialResult: (ElementOfResult, Output) -> ElementOfResult
    ) -> Optional<ElementOfResult>.Publisher {
        Optional<ElementOfResult>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// The eager form of `removeDuplicates(by:)`: one value has no duplicates.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// The eager form of `replaceError(with:)`: this publisher never fails, so itself.
    public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

    /// The eager form of `replaceEmpty(with:)`: the value, or `output` for `nil`.
    public func replaceEmpty(with output: Output) -> Just<Output> { Just<Output>(self.output ?? output) }

    /// The eager form of `retry(_:)`: this publisher never fails, so itself.
    public func retry(_ times: Int) -> Optional<Output>.Publisher { self }
}
