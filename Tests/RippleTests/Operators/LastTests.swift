import Ripple
import Testing

@Suite struct LastTests {
    @Test func publishesTheLastElementAfterFinishing() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.last(), demand: nil)
        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [.subscription])
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(2), .finished])
    }

    @Test func emptyJustFinishes() {
        #expect(Recorder(for: Empty<Int, Never>().last()).events == [.subscription, .finished])
    }

    @Test func lastWhere() {
        #expect(Recorder(for: [1, 2, 3, 4].publisher.last { $0 < 3 }).values == [2])
        #expect(Recorder(for: [5].publisher.last { $0 < 3 }).events == [.subscription, .finished])
    }

    @Test func tryLastWhereThrowCancelsAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.tryLast { value in
            if value == 3 { throw TestError(id: 3) }
            return true
        })
        upstream.send(1)
        upstream.send(3)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(3)")])
    }

    @Test func failureDropsTheHeldElement() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: upstream.last())
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }
}
