import Ripple
import Testing

/// A randomized model test: seeded sequences of operations (subscribe, request, send, cancel,
/// complete, on several subscribers) run against Ripple's subjects and against a tiny reference
/// model written here from the rules (SEMANTICS.md 5, 9–13, 15). After every operation, every
/// subscriber's record must match the model's. A failure names the seed and the step, so it can be
/// replayed with `replay(seed:)`.
extension Heavy {
    @Suite struct SubjectModelTests {
        /// SplitMix64: small, fast, and the same on every platform.
        struct Generator {
            var state: UInt64
            mutating func next() -> UInt64 {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
            mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        }

        enum Kind { case passthrough, currentValue }

        /// What one subscriber should have seen, kept by the reference model.
        struct ModelSubscriber {
            var demand = 0  // Int.max: unlimited
            var received: [Int] = []
            var completed = false
            var cancelled = false
            /// What this subscriber returns from `receive(_:)` (0 or 1).
            var returns = 0
            /// CurrentValueSubject: the current value is owed on the next positive request (at first,
            /// and after a value was sent while this subscriber had no demand).
            var owesCurrent = false
            var active: Bool { !completed && !cancelled }
        }

        /// The reference model of a subject.
        struct Model {
            var kind: Kind
            var subscribers: [ModelSubscriber] = []
            var completed = false
            var current = 0

            mutating func deliver(_ value: Int, to index: Int) {
                subscribers[index].received.append(value)
                if subscribers[index].demand != .max { subscribers[index].demand -= 1 }
                if subscribers[index].returns > 0, subscribers[index].demand != .max {
                    subscribers[index].demand += subscribers[index].returns
                }
            }

            mutating func subscribe(demand: Int, returns: Int) {
                var subscriber = ModelSubscriber(returns: returns)
                if completed {
                    subscriber.completed = true
                    subscribers.append(subscriber)
                    return
                }
                subscriber.owesCurrent = kind == .currentValue
                subscribers.append(subscriber)
                if demand > 0 { request(subscribers.count - 1, demand) }
            }

            mutating func request(_ index: Int, _ demand: Int) {
                guard subscribers[index].active else { return }
                let old = subscribers[index].demand
                subscribers[index].demand = (old == .max || demand == .max) ? .max : old + demand
                if subscribers[index].owesCurrent {
                    subscribers[index].owesCurrent = false
                    deliver(current, to: index)
                }
            }

            mutating func send(_ value: Int) {
                guard !completed else { return }
                current = value
                for index in subscribers.indices where subscribers[index].active && !subscribers[index].owesCurrent {
                    if subscribers[index].demand > 0 {
                        deliver(value, to: index)
                    } else if kind == .currentValue {
                        // Combine's CurrentValueSubject: a subscriber that missed a value for lack of
                        // demand gets the current value on its next request.
                        subscribers[index].owesCurrent = true
                    }
                }
            }

            mutating func cancel(_ index: Int) {
                guard subscribers[index].active else { return }
                subscribers[index].cancelled = true
            }

            mutating func complete() {
                guard !completed else { return }
                completed = true
                for index in subscribers.indices where subscribers[index].active {
                    subscribers[index].completed = true
                }
            }
        }

        /// A Ripple subscriber with the same knobs as the model's.
        final class Probe: Subscriber, @unchecked Sendable {
            typealias Input = Int
            typealias Failure = Never
            var subscription: (any Subscription)?
            var received: [Int] = []
            var completions = 0
            let initialDemand: Int
            let returns: Int

            init(demand: Int, returns: Int) {
                initialDemand = demand
                self.returns = returns
            }

            func receive(subscription: any Subscription) {
                self.subscription = subscription
                if initialDemand > 0 { subscription.request(initialDemand == .max ? .unlimited : .max(initialDemand)) }
            }

            func receive(_ input: Int) -> Subscribers.Demand {
                received.append(input)
                return .max(returns)
            }

            func receive(completion: Subscribers.Completion<Never>) { completions += 1 }
        }

        /// Runs one seeded sequence; returns a description of the first divergence, if any.
        static func run(seed: UInt64, kind: Kind, steps: Int) -> String? {
            var random = Generator(state: seed)
            var model = Model(kind: kind)
            let passthrough = PassthroughSubject<Int, Never>()
            let currentValue = CurrentValueSubject<Int, Never>(0)
            let subject: any Subject<Int, Never> = kind == .passthrough ? passthrough : currentValue
            var probes: [Probe] = []
            let demands = [0, 1, 2, 5, Int.max]

            for step in 0..<steps {
                let roll = random.below(100)
                var operation: String
                switch roll {
                case 0..<12 where probes.count < 8:
                    let demand = demands[random.below(demands.count)]
                    let returns = random.below(4) == 0 ? 1 : 0
                    let probe = Probe(demand: demand, returns: returns)
                    probes.append(probe)
                    subject.subscribe(probe)
                    model.subscribe(demand: demand, returns: returns)
                    operation = "subscribe(demand: \(demand), returns: \(returns))"
                case 0..<25 where !probes.isEmpty:
                    let index = random.below(probes.count)
                    let demand = demands[1 + random.below(demands.count - 1)]
                    probes[index].subscription?.request(demand == .max ? .unlimited : .max(demand))
                    model.request(index, demand)
                    operation = "request(#\(index), \(demand))"
                case 0..<32 where !probes.isEmpty:
                    let index = random.below(probes.count)
                    probes[index].subscription?.cancel()
                    model.cancel(index)
                    operation = "cancel(#\(index))"
                case 32:
                    subject.send(completion: .finished)
                    model.complete()
                    operation = "complete"
                default:
                    let value = step
                    subject.send(value)
                    model.send(value)
                    operation = "send(\(value))"
                }
                for (index, probe) in probes.enumerated() {
                    let expected = model.subscribers[index]
                    let completedOK = probe.completions == (expected.completed ? 1 : 0)
                    if probe.received != expected.received || !completedOK {
                        return """
                            seed \(seed) (\(kind)), step \(step) \(operation): subscriber #\(index) received \
                            \(probe.received.suffix(5)) completions \(probe.completions); the model says \
                            \(expected.received.suffix(5)) completed \(expected.completed)
                            """
                    }
                }
            }
            return nil
        }

        /// 1,000 sequences of 1,000 operations for each subject: 2,000,000 operations per run
        /// (a tenth under ThreadSanitizer: the test is single-threaded).
        @Test(arguments: [Kind.passthrough, Kind.currentValue])
        func millionOperationsWithoutDivergence(kind: Kind) {
            let base: UInt64 = 0x5249_5050_4C45  // fixed, so a failure reproduces; each sequence gets its own seed
            for sequence in 0..<sanitizerScaled(1_000) {
                let seed = base &+ UInt64(sequence) &* 7_919
                if let divergence = Self.run(seed: seed, kind: kind, steps: 1_000) {
                    Issue.record("\(divergence)")
                    return
                }
            }
        }
    }
}
