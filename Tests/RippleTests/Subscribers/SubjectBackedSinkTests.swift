import Ripple
import Testing

/// `sink` on a subject, or on `map` / `filter` / `compactMap` / key-path `map` over one, attaches the
/// closures to the subject's conduit (`_SubjectBacked`). Each test runs the same scenario through
/// that path and through the generic one (a ``Subscribers/Sink`` behind the operators, reached by
/// calling `sink` in a generic context) and expects the same outcome.
@Suite struct SubjectBackedSinkTests {
    final class Model: ObservableObject {
        @Published var name = "a"
    }

    struct Point: Equatable {
        var x: Int
    }

    /// `sink` as generic code sees it: the protocol extension, a `Subscribers.Sink`.
    static func genericSink<P: Publisher>(
        _ publisher: P, _ log: Locked<[String]>
    ) -> AnyCancellable {
        publisher.sink(
            receiveCompletion: { completion in log.withLock { $0.append("\(completion)") } },
            receiveValue: { value in log.withLock { $0.append("\(value)") } })
    }

    static func requiresSubjectBacked<P: _SubjectBacked>(_: P) -> Bool { true }
    static func requiresSubjectBacked<P: Publisher>(_: P) -> Bool { false }

    @Test func theStatelessOperatorsOverASubjectTakeTheDirectPath() {
        let subject = PassthroughSubject<Int, Never>()
        #expect(Self.requiresSubjectBacked(subject))
        #expect(Self.requiresSubjectBacked(subject.map { $0 + 1 }.filter { $0 > 0 }))
        #expect(Self.requiresSubjectBacked(subject.compactMap { $0 > 0 ? $0 : nil }))
        #expect(Self.requiresSubjectBacked(CurrentValueSubject<Point, Never>(Point(x: 1)).map(\.x)))
        #expect(Self.requiresSubjectBacked(Model().$name.map { $0.count }))
        #expect(Self.requiresSubjectBacked(Model().objectWillChange))
        // Anything stateful or erased in between takes the generic path.
        #expect(!Self.requiresSubjectBacked(subject.removeDuplicates().map { $0 }))
        #expect(!Self.requiresSubjectBacked(subject.eraseToAnyPublisher().map { $0 }))
    }

    @Test func valuesAndFinishedMatchTheGenericPath() {
        let subject = PassthroughSubject<Int, Never>()
        let direct = Locked<[String]>([])
        let generic = Locked<[String]>([])
        let chain = subject.map { $0 * 10 }.filter { $0 != 20 }.compactMap { $0 > 0 ? "v\($0)" : nil }
        let a = chain.sink(
            receiveCompletion: { completion in direct.withLock { $0.append("\(completion)") } },
            receiveValue: { value in direct.withLock { $0.append(value) } })
        let b = Self.genericSink(chain, generic)
        for value in [-1, 1, 2, 3] { subject.send(value) }
        subject.send(completion: .finished)
        subject.send(4)
        #expect(direct.current == ["v10", "v30", "finished"])
        #expect(direct.current == generic.current)
        _ = (a, b)
    }

    @Test func failureMatchesTheGenericPath() {
        let subject = PassthroughSubject<Point, TestError>()
        let direct = Locked<[String]>([])
        let generic = Locked<[String]>([])
        let chain = subject.map(\.x).filter { $0 > 1 }
        let a = chain.sink(
            receiveCompletion: { completion in direct.withLock { $0.append("\(completion)") } },
            receiveValue: { value in direct.withLock { $0.append("\(value)") } })
        let b = Self.genericSink(chain, generic)
        subject.send(Point(x: 1))
        subject.send(Point(x: 2))
        subject.send(completion: .failure(TestError(id: 7)))
        #expect(direct.current == ["2", "failure(TestError(7))"])
        #expect(direct.current == generic.current)
        _ = (a, b)
    }

    @Test func currentValueAndPublishedReplayThroughTheOperators() {
        let subject = CurrentValueSubject<Int, Never>(5)
        let model = Model()
        let seen = Locked<[String]>([])
        let a = subject.map { $0 + 1 }.sink { value in seen.withLock { $0.append("subject \(value)") } }
        let b = model.$name.map { $0.uppercased() }.sink { value in seen.withLock { $0.append("name \(value)") } }
        subject.send(6)
        model.name = "b"
        #expect(seen.current == ["subject 6", "name A", "subject 7", "name B"])
        _ = (a, b)
    }

    @Test func aSinkAfterCompletionGetsTheCompletionAtOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        subject.send(completion: .failure(TestError(id: 1)))
        let direct = Locked<[String]>([])
        let generic = Locked<[String]>([])
        let a = subject.map { $0 }.sink(
            receiveCompletion: { completion in direct.withLock { $0.append("\(completion)") } },
            receiveValue: { value in direct.withLock { $0.append("\(value)") } })
        let b = Self.genericSink(subject.map { $0 }, generic)
        #expect(direct.current == ["failure(TestError(1))"])
        #expect(direct.current == generic.current)
        _ = (a, b)
    }

    /// A sink on a subject that has already completed keeps nothing: its closures are released
    /// once `sink` returns (after the completion), and its token's cancel does nothing, for both
    /// subjects.
    @Test func aSinkAfterCompletionKeepsNoClosure() {
        final class Owner {}
        for replaying in [false, true] {
            let passthrough = PassthroughSubject<Int, Never>()
            let current = CurrentValueSubject<Int, Never>(0)
            passthrough.send(completion: .finished)
            current.send(completion: .finished)
            var owner: Owner? = Owner()
            let weakOwner = WeakRef(owner)
            let completions = Locked(0)
            let token: AnyCancellable
            if replaying {
                token = current.sink(
                    receiveCompletion: { [owner] _ in _ = owner; completions.withLock { $0 += 1 } },
                    receiveValue: { [owner] _ in _ = owner })
            } else {
                token = passthrough.sink(
                    receiveCompletion: { [owner] _ in _ = owner; completions.withLock { $0 += 1 } },
                    receiveValue: { [owner] _ in _ = owner })
            }
            owner = nil
            #expect(completions.current == 1)
            #expect(weakOwner.object == nil)
            token.cancel()
            #expect(completions.current == 1)
        }
    }

    @Test func cancelStopsValuesAndReleasesEveryClosure() {
        final class Owner {}
        let subject = PassthroughSubject<Int, Never>()
        var owner: Owner? = Owner()
        let weakOwner = WeakRef(owner)
        let seen = Locked<[Int]>([])
        let token = subject
            .map { [owner] value in
                _ = owner
                return value
            }
            .filter { [owner] _ in owner != nil }
            .sink { [owner] value in
                _ = owner
                seen.withLock { $0.append(value) }
            }
        owner = nil
        subject.send(1)
        #expect(weakOwner.object != nil)
        token.cancel()
        #expect(weakOwner.object == nil)  // rule 16, for the operators' closures too
        subject.send(2)
        #expect(seen.current == [1])
    }

    @Test func completionReleasesEveryClosure() {
        final class Owner {}
        let subject = PassthroughSubject<Int, Never>()
        var owner: Owner? = Owner()
        let weakOwner = WeakRef(owner)
        let token = subject.map { [owner] value in
            _ = owner
            return value
        }.sink { _ in }
        owner = nil
        #expect(weakOwner.object != nil)
        subject.send(completion: .finished)
        #expect(weakOwner.object == nil)
        _ = token
    }

    @Test func aSendFromInsideTheSinkIsNestedAsOnTheGenericPath() {
        func run(generic: Bool) -> [String] {
            let subject = PassthroughSubject<Int, Never>()
            let log = Locked<[String]>([])
            let chain = subject.map { $0 * 2 }
            let receive: (Int) -> Void = { value in
                log.withLock { $0.append("got \(value)") }
                if value < 8 { subject.send(value) }
                log.withLock { $0.append("done \(value)") }
            }
            // Erased, the chain is no longer subject-backed: the generic path.
            let token = generic ? chain.eraseToAnyPublisher().sink(receiveValue: receive) : chain.sink(receiveValue: receive)
            subject.send(1)
            token.cancel()
            return log.current
        }
        #expect(run(generic: false) == ["got 2", "got 4", "got 8", "done 8", "done 4", "done 2"])
        #expect(run(generic: false) == run(generic: true))
    }
}
