import Foundation
import Ripple
import Testing

/// Concurrency stress: several threads sending to, subscribing to, cancelling and completing the
/// same subjects and `@Published` properties at once. Every scenario counts, for every subscriber,
/// what it received and reports lost, duplicated and out-of-order deliveries, overlapping calls,
/// deliveries after `cancel()` returned, and completions beyond one. All must be zero. The table in
/// Documentation/Reliability.md lists these scenarios with the counts of a run.
extension Heavy {
    @Suite struct StressTests {
        /// One subscriber's bookkeeping. Values are `producer * 1_000_000 + sequence`.
        final class Ledger: Subscriber, @unchecked Sendable {
            typealias Input = Int
            typealias Failure = Never

            private let lock = NSLock()
            private var values: [Int] = []
            private var inside = false
            private var subscription: (any Subscription)?
            private(set) var overlaps = 0
            private(set) var afterCancel = 0
            private(set) var completions = 0
            /// When `cancel()` returned: the last sequence number each producer had started sending.
            /// A later delivery of a value sent after that (a higher sequence) is a violation; a value
            /// whose `send` began before `cancel()` returned may still be in flight on its thread.
            private var startedWhenCancelled: [Int]?
            private let producers: Producers?

            init(producers: Producers? = nil) {
                self.producers = producers
            }

            func receive(subscription: any Subscription) {
                lock.withLock { self.subscription = subscription }
                subscription.request(.unlimited)
            }

            func receive(_ input: Int) -> Subscribers.Demand {
                lock.withLock {
                    if inside { overlaps += 1 }
                    inside = true
                    if let started = startedWhenCancelled {
                        let producer = input / 1_000_000
                        if producer >= 0, producer < started.count, input % 1_000_000 > started[producer] {
                            afterCancel += 1
                        }
                    }
                    values.append(input)
                }
                lock.withLock { inside = false }
                return .none
            }

            func receive(completion: Subscribers.Completion<Never>) {
                lock.withLock { completions += 1 }
            }

            func cancel() {
                let subscription = lock.withLock { self.subscription }
                subscription?.cancel()
                let started = producers?.started ?? []
                lock.withLock { startedWhenCancelled = started }
            }

            var received: [Int] { lock.withLock { values } }
        }

        /// What each producer thread has started sending: set before each `send`, so a snapshot
        /// taken after `cancel()` returns bounds what may still be in flight.
        final class Producers: @unchecked Sendable {
            private let lock = NSLock()
            private var sequences: [Int]

            init(count: Int) { sequences = Array(repeating: -1, count: count) }

            func starting(_ producer: Int, _ sequence: Int) { lock.withLock { sequences[producer] = sequence } }
            var started: [Int] { lock.withLock { sequences } }
        }

        /// One row of the report.
        struct Result: CustomStringConvertible {
            var scenario: String
            var threads: Int
            var operations: Int
            var lost = 0
            var duplicated = 0
            var outOfOrder = 0
            var overlaps = 0
            var afterCancel = 0
            var extraCompletions = 0

            var clean: Bool { lost + duplicated + outOfOrder + overlaps + afterCancel + extraCompletions == 0 }

            var description: String {
                "| \(scenario) | \(threads) | \(operations) | \(lost) | \(duplicated) | \(outOfOrder) | \(overlaps) | \(afterCancel) | \(extraCompletions) |"
            }

            /// Adds a subscriber alive throughout: it must have seen exactly `expected` (per producer,
            /// in order), and at most one completion.
            mutating func audit(_ ledger: Ledger, expected: [Int: Int]) {
                audit(ledger, expectedPerProducer: expected, complete: true)
            }

            /// Adds a subscriber that came and went: it may have missed values, but must not see one
            /// twice, out of order, or after cancel returned.
            mutating func auditPartial(_ ledger: Ledger) {
                audit(ledger, expectedPerProducer: nil, complete: false)
            }

            private mutating func audit(_ ledger: Ledger, expectedPerProducer: [Int: Int]?, complete: Bool) {
                let values = ledger.received
                var seen = Set<Int>()
                var last: [Int: Int] = [:]
                var counts: [Int: Int] = [:]
                for value in values {
                    if !seen.insert(value).inserted { duplicated += 1 }
                    let producer = value / 1_000_000
                    let sequence = value % 1_000_000
                    if let previous = last[producer], sequence <= previous { outOfOrder += 1 }
                    last[producer] = sequence
                    counts[producer, default: 0] += 1
                }
                if let expectedPerProducer {
                    for (producer, count) in expectedPerProducer {
                        lost += max(0, count - (counts[producer] ?? 0))
                    }
                }
                overlaps += ledger.overlaps
                afterCancel += ledger.afterCancel
                extraCompletions += max(0, ledger.completions - 1)
            }
        }

        static let perProducer = 10_000

        /// Prints a scenario's results table row when `RIPPLE_PRINT_STRESS=1` is set (for the numbers
        /// in Documentation/Reliability.md); a passing run stays quiet, a failing one shows the row in
        /// its expectation.
        static func report(_ result: Result) {
            guard ProcessInfo.processInfo.environment["RIPPLE_PRINT_STRESS"] != nil else { return }
            print(result)
        }

        static func expected(producers: Int) -> [Int: Int] {
            Dictionary(uniqueKeysWithValues: (0..<producers).map { ($0, perProducer) })
        }

        /// The shape most scenarios share: on 4 threads, `senders` of them send `perProducer`
        /// values each through `send` (recording what they start sending), and the others subscribe
        /// a ledger through `subscribe` and cancel it at once, 500 times each. Returns those ledgers.
        static func sendWhileChurning(
            senders: Int, send: @escaping @Sendable (Int) -> Void, subscribe: @escaping @Sendable (Ledger) -> Void
        ) -> [Ledger] {
            let churned = Locked<[Ledger]>([])
            let producers = Producers(count: senders)
            runConcurrently(threads: 4) { thread in
                if thread < senders {
                    for sequence in 0..<perProducer {
                        producers.starting(thread, sequence)
                        send(thread * 1_000_000 + sequence)
                    }
                } else {
                    for _ in 0..<500 {
                        let ledger = Ledger(producers: producers)
                        subscribe(ledger)
                        ledger.cancel()
                        churned.withLock { $0.append(ledger) }
                    }
                }
            }
            return churned.current
        }

        @Test func passthroughSendersWithSubscribersComingAndGoing() {
            let subject = PassthroughSubject<Int, Never>()
            let steady = (0..<3).map { _ in Ledger() }
            steady.forEach { subject.subscribe($0) }
            let churned = Self.sendWhileChurning(senders: 2, send: { subject.send($0) }, subscribe: { subject.subscribe($0) })
            var result = Result(scenario: "PassthroughSubject: 2 senders, 2 threads subscribing and cancelling", threads: 4,
                                operations: 2 * Self.perProducer + 2 * 500)
            steady.forEach { result.audit($0, expected: Self.expected(producers: 2)) }
            churned.forEach { result.auditPartial($0) }
            Self.report(result)
            #expect(result.clean, "\(result)")
        }

        @Test func passthroughCompletionRacingSendersAndSubscribers() {
            for round in 0..<50 {
                let subject = PassthroughSubject<Int, Never>()
                let ledgers = (0..<4).map { _ in Ledger() }
                ledgers.forEach { subject.subscribe($0) }
                let late = Locked<[Ledger]>([])
                runConcurrently(threads: 4) { thread in
                    switch thread {
                    case 0, 1:
                        for sequence in 0..<500 { subject.send(thread * 1_000_000 + sequence) }
                    case 2:
                        subject.send(completion: .finished)
                        subject.send(completion: .finished)
                    default:
                        for _ in 0..<50 {
                            let ledger = Ledger()
                            subject.subscribe(ledger)
                            late.withLock { $0.append(ledger) }
                        }
                    }
                }
                var result = Result(scenario: "completion racing sends", threads: 4, operations: 1_052)
                ledgers.forEach { result.auditPartial($0) }
                late.current.forEach { result.auditPartial($0) }
                let everyoneCompleted = (ledgers + late.current).allSatisfy { $0.completions == 1 }
                #expect(result.clean && everyoneCompleted, "round \(round): \(result)")
                if round == 0 { Self.report(result) }
            }
        }

        @Test func currentValueSubjectSendersAndSubscribers() {
            let subject = CurrentValueSubject<Int, Never>(-1)
            let steady = (0..<3).map { _ in Ledger() }
            steady.forEach { subject.subscribe($0) }
            let churned = Self.sendWhileChurning(senders: 3, send: { subject.send($0) }, subscribe: { subject.subscribe($0) })
            var result = Result(scenario: "CurrentValueSubject: 3 senders, 1 thread subscribing and cancelling", threads: 4,
                                operations: 3 * Self.perProducer + 500)
            // The initial value (-1) reads as producer 0, sequence -1: first, and in order.
            steady.forEach { result.audit($0, expected: Self.expected(producers: 3)) }
            churned.forEach { result.auditPartial($0) }
            Self.report(result)
            #expect(result.clean, "\(result)")
            #expect(steady.allSatisfy { $0.received.first == -1 })
        }

        final class Model: ObservableObject, @unchecked Sendable {
            /// Not 0: that is producer 0's first value, and a churned subscriber that arrives before
            /// it would see 0 twice (the replayed initial value, then the send) and count a duplicate.
            @Published var value = -1
        }

        @Test func publishedWritersWithDollarAndObjectWillChangeSubscribers() {
            let model = Model()
            let dollar = Ledger()
            model.$value.dropFirst().subscribe(dollar)
            let willChange = Locked(0)
            let token = model.objectWillChange.sink { willChange.withLock { $0 += 1 } }
            let churned = Self.sendWhileChurning(
                senders: 3, send: { model.value = $0 }, subscribe: { model.$value.subscribe($0) })
            var result = Result(scenario: "@Published: 3 writers, $x and objectWillChange subscribers, 1 thread churning $x",
                                threads: 4, operations: 3 * Self.perProducer + 500)
            result.audit(dollar, expected: Self.expected(producers: 3))
            churned.forEach { result.auditPartial($0) }
            result.lost += max(0, 3 * Self.perProducer - willChange.current)
            result.duplicated += max(0, willChange.current - 3 * Self.perProducer)
            Self.report(result)
            #expect(result.clean, "\(result)")
            token.cancel()
        }

        @Test func operatorChainUnderConcurrentSenders() {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let ledger = Ledger()
            a.merge(with: b).filter { _ in true }.map { $0 }.subscribe(ledger)
            runConcurrently(threads: 2) { thread in
                for sequence in 0..<Self.perProducer { (thread == 0 ? a : b).send(thread * 1_000_000 + sequence) }
                (thread == 0 ? a : b).send(completion: .finished)
            }
            var result = Result(scenario: "merge → filter → map: 2 senders, then both complete", threads: 2,
                                operations: 2 * Self.perProducer + 2)
            result.audit(ledger, expected: Self.expected(producers: 2))
            Self.report(result)
            #expect(result.clean && ledger.completions == 1, "\(result)")
        }
    }
}
