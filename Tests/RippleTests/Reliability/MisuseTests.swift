import Foundation
import Ripple
import RippleTesting
import Testing

/// Misuse: every precondition Ripple keeps is an exit test here, with its message asserted. Where
/// Combine traps (negative demand, requesting `.none` from the publishers whose recorded tests
/// crash on it), Ripple traps too, naming the operator; where Combine does not, ``ZeroDemandTests``
/// shows what happens instead.
@Suite(.exitTestWatchdog) struct MisuseTests {
    /// One way to break a rule, and the words the trap must say.
    enum Misuse: String, CaseIterable, Codable, Sendable {
        case negativeDemand, noneFromJust, noneFromFuture, noneFromPassthrough, noneFromCurrentValue
        case noneFromPublished, noneFromCombineLatest, noneFromZip
        case noneFromFlatMap, noneFromSwitchToLatest, noneFromCollectByCount
        case noneFromReplaceEmpty, noneFromCount, noneFromAsyncSequence, noneFromDropFirst
        case negativePrefix, subscribingNegativeDropFirst, negativeOutputAt, collectZero
        case collectByTimeOrCountZero, schedulerBackwards, schedulerZeroInterval
        case recordAfterCompletion, anySubscriberOfASubjectValueBeforeSubscription

        var message: String {
            switch self {
            case .negativeDemand: "Subscribers.Demand.max: demand must not be negative (got -1)"
            case .noneFromJust: "Just: demand must be greater than zero"
            case .noneFromFuture: "Future: demand must be greater than zero"
            case .noneFromPassthrough: "PassthroughSubject: demand must be greater than zero"
            case .noneFromCurrentValue: "CurrentValueSubject: demand must be greater than zero"
            case .noneFromPublished: "demand must be greater than zero"
            case .noneFromCombineLatest: "CombineLatest: demand must be greater than zero"
            case .noneFromZip: "Zip: demand must be greater than zero"
            case .noneFromFlatMap: "FlatMap: demand must be greater than zero"
            case .noneFromSwitchToLatest: "SwitchToLatest: demand must be greater than zero"
            case .noneFromCollectByCount: "CollectByCount: demand must be greater than zero"
            case .noneFromReplaceEmpty: "ReplaceEmpty: demand must be greater than zero"
            case .noneFromCount: "Count: demand must be greater than zero"
            case .noneFromAsyncSequence: "AsyncSequence publisher: demand must be greater than zero"
            case .noneFromDropFirst: "Drop: demand must be greater than zero"
            case .negativePrefix: "prefix: maxLength must not be negative (got -1)"
            case .subscribingNegativeDropFirst: "dropFirst: count must not be negative (got -1)"
            case .negativeOutputAt: "output(at:): index must not be negative (got -1)"
            case .collectZero: "collect(_:): count must be greater than zero (got 0)"
            case .collectByTimeOrCountZero: "collect(.byTimeOrCount): count must be greater than zero (got 0)"
            case .schedulerBackwards: "TestScheduler: cannot move the clock backwards"
            case .schedulerZeroInterval: "TestScheduler: a repeating interval must be positive"
            case .recordAfterCompletion: "Record.Recording: receive(_:) called after receive(completion:)"
            case .anySubscriberOfASubjectValueBeforeSubscription:
                "AnySubscriber(subject): received a value before a subscription"
            }
        }

        final class Model: ObservableObject {
            @Published var value = 0
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
            let scheduler = TestScheduler()
            let subject = PassthroughSubject<Int, Never>()
            switch self {
            case .negativeDemand: _ = Subscribers.Demand.max(-1)
            case .noneFromJust: requestNone(Just(1))
            case .noneFromFuture: requestNone(Future<Int, Never> { $0(.success(1)) })
            case .noneFromPassthrough: requestNone(subject)
            case .noneFromCurrentValue: requestNone(CurrentValueSubject<Int, Never>(0))
            case .noneFromPublished: requestNone(Model().$value)
            case .noneFromCombineLatest: requestNone(subject.combineLatest(subject))
            case .noneFromZip: requestNone(subject.zip(subject))
            case .noneFromFlatMap: requestNone(subject.flatMap { Just($0) })
            case .noneFromSwitchToLatest: requestNone(subject.map { Just($0) }.switchToLatest())
            case .noneFromCollectByCount: requestNone(subject.collect(2))
            case .noneFromReplaceEmpty: requestNone(subject.replaceEmpty(with: 0))
            case .noneFromCount: requestNone(subject.count())
            case .noneFromAsyncSequence: requestNone(AsyncStream<Int> { $0.finish() }.publisher)
            // As in Combine (OpenCombine's DropTests.testCrashesOnZeroDemand, recorded against it).
            case .noneFromDropFirst: requestNone(subject.dropFirst())
            case .negativePrefix: _ = subject.prefix(-1)
            case .subscribingNegativeDropFirst:
                // As in Combine, the trap comes when the publisher is subscribed, not when it is made.
                let dropping = subject.dropFirst(-1)
                _ = dropping.sink { _ in }
            case .negativeOutputAt: _ = subject.output(at: -1)
            case .collectZero: _ = subject.collect(0)
            case .collectByTimeOrCountZero: _ = subject.collect(.byTimeOrCount(scheduler, .seconds(1), 0))
            case .schedulerBackwards: scheduler.advance(by: .seconds(-1))
            case .schedulerZeroInterval: _ = scheduler.schedule(after: scheduler.now, interval: .seconds(0)) {}
            case .recordAfterCompletion:
                _ = Record<Int, Never> { recording in
                    recording.receive(completion: .finished)
                    recording.receive(1)
                }
            case .anySubscriberOfASubjectValueBeforeSubscription:
                // As in Combine (CombineX AnySubscriberSpec, recorded against it).
                _ = AnySubscriber(subject).receive(1)
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
}
