import Ripple
import Testing

@Suite struct SwitchToLatestTests {
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
