import Ripple
import Testing

@Suite struct SinkTests {
    // Rule 15
    @Test func requestsUnlimitedAndReturnsNone() {
        let publisher = ManualPublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        publisher.subscribe(sink)
        #expect(publisher.subscription.requests == [.unlimited])
        #expect(publisher.send(1) == .none)
    }

    @Test func ignoresEverythingAfterTheFirstCompletionIncludingReentrantOnes() {
        let publisher = ManualPublisher<Int, TestError>()
        let log = Locked<[String]>([])
        let sinkBox = Locked<Subscribers.Sink<Int, TestError>?>(nil)
        let sink = Subscribers.Sink<Int, TestError>(
            receiveCompletion: { completion in
                log.withLock { $0.append("completion \(completion)") }
                sinkBox.withLock { $0 }?.receive(completion: .finished)
            },
            receiveValue: { value in log.withLock { $0.append("value \(value)") } })
        sinkBox.withLock { $0 = sink }
        publisher.subscribe(sink)
        publisher.send(1)
        publisher.send(completion: .failure(TestError(id: 1)))
        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(log.current == ["value 1", "completion failure(TestError(1))"])
        sinkBox.withLock { $0 = nil }
    }

    @Test func deliversValuesThatArriveBeforeTheSubscription() {
        let seen = Locked<[Int]>([])
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in }, receiveValue: { value in seen.withLock { $0.append(value) } })
        _ = sink.receive(1)
        #expect(seen.current == [1])
    }

    // Rule 6
    @Test func cancelsASecondSubscription() {
        let publisher = ManualPublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        publisher.subscribe(sink)
        let second = RecordingSubscription()
        publisher.sendSubscription(second)
        #expect(second.events == [.cancel])
        #expect(!publisher.subscription.cancelled)
    }

    @Test func cancelsASubscriptionReceivedAfterTermination() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        sink.receive(completion: .finished)
        let late = RecordingSubscription()
        sink.receive(subscription: late)
        #expect(late.events == [.cancel])
    }

    // Rule 16
    @Test func releasesClosuresOnCompletion() {
        final class Token {}
        var token: Token? = Token()
        let weakToken = WeakRef(token)
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { [token] _ in _ = token }, receiveValue: { _ in })
        token = nil
        #expect(weakToken.object != nil)
        sink.receive(completion: .finished)
        #expect(weakToken.object == nil)
    }

    @Test func releasesClosuresOnCancel() {
        final class Token {}
        var token: Token? = Token()
        let weakToken = WeakRef(token)
        let publisher = ManualPublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { [token] _ in _ = token })
        publisher.subscribe(sink)
        token = nil
        sink.cancel()
        #expect(weakToken.object == nil)
        #expect(publisher.subscription.cancelled)
        sink.cancel()
        #expect(publisher.subscription.events == [.request(.unlimited), .cancel])
    }

    // Rule 17
    @Test func cancellingDuringDeliveryDoesNotCallTheClosuresAgain() {
        let subject = PassthroughSubject<Int, Never>()
        let seen = Locked<[Int]>([])
        let holder = Locked<AnyCancellable?>(nil)
        holder.withLock {
            $0 = subject.sink(
                receiveCompletion: { _ in seen.withLock { $0.append(-1) } },
                receiveValue: { value in
                    seen.withLock { $0.append(value) }
                    holder.withLock { $0 }?.cancel()
                })
        }
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(seen.current == [1])
    }

    @Test func exposesItsClosuresUntilTerminated() {
        let seen = Locked<[Int]>([])
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in }, receiveValue: { value in seen.withLock { $0.append(value) } })
        sink.receiveValue(1)
        sink.receive(completion: .finished)
        sink.receiveValue(2)
        sink.receiveCompletion(.finished)
        #expect(seen.current == [1])
    }
}

/// `sink` called on a subject attaches the closures to the subject directly; these tests pin it to
/// the behaviour of the generic path (a `Subscribers.Sink`), which `AnyPublisher` still takes.
@Suite struct SubjectSinkTests {
    final class Token {}

    func both(_ body: (_ attach: (PassthroughSubject<Int, TestError>, @escaping (Int) -> Void, @escaping (Subscribers.Completion<TestError>) -> Void) -> AnyCancellable) -> Void) {
        body { subject, value, completion in subject.sink(receiveCompletion: completion, receiveValue: value) }
        body { subject, value, completion in
            subject.eraseToAnyPublisher().sink(receiveCompletion: completion, receiveValue: value)
        }
    }

    @Test func cancelReleasesTheClosuresEvenWhileTheTokenIsKept() {
        both { attach in
            let subject = PassthroughSubject<Int, TestError>()
            var token: Token? = Token()
            let weakToken = WeakRef(token)
            let cancellable = attach(subject, { [token] _ in _ = token }, { _ in })
            token = nil
            #expect(weakToken.object != nil)
            cancellable.cancel()
            #expect(weakToken.object == nil)
            withExtendedLifetime(cancellable) {}
        }
    }

    @Test func completionReleasesTheClosures() {
        both { attach in
            let subject = PassthroughSubject<Int, TestError>()
            var token: Token? = Token()
            let weakToken = WeakRef(token)
            let cancellable = attach(subject, { [token] _ in _ = token }, { _ in })
            token = nil
            subject.send(completion: .finished)
            #expect(weakToken.object == nil)
            withExtendedLifetime(cancellable) {}
        }
    }

    @Test func sameEventsOnBothPaths() {
        both { attach in
            let subject = PassthroughSubject<Int, TestError>()
            let log = Locked<[String]>([])
            let cancellable = attach(
                subject, { value in log.withLock { $0.append("v\(value)") } },
                { completion in log.withLock { $0.append("\(completion)") } })
            subject.send(1)
            subject.send(completion: .failure(TestError(id: 1)))
            subject.send(2)
            #expect(log.current == ["v1", "failure(TestError(1))"])
            // Subscribing after completion: the completion at once.
            let late = attach(subject, { _ in log.withLock { $0.append("late value") } }, { _ in log.withLock { $0.append("late completion") } })
            #expect(log.current.last == "late completion")
            withExtendedLifetime((cancellable, late)) {}
        }
    }

    @Test func cancelFromInsideTheClosureStopsAtOnce() {
        both { attach in
            let subject = PassthroughSubject<Int, TestError>()
            let seen = Locked<[Int]>([])
            let holder = Locked<AnyCancellable?>(nil)
            holder.withLock {
                $0 = attach(subject, { value in
                    seen.withLock { $0.append(value) }
                    holder.withLock { $0 }?.cancel()
                    subject.send(value + 1)
                }, { _ in seen.withLock { $0.append(-1) } })
            }
            subject.send(1)
            subject.send(completion: .finished)
            #expect(seen.current == [1])
        }
    }

    @Test func currentValueSubjectReplaysOnBothPaths() {
        let subject = CurrentValueSubject<Int, Never>(5)
        let direct = Locked<[Int]>([])
        let erased = Locked<[Int]>([])
        let a = subject.sink { value in direct.withLock { $0.append(value) } }
        let b = subject.eraseToAnyPublisher().sink { value in erased.withLock { $0.append(value) } }
        subject.value = 6
        #expect(direct.current == [5, 6])
        #expect(erased.current == [5, 6])
        withExtendedLifetime((a, b)) {}
    }

    @Test func publishedAndObjectWillChangeSinks() {
        final class Model: ObservableObject {
            @Published var value = 1
        }
        let model = Model()
        let log = Locked<[String]>([])
        let a = model.objectWillChange.sink { log.withLock { $0.append("will change") } }
        let b = model.$value.sink { value in log.withLock { $0.append("value \(value)") } }
        model.value = 2
        #expect(log.current == ["value 1", "will change", "value 2"])
        withExtendedLifetime((a, b)) {}
    }
}
