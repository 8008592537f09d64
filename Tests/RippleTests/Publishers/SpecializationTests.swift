import Ripple
import Testing

/// Combine's specialised operators on Just, Optional.Publisher, Result.Publisher and
/// Publishers.Sequence return those simple publishers again, computed at once.
@Suite struct SpecializationTests {
    @Test func justOperatorsReturnSimplePublishers() {
        let just = Just(3)
        let mapped: Just<Int> = just.map { $0 * 2 }
        #expect(mapped.output == 6)
        let filtered: Optional<Int>.Publisher = just.filter { $0 > 5 }
        #expect(filtered.output == nil)
        let counted: Just<Int> = just.count()
        #expect(counted.output == 1)
        let collected: Just<[Int]> = just.collect()
        #expect(collected.output == [3])
        let tried: Result<Int, any Error>.Publisher = just.tryMap { _ in throw TestError(id: 1) }
        #expect(Recorder(for: tried).events == [.subscription, .failure("TestError(1)")])
        let failing: Result<Int, TestError>.Publisher = just.setFailureType(to: TestError.self)
        #expect(Recorder(for: failing).values == [3])
        let reduced: Result<Int, Never>.Publisher = just.reduce(10, +)
        #expect(Recorder(for: reduced).values == [13])
        #expect(just.contains(3).output == true)
        #expect(just.dropFirst().output == nil)
        #expect(just.prefix(1).output == 3)
        #expect(Recorder(for: just.ignoreOutput()).events == [.subscription, .finished])
    }

    @Test func justEvaluatesEagerlyLikeCombine() {
        let calls = Locked(0)
        _ = Just(1).map { value -> Int in
            calls.withLock { $0 += 1 }
            return value
        }
        #expect(calls.current == 1)
    }

    @Test func optionalResultAndSequence() {
        let optional: Optional<String>.Publisher = Optional(2).publisher.map { "\($0)" }
        #expect(optional.output == "2")
        #expect(Optional<Int>.none.publisher.count().output == nil)  // as in Combine: no value, no count
        let result: Result<Int, TestError>.Publisher = Result<Int, TestError>.Publisher(.success(1)).map { $0 + 1 }
        #expect(Recorder(for: result).values == [2])
        let mappedError = Result<Int, TestError>.Publisher(.failure(TestError(id: 4))).mapError { _ in TestError(id: 5) }
        #expect(Recorder(for: mappedError).events == [.subscription, .failure("TestError(5)")])
        let sequence: Publishers.Sequence<[Int], Never> = [1, 2, 3, 3].publisher.map { $0 * 10 }.removeDuplicates()
        #expect(sequence.sequence == [10, 20, 30])
        #expect([4, 1, 3].publisher.min().output == 1)
        #expect([4, 1, 3].publisher.last().output == 3)
        #expect(Recorder(for: [1, 2].publisher.count()).values == [2])
        #expect([1, 2].publisher.append(3).sequence == [1, 2, 3])
        #expect([2].publisher.prepend(1).sequence == [1, 2])
        #expect([1, 2, 3].publisher.scan(0, +).sequence == [1, 3, 6])
    }
}
