import Ripple
import Testing

/// Every operator Combine specialises on Optional.Publisher, Result.Publisher, Publishers.Sequence
/// and Just returns the type Combine's does (each `let` below is the check: it compiles only with
/// that type), computed eagerly.
@Suite struct SpecializationShapeTests {
    struct Oops: Error, Equatable {}

    @Test func optionalPublisherOperators() {
        let some = Optional(3).publisher
        let none = Optional<Int>.none.publisher
        let map: Optional<Int>.Publisher = some.map { $0 * 2 }
        let compactMap: Optional<String>.Publisher = some.compactMap { $0 > 5 ? "big" : nil }
        let filter: Optional<Int>.Publisher = some.filter { $0 > 1 }
        let allSatisfy: Optional<Bool>.Publisher = some.allSatisfy { $0 > 1 }
        let collect: Optional<[Int]>.Publisher = none.collect()
        let count: Optional<Int>.Publisher = some.count()
        let contains: Optional<Bool>.Publisher = some.contains(3)
        let containsWhere: Optional<Bool>.Publisher = some.contains { $0 == 4 }
        let minBy: Optional<Int>.Publisher = some.min(by: <)
        let maxBy: Optional<Int>.Publisher = some.max(by: <)
        let min: Optional<Int>.Publisher = some.min()
        let max: Optional<Int>.Publisher = some.max()
        let dropFirst: Optional<Int>.Publisher = some.dropFirst(0)
        let dropWhile: Optional<Int>.Publisher = some.drop { $0 < 5 }
        let first: Optional<Int>.Publisher = some.first()
        let firstWhere: Optional<Int>.Publisher = some.first { $0 > 5 }
        let last: Optional<Int>.Publisher = some.last()
        let lastWhere: Optional<Int>.Publisher = some.last { $0 == 3 }
        let ignore: Empty<Int, Never> = some.ignoreOutput()
        let outputAt: Optional<Int>.Publisher = some.output(at: 0)
        let outputIn: Optional<Int>.Publisher = some.output(in: 0..<1)
        let prefix: Optional<Int>.Publisher = some.prefix(0)
        let prefixWhile: Optional<Int>.Publisher = some.prefix { $0 < 5 }
        let reduce: Optional<Int>.Publisher = some.reduce(10, +)
        let scan: Optional<Int>.Publisher = none.scan(10, +)
        let removeDuplicates: Optional<Int>.Publisher = some.removeDuplicates()
        let removeDuplicatesBy: Optional<Int>.Publisher = some.removeDuplicates(by: ==)
        let replaceError: Optional<Int>.Publisher = some.replaceError(with: 0)
        let replaceEmpty: Just<Int> = none.replaceEmpty(with: 9)
        let retry: Optional<Int>.Publisher = some.retry(2)
        #expect(map.output == 6)
        #expect(compactMap.output == nil)
        #expect(filter.output == 3)
        #expect(allSatisfy.output == true)
        #expect(collect.output == [])
        #expect(count.output == 1)
        #expect(contains.output == true)
        #expect(containsWhere.output == false)
        #expect([minBy, maxBy, min, max, dropFirst, first, last, lastWhere, outputAt, outputIn].map(\.output) == Array(repeating: 3, count: 10))
        #expect([dropWhile, firstWhere, prefix].map(\.output) == [nil, nil, nil])
        #expect(prefixWhile.output == 3)
        #expect(Recorder(for: ignore).events == [.subscription, .finished])
        #expect(reduce.output == 13)
        #expect(scan.output == nil)
        #expect([removeDuplicates, removeDuplicatesBy, replaceError, retry].map(\.output) == [3, 3, 3, 3])
        #expect(replaceEmpty.output == 9)
        // Combine's quirks, kept: an empty optional counts and reduces to nothing.
        #expect(none.count().output == nil)
        #expect(none.reduce(0, +).output == nil)
        #expect(some.output(in: 0..<0).output == nil)
        #expect(some.output(in: 1..<10).output == nil)
        // (An unbounded range such as `1...` traps, as in Combine: OperatorMisuseTests.)
    }

    @Test func resultPublisherOperators() {
        let success = Result<Int, Oops>.Publisher(4)
        let failure = Result<Int, Oops>.Publisher(Oops())
        let result: Result<Int, Oops> = success.result
        let map: Result<String, Oops>.Publisher = success.map { "\($0)" }
        let tryMap: Result<Int, any Error>.Publisher = success.tryMap { _ in throw TestError(id: 1) }
        let mapError: Result<Int, TestError>.Publisher = failure.mapError { _ in TestError(id: 2) }
        let minBy: Result<Int, Oops>.Publisher = success.min(by: <)
        let maxBy: Result<Int, Oops>.Publisher = success.max(by: <)
        let tryMin: Result<Int, any Error>.Publisher = success.tryMin { _, _ in throw TestError(id: 3) }
        let tryMax: Result<Int, any Error>.Publisher = success.tryMax { $0 < $1 }
        let min: Result<Int, Oops>.Publisher = success.min()
        let max: Result<Int, Oops>.Publisher = success.max()
        let contains: Result<Bool, Oops>.Publisher = success.contains(4)
        let containsWhere: Result<Bool, Oops>.Publisher = success.contains { $0 > 9 }
        let tryContains: Result<Bool, any Error>.Publisher = success.tryContains { $0 > 1 }
        let allSatisfy: Result<Bool, Oops>.Publisher = failure.allSatisfy { $0 > 1 }
        let tryAllSatisfy: Result<Bool, any Error>.Publisher = success.tryAllSatisfy { $0 > 1 }
        let collect: Result<[Int], Oops>.Publisher = success.collect()
        let count: Result<Int, Oops>.Publisher = success.count()
        let first: Result<Int, Oops>.Publisher = success.first()
        let last: Result<Int, Oops>.Publisher = success.last()
        let ignore: Empty<Int, Oops> = success.ignoreOutput()
        let removeDuplicates: Result<Int, Oops>.Publisher = success.removeDuplicates()
        let removeDuplicatesBy: Result<Int, Oops>.Publisher = success.removeDuplicates(by: ==)
        let tryRemoveDuplicates: Result<Int, any Error>.Publisher = success.tryRemoveDuplicates(by: ==)
        let replaceError: Result<Int, Never>.Publisher = failure.replaceError(with: 0)
        let replaceEmpty: Result<Int, Oops>.Publisher = success.replaceEmpty(with: 0)
        let retry: Result<Int, Oops>.Publisher = failure.retry(3)
        let reduce: Result<Int, Oops>.Publisher = success.reduce(1, +)
        let tryReduce: Result<Int, any Error>.Publisher = success.tryReduce(1, +)
        let scan: Result<Int, Oops>.Publisher = success.scan(1, +)
        let tryScan: Result<Int, any Error>.Publisher = success.tryScan(1) { _, _ in throw TestError(id: 4) }
        let setFailureType: Result<Int, Oops>.Publisher = Result<Int, Never>.Publisher(5).setFailureType(to: Oops.self)
        #expect(result == .success(4))
        #expect(map.result == .success("4"))
        #expect(Recorder(for: tryMap).events == [.subscription, .failure("TestError(1)")])
        #expect(mapError.result == .failure(TestError(id: 2)))
        #expect([minBy, maxBy, min, max, first, last, removeDuplicates, removeDuplicatesBy, replaceEmpty].map(\.result) == Array(repeating: .success(4), count: 9))
        #expect(Recorder(for: tryMin).events == [.subscription, .failure("TestError(3)")])
        #expect(Recorder(for: tryMax).values == [4])
        #expect(contains.result == .success(true))
        #expect(containsWhere.result == .success(false))
        #expect(Recorder(for: tryContains).values == [true])
        #expect(allSatisfy.result == .failure(Oops()))
        #expect(Recorder(for: tryAllSatisfy).values == [true])
        #expect(collect.result == .success([4]))
        #expect(count.result == .success(1))
        #expect(Recorder(for: ignore).events == [.subscription, .finished])
        #expect(Recorder(for: tryRemoveDuplicates).values == [4])
        #expect(replaceError.result == .success(0))
        #expect(retry.result == .failure(Oops()))
        #expect(reduce.result == .success(5))
        #expect(Recorder(for: tryReduce).values == [5])
        #expect(scan.result == .success(5))
        #expect(Recorder(for: tryScan).events == [.subscription, .failure("TestError(4)")])
        #expect(setFailureType.result == .success(5))
    }

    @Test func sequencePublisherOperators() {
        let numbers = [3, 1, 2, 2].publisher
        let map: Publishers.Sequence<[Int], Never> = numbers.map { $0 * 10 }
        let compactMap: Publishers.Sequence<[Int], Never> = numbers.compactMap { $0 > 1 ? $0 : nil }
        let filter: Publishers.Sequence<[Int], Never> = numbers.filter { $0 > 1 }
        let dropWhile: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = numbers.drop { $0 > 2 }
        let dropFirst: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = numbers.dropFirst(2)
        let prefix: Publishers.Sequence<PrefixSequence<[Int]>, Never> = numbers.prefix(2)
        let prefixWhile: Publishers.Sequence<[Int], Never> = numbers.prefix { $0 > 2 }
        let scan: Publishers.Sequence<[Int], Never> = numbers.scan(0, +)
        let removeDuplicates: Publishers.Sequence<[Int], Never> = numbers.removeDuplicates()
        let replaceNil: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 0)
        let allSatisfy: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 > 0 }
        let tryAllSatisfy: Result<Bool, any Error>.Publisher = numbers.tryAllSatisfy { _ in throw TestError(id: 1) }
        let contains: Result<Bool, Never>.Publisher = numbers.contains(2)
        let containsWhere: Result<Bool, Never>.Publisher = numbers.contains { $0 > 5 }
        let tryContains: Result<Bool, any Error>.Publisher = numbers.tryContains { $0 == 1 }
        let collect: Result<[Int], Never>.Publisher = numbers.collect()
        let reduce: Result<Int, Never>.Publisher = numbers.reduce(0, +)
        let tryReduce: Result<Int, any Error>.Publisher = numbers.tryReduce(0, +)
        let ignore: Empty<Int, Never> = numbers.ignoreOutput()
        let setFailureType: Publishers.Sequence<[Int], Oops> = numbers.setFailureType(to: Oops.self)
        let min: Optional<Int>.Publisher = numbers.min()
        let max: Optional<Int>.Publisher = numbers.max()
        let minBy: Optional<Int>.Publisher = numbers.min(by: >)
        let maxBy: Optional<Int>.Publisher = numbers.max(by: >)
        let first: Optional<Int>.Publisher = numbers.first()
        let firstWhere: Optional<Int>.Publisher = numbers.first { $0 < 3 }
        let last: Optional<Int>.Publisher = numbers.last()
        let lastWhere: Optional<Int>.Publisher = numbers.last { $0 > 2 }
        let outputAt: Optional<Int>.Publisher = numbers.output(at: 1)
        let outputIn: Publishers.Sequence<[Int], Never> = numbers.output(in: 1..<3)
        let countJust: Just<Int> = numbers.count()
        let countFailing: Result<Int, Oops>.Publisher = setFailureType.count()
        let append: Publishers.Sequence<[Int], Never> = numbers.append(9, 8)
        let appendSequence: Publishers.Sequence<[Int], Never> = numbers.append(7...8)
        let appendPublisher: Publishers.Sequence<[Int], Never> = numbers.append([5].publisher)
        let prepend: Publishers.Sequence<[Int], Never> = numbers.prepend(0)
        let prependSequence: Publishers.Sequence<[Int], Never> = numbers.prepend(stride(from: -2, to: 0, by: 1))
        let prependPublisher: Publishers.Sequence<[Int], Never> = numbers.prepend([4].publisher)
        #expect(map.sequence == [30, 10, 20, 20])
        #expect(compactMap.sequence == [3, 2, 2])
        #expect(filter.sequence == [3, 2, 2])
        #expect(Array(dropWhile.sequence) == [1, 2, 2])
        #expect(Array(dropFirst.sequence) == [2, 2])
        #expect(Array(prefix.sequence) == [3, 1])
        #expect(prefixWhile.sequence == [3])
        #expect(scan.sequence == [3, 4, 6, 8])
        #expect(removeDuplicates.sequence == [3, 1, 2])
        #expect(replaceNil.sequence == [1, 0])
        #expect(allSatisfy.result == .success(true))
        #expect(Recorder(for: tryAllSatisfy).events == [.subscription, .failure("TestError(1)")])
        #expect(contains.result == .success(true))
        #expect(containsWhere.result == .success(false))
        #expect(Recorder(for: tryContains).values == [true])
        #expect(collect.result == .success([3, 1, 2, 2]))
        #expect(reduce.result == .success(8))
        #expect(Recorder(for: tryReduce).values == [8])
        #expect(Recorder(for: ignore).events == [.subscription, .finished])
        #expect(setFailureType.sequence == [3, 1, 2, 2])
        #expect([min, max, minBy, maxBy, first, firstWhere, last, lastWhere, outputAt].map(\.output) == [1, 3, 3, 1, 3, 1, 2, 3, 1])
        #expect(outputIn.sequence == [1, 2])
        #expect(countJust.output == 4)
        #expect(countFailing.result == .success(4))
        #expect(append.sequence == [3, 1, 2, 2, 9, 8])
        #expect(appendSequence.sequence == [3, 1, 2, 2, 7, 8])
        #expect(appendPublisher.sequence == [3, 1, 2, 2, 5])
        #expect(prepend.sequence == [0, 3, 1, 2, 2])
        #expect(prependSequence.sequence == [-2, -1, 3, 1, 2, 2])
        #expect(prependPublisher.sequence == [4, 3, 1, 2, 2])
        // Out-of-bounds index: no element, as in Combine (the specialization does not trap).
        #expect(numbers.output(at: 10).output == nil)
    }

    /// Which specialization applies depends on what the sequence is, as in Combine: a range is a
    /// random-access collection but not range-replaceable, so `append` concatenates lazily.
    @Test func constraintsPickTheSameOverloadAsCombine() {
        let range = (1...3).publisher
        let count: Just<Int> = range.count()
        let append: Publishers.Concatenate<Publishers.Sequence<ClosedRange<Int>, Never>, Publishers.Sequence<[Int], Never>> =
            range.append(4)
        #expect(count.output == 3)
        #expect(Recorder(for: append).values == [1, 2, 3, 4])
        let strided = stride(from: 0, to: 6, by: 2).publisher
        let first: Publishers.First<Publishers.Sequence<StrideTo<Int>, Never>> = strided.first()
        let countStrided: Publishers.Count<Publishers.Sequence<StrideTo<Int>, Never>> = strided.count()
        #expect(Recorder(for: first).values == [0])
        #expect(Recorder(for: countStrided).values == [3])
    }

    @Test func justOperators() {
        let just = Just(5)
        let prepend: Publishers.Sequence<[Int], Never> = just.prepend(1, 2)
        let prependSequence: Publishers.Sequence<[Int], Never> = just.prepend(3...4)
        let append: Publishers.Sequence<[Int], Never> = just.append(6)
        let appendSequence: Publishers.Sequence<[Int], Never> = just.append([7, 8])
        let outputIn: Optional<Int>.Publisher = just.output(in: 0..<0)
        let retry: Just<Int> = just.retry(3)
        let replaceError: Just<Int> = just.replaceError(with: 0)
        let tryScan: Result<Int, any Error>.Publisher = just.tryScan(1, +)
        let mapError: Result<Int, Oops>.Publisher = just.mapError { never -> Oops in }
        #expect(prepend.sequence == [1, 2, 5])
        #expect(prependSequence.sequence == [3, 4, 5])
        #expect(append.sequence == [5, 6])
        #expect(appendSequence.sequence == [5, 7, 8])
        // Combine publishes Just's value for any range that starts at 0, even an empty one.
        #expect(outputIn.output == 5)
        #expect(just.output(in: 1..<3).output == nil)
        #expect(retry.output == 5)
        #expect(replaceError.output == 5)
        #expect(Recorder(for: tryScan).values == [6])
        #expect(mapError.result == .success(5))
    }
}
