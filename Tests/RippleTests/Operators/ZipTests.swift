import Ripple
import RippleTesting
import Testing

@Suite struct ZipTests {
    @Test func pairsElementsInOrder() {
        // Dogfooding RippleTesting's recorder.
        let recorder = [1, 2, 3].publisher.zip(["a", "b"].publisher).map { "\($0)\($1)" }.record()
        #expect(recorder.events == [.value("1a"), .value("2b"), .completion(.finished)])
    }

    // Rule 29: a child that finishes with nothing buffered finishes the zip and cancels the others.
    @Test func finishedChildWithNothingBufferedEndsTheZip() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.zip(b, +))
        a.send(completion: .finished)
        #expect(b.subscription.cancelled)
        #expect(recorder.events == [.subscription, .finished])
    }

    // Rule 29: with buffered values it waits until they are paired.
    @Test func finishedChildWithBufferedValuesWaits() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.zip(b, +))
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        #expect(!recorder.isCompleted)
        b.send(10)
        #expect(recorder.values == [11])
        #expect(!recorder.isCompleted)
        b.send(20)
        #expect(recorder.events == [.subscription, .value(11), .value(22), .finished])
        #expect(b.subscription.cancelled)
    }

    @Test func demandIsForwardedToEveryChild() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.zip(b), demand: .max(2))
        #expect(a.subscription.requests == [.max(2)])
        #expect(b.subscription.requests == [.max(2)])
        recorder.request(.max(1))
        #expect(a.subscription.requests == [.max(2), .max(1)])
    }

    @Test func tuplesWaitForDemand() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: a.zip(b, +), demand: .max(1))
        a.send(1); b.send(1)
        a.send(2); b.send(2)
        #expect(recorder.values == [2])
        recorder.request(.max(1))
        #expect(recorder.values == [2, 4])
    }

    @Test func failureCancelsTheOthers() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let recorder = Recorder(for: a.zip(b, +))
        a.send(completion: .failure(TestError(id: 1)))
        #expect(b.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }

    @Test func aritiesThreeAndFour() {
        let three = Recorder(for: Just(1).zip(Just(2), Just(3)) { $0 + $1 + $2 })
        #expect(three.values == [6])
        let four = Recorder(for: [1, 2].publisher.zip([3, 4].publisher, [5, 6].publisher, [7].publisher)).values
        #expect(four.count == 1 && four[0] == (1, 3, 5, 7))
    }
}
