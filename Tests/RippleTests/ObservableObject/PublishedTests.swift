import Ripple
import Testing

@Suite struct PublishedTests {
    final class Model: ObservableObject, @unchecked Sendable {
        @Published var count = 0
        @Published var name = "a"
    }

    // Rule 33: will-change timing — subscribers see the old value.
    @Test func objectWillChangeFiresBeforeTheStore() {
        let model = Model()
        let seen = Locked<[Int]>([])
        let token = model.objectWillChange.sink { seen.withLock { $0.append(model.count) } }
        model.count = 1
        model.count = 2
        model.count = 2  // every assignment counts, equal or not
        #expect(seen.current == [0, 1, 2])
        #expect(model.count == 2)
        token.cancel()
    }

    // Rule 34
    @Test func projectionEmitsCurrentValueThenNewValuesInWillSetTiming() {
        let model = Model()
        let log = Locked<[String]>([])
        let token = model.$count.sink { value in log.withLock { $0.append("got \(value), stored \(model.count)") } }
        model.count = 5
        #expect(log.current == ["got 0, stored 0", "got 5, stored 0"])
        #expect(model.count == 5)
        token.cancel()
    }

    @Test func projectionRespectsDemandAndKeepsOnlyTheLatest() {
        let model = Model()
        let recorder = Recorder(for: model.$count, demand: nil)
        model.count = 1
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        model.count = 2
        model.count = 3
        recorder.request(.max(1))
        #expect(recorder.values == [1, 3])
        recorder.request(.max(2))
        model.count = 4
        #expect(recorder.values == [1, 3, 4])
        #expect(!recorder.isCompleted)
    }

    @Test func eventOrderIsWillChangeThenProjectionThenStore() {
        let model = Model()
        let log = Locked<[String]>([])
        let a = model.objectWillChange.sink { log.withLock { $0.append("willChange(\(model.count))") } }
        let b = model.$count.dropFirst().sink { value in log.withLock { $0.append("$count \(value)") } }
        model.count = 7
        log.withLock { $0.append("stored \(model.count)") }
        #expect(log.current == ["willChange(0)", "$count 7", "stored 7"])
        a.cancel()
        b.cancel()
    }

    @Test func initialValueInitializer() {
        final class Legacy: ObservableObject {
            @Published(initialValue: 3) var value: Int
        }
        #expect(Legacy().value == 3)
    }

    @Test func worksOnClassesThatAreNotObservableObjects() {
        final class NotObservable {
            @Published var value = 1
        }
        let object = NotObservable()
        let recorder = Recorder(for: object.$value)
        object.value = 2
        #expect(recorder.values == [1, 2])
    }

    // Rule 35
    @Test func aClassWithItsOwnObjectWillChangeIsNotFed() {
        final class Custom: ObservableObject {
            let objectWillChange = PassthroughSubject<Void, Never>()
            @Published var value = 0
        }
        let model = Custom()
        let events = Locked(0)
        let token = model.objectWillChange.sink { events.withLock { $0 += 1 } }
        let projected = Recorder(for: model.$value)
        model.value = 1
        #expect(events.current == 0)
        #expect(projected.values == [0, 1])  // the $ publisher still works
        model.objectWillChange.send()
        #expect(events.current == 1)
        token.cancel()
    }

    @Test func customObjectWillChangeOfTypeObservableObjectPublisherIsNotFedEither() {
        final class Custom: ObservableObject {
            let objectWillChange = ObservableObjectPublisher()
            @Published var value = 0
        }
        let model = Custom()
        let events = Locked(0)
        let token = model.objectWillChange.sink { events.withLock { $0 += 1 } }
        model.value = 1
        #expect(events.current == 0)
        token.cancel()
    }

    /// As in Combine: assigning another property's projection leaves both properties their storage.
    @Test func theProjectionSetterDoesNotShareStorage() {
        final class Pair {
            @Published var a = 1
            @Published var b = 2
        }
        let pair = Pair()
        pair.$b = pair.$a
        pair.a = 10
        #expect(pair.b == 2)
    }
}
