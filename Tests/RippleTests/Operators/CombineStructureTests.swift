import Dispatch
import Ripple
import RippleTesting
import Testing

/// What a custom subscriber or publisher can observe of an operator, as in Combine (rule 23): which
/// subscription object the downstream receives, what the upstream is asked after a cancel, when a
/// finished stream's result goes out, and what the subscription keeps alive (rule T4).
@Suite struct CombineStructureTests {
    // MARK: Which subscription the downstream receives

    /// Subscribes `publisher` over a manual upstream, checks the downstream's subscription is the
    /// operator's own (with Combine's name), and that a request after cancel never reaches upstream.
    private func expectOwnSubscription<P: Publisher>(
        _ name: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ make: (ManualPublisher<Int, Never>) -> P
    ) {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<P.Output, P.Failure>(demand: nil)
        make(upstream).subscribe(recorder)
        let subscription = recorder.subscription
        #expect(subscription.map { String(describing: $0) } == name, sourceLocation: sourceLocation)
        #expect(subscription as AnyObject? !== upstream.subscription, sourceLocation: sourceLocation)
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == name, sourceLocation: sourceLocation)
        #expect(subscription is any CustomReflectable, sourceLocation: sourceLocation)
        recorder.request(.max(2))
        recorder.cancel()
        recorder.request(.max(3))
        #expect(upstream.subscription.events.last == .cancel, sourceLocation: sourceLocation)
        #expect(upstream.subscription.events.filter { $0 == .cancel }.count == 1, sourceLocation: sourceLocation)
    }

    @Test func operatorsThatAreTheirOwnSubscriptionInCombine() {
        struct Boom: Error {}
        expectOwnSubscription("Drop") { $0.dropFirst(2) }
        expectOwnSubscription("DropWhile") { $0.drop(while: { $0 < 3 }) }
        expectOwnSubscription("TryDropWhile") { $0.tryDrop(while: { $0 < 3 }) }
        expectOwnSubscription("PrefixWhile") { $0.prefix(while: { $0 < 3 }) }
        expectOwnSubscription("TryPrefixWhile") { $0.tryPrefix(while: { $0 < 3 }) }
        expectOwnSubscription("RemoveDuplicates") { $0.removeDuplicates() }
        expectOwnSubscription("TryRemoveDuplicates") { $0.tryRemoveDuplicates(by: { $0 == $1 }) }
        expectOwnSubscription("TryMap") { $0.tryMap { $0 } }
        expectOwnSubscription("TryFilter") { $0.tryFilter { _ in true } }
        expectOwnSubscription("TryCompactMap") { $0.tryCompactMap { $0 } }
        expectOwnSubscription("TryScan") { $0.tryScan(0, +) }
        expectOwnSubscription("Output") { $0.prefix(2) }
        expectOwnSubscription("Output") { $0.output(at: 1) }
        expectOwnSubscription("HandleEvents") { $0.handleEvents() }
        expectOwnSubscription("First") { $0.first() }
        // Combine's first(where:) describes its subscription as "TryFirst", not "FirstWhere".
        expectOwnSubscription("TryFirst") { $0.first(where: { $0 > 1 }) }
        expectOwnSubscription("TryFirstWhere") { $0.tryFirst(where: { $0 > 1 }) }
        expectOwnSubscription("Collect") { $0.collect() }
        expectOwnSubscription("Comparison") { $0.min() }
        expectOwnSubscription("SubscribeOn") { $0.subscribe(on: ImmediateScheduler.shared) }
    }

    @Test func statelessOperatorsPassTheUpstreamSubscriptionThrough() {
        func expectPassThrough<P: Publisher>(_ make: (ManualPublisher<Int, Never>) -> P) {
            let upstream = ManualPublisher<Int, Never>()
            let recorder = Recorder<P.Output, P.Failure>(demand: nil)
            make(upstream).subscribe(recorder)
            #expect(recorder.subscription as AnyObject? === upstream.subscription)
        }
        expectPassThrough { $0.map { $0 + 1 } }
        expectPassThrough { $0.filter { $0 > 1 } }
        expectPassThrough { $0.compactMap { $0 } }
        expectPassThrough { $0.map { $0 }.filter { $0 > 0 } }
        expectPassThrough { $0.breakpoint() }
    }

    // MARK: Finishing without demand

    @Test func reducingOperatorsWaitForDemandBeforeFinishing() {
        func expectWaits<P: Publisher>(_ make: (ManualPublisher<Int, Never>) -> P, then expected: [Event<P.Output>])
        where P.Output: Equatable {
            let upstream = ManualPublisher<Int, Never>()
            let recorder = Recorder<P.Output, P.Failure>(demand: nil)
            make(upstream).subscribe(recorder)
            upstream.send(3)
            upstream.send(1)
            upstream.send(completion: .finished)
            #expect(recorder.events == [.subscription])
            recorder.request(.max(1))
            #expect(recorder.events == expected)
        }
        expectWaits({ $0.count() }, then: [.subscription, .value(2), .finished])
        expectWaits({ $0.min() }, then: [.subscription, .value(1), .finished])
        expectWaits({ $0.max() }, then: [.subscription, .value(3), .finished])
        expectWaits({ $0.reduce(0, +) }, then: [.subscription, .value(4), .finished])
        expectWaits({ $0.last() }, then: [.subscription, .value(1), .finished])
        expectWaits({ $0.collect() }, then: [.subscription, .value([3, 1]), .finished])
        expectWaits({ $0.first(where: { $0 > 5 }) }, then: [.subscription, .finished])
    }

    @Test func aCancelInsideTheResultStopsTheCompletion() {
        let upstream = ManualPublisher<Int, Never>()
        let subscription = Locked<(any Subscription)?>(nil)
        let recorder = Recorder<Int, Never>(
            demand: .max(1), onValue: { _ in subscription.current?.cancel(); return .none },
            onSubscription: { received in subscription.withLock { $0 = received } })
        upstream.first().subscribe(recorder)
        upstream.send(1)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func aFailureNeedsNoDemand() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(demand: nil)
        upstream.count().subscribe(recorder)
        upstream.send(completion: .failure(TestError(id: 2)))
        #expect(recorder.events == [.subscription, .failure("TestError(2)")])
    }

    // MARK: Cancellation

    @Test func subscribeOnDeliversNothingAfterCancel() {
        let recorder = Recorder<Int, TestError>(demand: .max(1), onSubscription: { $0.cancel() })
        Fail<Int, TestError>(error: TestError(id: 1)).subscribe(on: ImmediateScheduler.shared).subscribe(recorder)
        #expect(recorder.events == [.subscription])
    }

    @Test func aCancelBeforeTheUpstreamSubscriptionIsFinal() {
        // dropFirst hands its subscription downstream before subscribing upstream.
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: .max(2), onSubscription: { $0.cancel() })
        upstream.dropFirst(1).subscribe(recorder)
        #expect(upstream.subscription.events == [.cancel])
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [.subscription])
    }

    // MARK: Grouping and time

    @Test func collectByTimeOrCountPublishesAFullGroupWhole() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.collect(.byTimeOrCount(scheduler, .seconds(10), 2)))
        subject.send(1)
        subject.send(2)
        subject.send(3)
        // The full group went out whole (before 3 arrived, it was complete).
        scheduler.advance()
        #expect(recorder.values == [[1, 2]])
        scheduler.advance(by: .seconds(10))
        #expect(recorder.values == [[1, 2], [3]])
    }

    @Test func collectByTimeOrCountAsksNothingBeforeTheDownstreamDoes() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.collect(.byTimeOrCount(scheduler, .seconds(10), 1)), demand: nil)
        // No demand upstream yet: the subject drops these.
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(10))
        #expect(recorder.values.isEmpty)
        recorder.request(.max(2))
        subject.send(3)
        subject.send(4)
        // Full groups go out from the scheduler (Combine since iOS 13.3).
        scheduler.advance()
        #expect(recorder.values == [[3], [4]])
    }

    @Test func dispatchStridesClampInsteadOfOverflowing() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        #expect(Stride.seconds(Int.max).magnitude == Int.max)
        #expect(Stride.seconds(Int.min).magnitude == Int.min)
        #expect(Stride.milliseconds(Int.max).magnitude == Int.max)
        #expect(Stride.microseconds(Int.max).magnitude == Int.max)
        #expect(Stride.seconds(2).magnitude == 2_000_000_000)
    }

    // MARK: Lifetimes (rule T4)

    /// A publisher whose deinit finishes its subscribers: it can only finish them if nothing
    /// keeps it alive once the caller lets go.
    final class Relay: Publisher, @unchecked Sendable {
        typealias Output = Int
        typealias Failure = Never
        let subject = PassthroughSubject<Int, Never>()
        deinit { subject.send(completion: .finished) }
        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subject.subscribe(subscriber)
        }
    }

    private func expectReleasesUpstream<P: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation, _ make: (Relay) -> P
    ) where P.Output == Int {
        let recorder = Recorder<Int, P.Failure>()
        var relay: Relay? = Relay()
        let weakRelay = WeakRef(relay)
        make(relay!).subscribe(recorder)
        relay = nil
        #expect(weakRelay.object == nil, sourceLocation: sourceLocation)
        #expect(recorder.events == [.subscription, .finished], sourceLocation: sourceLocation)
    }

    @Test func operatorSubscriptionsDoNotKeepTheirUpstreamPublisherAlive() {
        expectReleasesUpstream { $0.map { $0 + 1 } }
        expectReleasesUpstream { $0.tryMap { $0 + 1 } }
        expectReleasesUpstream { $0.filter { $0 > 0 } }
        expectReleasesUpstream { $0.tryFilter { $0 > 0 } }
        expectReleasesUpstream { $0.handleEvents(receiveOutput: { _ in }) }
        expectReleasesUpstream { $0.breakpoint(receiveOutput: { _ in false }) }
        expectReleasesUpstream { $0.compactMap { $0 } }
        expectReleasesUpstream { $0.removeDuplicates() }
        expectReleasesUpstream { $0.dropFirst() }
        expectReleasesUpstream { $0.map { $0 }.map { $0 * 2 } }
    }
}
