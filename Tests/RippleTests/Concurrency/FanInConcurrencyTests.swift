import Foundation
import Ripple
import Testing

/// merge, combineLatest and zip with upstreams sending from several threads at once: nothing lost,
/// nothing duplicated, the downstream never called concurrently, completion exactly once.
extension Heavy {
    @Suite struct FanInConcurrencyTests {
        /// Counts values and checks that no two calls overlap.
        final class SerialChecker<Input>: Subscriber, @unchecked Sendable {
            typealias Failure = Never
            private let inside = Locked(false)
            let overlaps = Locked(0)
            let values = Locked<[Input]>([])
            let completions = Locked(0)

            func receive(subscription: any Subscription) { subscription.request(.unlimited) }

            func receive(_ input: Input) -> Subscribers.Demand {
                let overlapped = inside.withLock { busy -> Bool in
                    defer { busy = true }
                    return busy
                }
                if overlapped { overlaps.withLock { $0 += 1 } }
                values.withLock { $0.append(input) }
                inside.withLock { $0 = false }
                return .none
            }

            func receive(completion: Subscribers.Completion<Never>) {
                completions.withLock { $0 += 1 }
            }
        }

        static let perThread = 5_000

        @Test func mergeFromFourThreads() {
            let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
            let checker = SerialChecker<Int>()
            Publishers.MergeMany(subjects).subscribe(checker)
            runConcurrently(threads: 4) { thread in
                for value in 0..<Self.perThread { subjects[thread].send(thread * Self.perThread + value) }
                subjects[thread].send(completion: .finished)
            }
            let values = checker.values.current
            #expect(values.count == 4 * Self.perThread)
            #expect(Set(values).count == values.count)
            #expect(checker.overlaps.current == 0)
            #expect(checker.completions.current == 1)
            // Each upstream's own order is kept.
            for thread in 0..<4 {
                let own = values.filter { $0 / Self.perThread == thread }
                #expect(own == own.sorted())
            }
        }

        @Test func combineLatestFromTwoThreads() {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            a.send(-1)
            let checker = SerialChecker<(Int, Int)>()
            a.combineLatest(b).subscribe(checker)
            a.send(0)
            b.send(0)
            runConcurrently(threads: 2) { thread in
                let subject = thread == 0 ? a : b
                for value in 1...Self.perThread { subject.send(value) }
                subject.send(completion: .finished)
            }
            let tuples = checker.values.current
            // One tuple for b's first value, then one per value sent by either thread.
            #expect(tuples.count == 1 + 2 * Self.perThread)
            #expect(tuples.last.map { $0 == (Self.perThread, Self.perThread) } == true)
            // Each side's values appear in order and none is skipped.
            #expect(Array(Set(tuples.map(\.0))).sorted() == Array(0...Self.perThread))
            #expect(Array(Set(tuples.map(\.1))).sorted() == Array(0...Self.perThread))
            #expect(checker.overlaps.current == 0)
            #expect(checker.completions.current == 1)
        }

        @Test func zipFromTwoThreads() {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let checker = SerialChecker<(Int, Int)>()
            a.zip(b).subscribe(checker)
            runConcurrently(threads: 2) { thread in
                let subject = thread == 0 ? a : b
                for value in 0..<Self.perThread { subject.send(value) }
                subject.send(completion: .finished)
            }
            let pairs = checker.values.current
            #expect(pairs.count == Self.perThread)
            #expect(pairs.allSatisfy { $0.0 == $0.1 })
            #expect(pairs.map(\.0) == Array(0..<Self.perThread))
            #expect(checker.overlaps.current == 0)
            #expect(checker.completions.current == 1)
        }
    }
}

extension Heavy {
    @Suite struct FlatMapAndShareConcurrencyTests {
        @Test func flatMapInnersSendingFromFourThreads() {
            let inners = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
            let outer = PassthroughSubject<Int, Never>()
            let checker = FanInConcurrencyTests.SerialChecker<Int>()
            outer.flatMap { inners[$0] }.subscribe(checker)
            for index in 0..<4 { outer.send(index) }
            outer.send(completion: .finished)
            let perThread = FanInConcurrencyTests.perThread
            runConcurrently(threads: 4) { thread in
                for value in 0..<perThread { inners[thread].send(thread * perThread + value) }
                inners[thread].send(completion: .finished)
            }
            let values = checker.values.current
            #expect(values.count == 4 * perThread)
            #expect(Set(values).count == values.count)
            #expect(checker.overlaps.current == 0)
            #expect(checker.completions.current == 1)
        }

        @Test func shareWithSubscribersJoiningAndLeavingWhileTheUpstreamSends() {
            let upstream = PassthroughSubject<Int, Never>()
            let shared = upstream.share()
            let steady = FanInConcurrencyTests.SerialChecker<Int>()
            shared.subscribe(steady)
            let perThread = FanInConcurrencyTests.perThread
            runConcurrently(threads: 3) { thread in
                if thread == 0 {
                    for value in 0..<perThread { upstream.send(value) }
                    upstream.send(completion: .finished)
                } else {
                    for _ in 0..<500 {
                        let cancellable = shared.sink { _ in }
                        cancellable.cancel()
                    }
                }
            }
            #expect(steady.values.current == Array(0..<perThread))
            #expect(steady.completions.current == 1)
            #expect(steady.overlaps.current == 0)
        }
    }
}
