import Ripple
import Testing

/// Misuse of the simple publishers and of `values` traps with a message, as Combine traps (each is
/// an exit test with its message asserted, like the suite in `Reliability`).
@Suite(.exitTestWatchdog) struct PublisherMisuseTests {
    enum Misuse: String, CaseIterable, Codable, Sendable {
        case sequencePrefixNegative, sequenceDropFirstNegative, sequenceOutputInOutOfBounds
        case optionalPrefixNegative, optionalDropFirstNegative, optionalOutputAtNegative, optionalOutputInNegative
        case justPrefixNegative, justDropFirstNegative
        case valuesOverDelivery

        var message: String {
            switch self {
            case .sequencePrefixNegative, .optionalPrefixNegative, .justPrefixNegative:
                "prefix: maxLength must not be negative (got -1)"
            case .sequenceDropFirstNegative, .optionalDropFirstNegative, .justDropFirstNegative:
                "dropFirst: count must not be negative (got -1)"
            case .sequenceOutputInOutOfBounds: "output(in:): the range 1..<5 is outside the sequence's bounds"
            case .optionalOutputAtNegative: "output(at:): index must not be negative (got -1)"
            case .optionalOutputInNegative: "output(in:): the lower bound must not be negative (got -1)"
            case .valuesOverDelivery: "values: received a value no next() asked for"
            }
        }

        /// A publisher that sends a value nobody asked for.
        struct OverDelivering: Publisher {
            typealias Output = Int
            typealias Failure = Never
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriber.receive(subscription: Subscriptions.empty)
                _ = subscriber.receive(1)
            }
        }

        func commit() {
            switch self {
            case .sequencePrefixNegative: _ = [1, 2].publisher.prefix(-1)
            case .sequenceDropFirstNegative: _ = [1, 2].publisher.dropFirst(-1)
            case .sequenceOutputInOutOfBounds: _ = [1, 2].publisher.output(in: 1..<5)
            case .optionalPrefixNegative: _ = Optional(1).publisher.prefix(-1)
            case .optionalDropFirstNegative: _ = Optional(1).publisher.dropFirst(-1)
            case .optionalOutputAtNegative: _ = Optional(1).publisher.output(at: -1)
            case .optionalOutputInNegative: _ = Optional(1).publisher.output(in: -1..<2)
            case .justPrefixNegative: _ = Just(1).prefix(-1)
            case .justDropFirstNegative: _ = Just(1).dropFirst(-1)
            case .valuesOverDelivery: _ = OverDelivering().values.makeAsyncIterator()
            }
        }
    }

    @Test(arguments: Misuse.allCases)
    func trapsWithAClearMessage(misuse: Misuse) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [misuse] in
            misuse.commit()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(misuse.message), "\(misuse): stderr was \(output.suffix(300))")
    }

    /// The non-trapping neighbours: zero counts and the generic operators' answers.
    @Test func zeroCountsAreFine() {
        #expect(Array([1, 2].publisher.prefix(0).sequence) == [])
        #expect(Array([1, 2].publisher.dropFirst(0).sequence) == [1, 2])
        #expect(Optional(1).publisher.prefix(0).output == nil)
        #expect(Just(1).dropFirst(0).output == 1)
    }
}
