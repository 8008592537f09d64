import Foundation
import Ripple
import Testing

/// Where Combine's operators trap on misuse — a request for `.none` from an operator that is its
/// own subscription — Ripple traps too, naming the operator. Exit tests, messages asserted.
@Suite(.exitTestWatchdog) struct OperatorMisuseTests {
    enum Misuse: String, CaseIterable, Codable, Sendable {
        case noneFromDrop, noneFromDropWhile, noneFromPrefixWhile, noneFromRemoveDuplicates, noneFromTryMap
        case noneFromTryFilter, noneFromFirst, noneFromCollect, noneFromComparison
        /// OptionalPublisherTests.testOutputInRangeOperatorSpecializationCrashesOnTooBigUpperBound,
        /// recorded against Combine: `0 ..< (.max - 2)` is accepted, `0 ..< (.max - 1)` traps.
        case tooLargeUpperBoundIntoOptionalOutputIn

        var message: String {
            switch self {
            case .noneFromDrop: "Drop: demand must be greater than zero (got max(0))"
            case .noneFromDropWhile: "DropWhile: demand must be greater than zero (got max(0))"
            case .noneFromPrefixWhile: "PrefixWhile: demand must be greater than zero (got max(0))"
            case .noneFromRemoveDuplicates: "RemoveDuplicates: demand must be greater than zero (got max(0))"
            case .noneFromTryMap: "TryMap: demand must be greater than zero (got max(0))"
            case .noneFromTryFilter: "TryFilter: demand must be greater than zero (got max(0))"
            case .noneFromFirst: "First: demand must be greater than zero (got max(0))"
            case .noneFromCollect: "Collect: demand must be greater than zero (got max(0))"
            case .noneFromComparison: "Comparison: demand must be greater than zero (got max(0))"
            case .tooLargeUpperBoundIntoOptionalOutputIn:
                "output(in:): the upper bound must not be above Int.max - 2 (got \(Int.max - 1))"
            }
        }

        /// Subscribes without demand and asks for `.none`.
        private func requestNone<P: Publisher>(_ publisher: P) {
            let subscription = Locked<(any Subscription)?>(nil)
            publisher.subscribe(
                AnySubscriber<P.Output, P.Failure>(
                    receiveSubscription: { received in subscription.withLock { $0 = received } },
                    receiveValue: { _ in .none }, receiveCompletion: nil))
            subscription.current?.request(.none)
        }

        func commit() {
            let subject = PassthroughSubject<Int, Never>()
            switch self {
            case .noneFromDrop: requestNone(subject.dropFirst(1))
            case .noneFromDropWhile: requestNone(subject.drop(while: { $0 < 0 }))
            case .noneFromPrefixWhile: requestNone(subject.prefix(while: { $0 < 0 }))
            case .noneFromRemoveDuplicates: requestNone(subject.removeDuplicates())
            case .noneFromTryMap: requestNone(subject.tryMap { $0 })
            case .noneFromTryFilter: requestNone(subject.tryFilter { _ in true })
            case .noneFromFirst: requestNone(subject.first())
            case .noneFromCollect: requestNone(subject.collect())
            case .noneFromComparison: requestNone(subject.min())
            case .tooLargeUpperBoundIntoOptionalOutputIn: _ = Optional(12).publisher.output(in: 0..<(Int.max - 1))
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

    @Test func optionalOutputInAcceptsTheLargestUpperBoundCombineDoes() {
        #expect(Optional(12).publisher.output(in: 0..<(Int.max - 2)).output == 12)
    }
}
