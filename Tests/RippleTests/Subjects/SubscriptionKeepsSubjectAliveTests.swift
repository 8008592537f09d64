import Ripple
import Testing

/// In Combine a subscription retains its subject until it is cancelled or completed, so a subject
/// that only its subscribers keep — the common "make a subject, hand out `eraseToAnyPublisher()`,
/// send from a callback through a weak reference" pattern — goes on delivering.
@Suite struct SubscriptionKeepsSubjectAliveTests {
    /// A legacy callback source.
    final class Source {
        var onEvent: (() -> Void)?
    }

    static func passthrough(from source: Source) -> AnyPublisher<Int, Never> {
        let subject = PassthroughSubject<Int, Never>()
        source.onEvent = { [weak subject] in subject?.send(42) }
        return subject.eraseToAnyPublisher()
    }

    static func currentValue(from source: Source) -> AnyPublisher<Int, Never> {
        let subject = CurrentValueSubject<Int, Never>(0)
        source.onEvent = { [weak subject] in subject?.send(42) }
        return subject.map { $0 + 1 }.eraseToAnyPublisher()
    }

    @Test func aPassthroughSubjectKeptOnlyByItsSubscriptionDelivers() {
        let source = Source()
        var received: [Int] = []
        let token = Self.passthrough(from: source).sink { received.append($0) }
        source.onEvent?()
        source.onEvent?()
        #expect(received == [42, 42])
        token.cancel()
        source.onEvent?()  // the subject is gone with its last subscription
        #expect(received == [42, 42])
    }

    @Test func aCurrentValueSubjectBehindMapKeptOnlyByItsSubscriptionDelivers() {
        let source = Source()
        var received: [Int] = []
        let token = Self.currentValue(from: source).sink { received.append($0) }
        source.onEvent?()
        #expect(received == [1, 43])
        withExtendedLifetime(token) {}
    }

    @Test func aSubscriberOfItsOwnKeepsTheSubjectToo() {
        let source = Source()
        let recorder = Recorder<Int, Never>(demand: .unlimited)
        Self.passthrough(from: source).subscribe(recorder)
        source.onEvent?()
        #expect(recorder.values == [42])
        recorder.cancel()
    }

    @Test func theSubjectIsLetGoOnceItsLastSubscriptionEnds() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var first: AnyCancellable?
        var second: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            first = subject.sink { _ in }
            second = subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        #expect(weakSubject != nil)
        first?.cancel()
        #expect(weakSubject != nil, "one subscription is still alive")
        second?.cancel()
        #expect(weakSubject == nil)
        first = nil
        second = nil
    }

    @Test func completionLetsTheSubjectGo() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var completions = 0
        var token: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            token = subject.sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { _ in })
        }
        weakSubject?.send(completion: .finished)
        #expect(completions == 1)
        #expect(weakSubject == nil)
        withExtendedLifetime(token) {}
    }
}
