import Ripple
import Testing

@Suite(.exitTestWatchdog) struct SwitchToLatestTests {
    @Test func republishesOnlyTheNewestInner() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: outer.switchToLatest())
        outer.send(first)
        first.send(1)
        outer.send(second)
        first.send(2)  // cancelled: ignored
        second.send(3)
        #expect(recorder.values == [1, 3])
    }

    @Test func cancelsThePreviousInner() {
        let outer = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
        let first = ManualPublisher<Int, Never>()
        _ = Recorder(for: outer.switchToLatest())
        outer.send(first)
        outer.send(ManualPublisher())
        #expect(first.subscription.cancelled)
    }

    @Test func outstandingDemandCarriesToTheNextInner() {
        let outer = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
        let first = ManualPublisher<Int, Never>()
        let second = ManualPublisher<Int, Never>()
        _ = Recorder(for: outer.switchToLatest(), demand: .max(3))
        outer.send(first)
        #expect(first.subscription.requests == [.max(3)])
        first.send(1)
        outer.send(second)
        #expect(second.subscription.requests == [.max(2)])
    }

    // Combine's order: the downstream gets its subscription first, then the upstream of
    // publishers is subscribed and asked for `.unlimited`; a new inner publisher is asked for the
    // outstanding demand, later requests go to the current inner publisher, and what the downstream
    // returns for an element goes back to that inner publisher as the return of its receive(_:).
    @Test func subscriptionOrderAndDemand() {
        let log = OrderLog()
        let upstream = LoggedPublisher<LoggedPublisher<Int, Never>, Never>("up", log: log)
        let first = LoggedPublisher<Int, Never>("first", log: log)
        let second = LoggedPublisher<Int, Never>("second", log: log)
        let subscriber = LoggedSubscriber<Int, Never>(log: log, demand: .max(2), onValue: { $0 == 1 ? .max(1) : .none })
        upstream.switchToLatest().subscribe(subscriber)
        upstream.send(first)
        #expect(first.send(1) == .max(1))
        subscriber.subscription?.request(.max(4))
        upstream.send(second)
        #expect(log.entries == [
            "S subscription SwitchToLatest", "up subscribed", "up request unlimited",
            "first subscribed", "first request max(2)", "S value 1",
            "first request max(4)",
            "first cancel", "second subscribed", "second request max(6)",
        ])
    }

    // Completion order: an inner failure cancels the upstream, then fails; the upstream's failure
    // cancels the current inner publisher, then fails.
    @Test func failuresCancelTheOtherSideFirst() {
        let log = OrderLog()
        let upstream = LoggedPublisher<LoggedPublisher<Int, TestError>, TestError>("up", log: log)
        let inner = LoggedPublisher<Int, TestError>("inner", log: log)
        upstream.switchToLatest().subscribe(LoggedSubscriber<Int, TestError>(log: log, demand: .max(1)))
        upstream.send(inner)
        inner.send(completion: .failure(TestError(id: 1)))
        #expect(log.entries.suffix(2) == ["up cancel", "S completion failure TestError(1)"])

        let log2 = OrderLog()
        let upstream2 = LoggedPublisher<LoggedPublisher<Int, TestError>, TestError>("up", log: log2)
        let inner2 = LoggedPublisher<Int, TestError>("inner", log: log2)
        upstream2.switchToLatest().subscribe(LoggedSubscriber<Int, TestError>(log: log2, demand: .max(1)))
        upstream2.send(inner2)
        upstream2.send(completion: .failure(TestError(id: 2)))
        #expect(log2.entries.suffix(2) == ["inner cancel", "S completion failure TestError(2)"])
    }

    @Test func finishesWhenOuterAndCurrentInnerHaveFinished() {
        let outer = PassthroughSubject<Just<Int>, Never>()
        let recorder = Recorder(for: outer.switchToLatest())
        outer.send(Just(1))
        #expect(!recorder.isCompleted)
        outer.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func innerFailureFailsAndCancelsOuter() {
        let outer = ManualPublisher<Fail<Int, TestError>, TestError>()
        let recorder = Recorder(for: outer.switchToLatest())
        #expect(outer.subscription.requests == [.unlimited])
        outer.send(Fail(error: TestError(id: 2)))
        #expect(outer.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(2)")])
    }

    @Test func failureTypeOverloads() {
        let neverOuter = Recorder(for: Just(Fail<Int, TestError>(error: TestError(id: 1))).switchToLatest())
        #expect(neverOuter.events == [.subscription, .failure("TestError(1)")])
        let neverInner = Recorder(for: Just(Just(4)).setFailureType(to: TestError.self).switchToLatest())
        #expect(neverInner.values == [4])
        #expect(Recorder(for: Just(Just(5)).switchToLatest()).values == [5])
    }

    @Test func zeroDemandTraps() async {
        await #expect(processExitsWith: .failure) {
            let recorder = Recorder(for: Just(Just(1)).switchToLatest(), demand: nil)
            recorder.request(.none)
        }
    }

    @Test func reentrantSwitchFromTheDownstream() {
        let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = CurrentValueSubject<Int, Never>(20)
        let recorder = Recorder<Int, Never>(onValue: { value in
            if value == 1 { outer.send(second.eraseToAnyPublisher()) }
            return .none
        })
        outer.switchToLatest().subscribe(recorder)
        outer.send(first.eraseToAnyPublisher())
        first.send(1)
        first.send(2)
        second.send(21)
        #expect(recorder.values == [1, 20, 21])
    }
}
