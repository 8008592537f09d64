import Ripple
import Testing

/// Tests run in parallel, and several of these switch the registry on: each test looks only at
/// what its own `withRegistry` scope made.
@Suite struct SubscriptionRegistryTests {
    @Test func aSinkOnASubjectChainIsRecordedWithItsChainAndCounts() {
        let subject = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        let (cancellable, alive) = RippleDiagnostics.withRegistry {
            let cancellable = subject.map { $0 * 10 }.filter { $0 > 10 }.sink { value in received.withLock { $0.append(value) } }
            subject.send(1)
            subject.send(2)
            subject.send(3)
            return cancellable
        }
        #expect(received.current == [20, 30])
        #expect(alive.count == 1)
        let subscription = alive[0]
        #expect(subscription.chain == "PassthroughSubject → Map → Filter → Sink")
        #expect(subscription.publisher.name == "Filter")
        #expect(subscription.publisher.upstreams.first?.upstreams.first?.object != nil)
        #expect(subscription.subscriber == "Sink")
        #expect(subscription.demand == .unlimited)
        // Counted where the sink's closure is called: after map and filter.
        #expect(subscription.valuesDelivered == 2)
        #expect(subscription.status == .active)
        #expect(subscription.lastDeliveryThread != nil)
        cancellable.cancel()
    }

    /// A subject is one source whichever way a sink reaches it: attached to its conduit directly
    /// (stateless operators) or through a `Subscribers.Sink` (stateful ones).
    @Test func bothKindsOfSinkOnOneSubjectShareItsNode() {
        let subject = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let (tokens, alive) = RippleDiagnostics.withRegistry {
            [subject.map { $0 }.sink { _ in }, subject.scan(0, +).sink { _ in }, other.sink { _ in }]
        }
        let sources = alive.map { node in
            var node = node.publisher
            while let upstream = node.upstreams.first { node = upstream }
            return node.object
        }
        #expect(sources.count == 3)
        #expect(sources[0] != nil && sources[0] == sources[1])
        #expect(sources[2] != nil && sources[2] != sources[0])
        #expect(RippleDiagnostics.graph(alive).nodes.filter { $0.label == "PassthroughSubject" }.count == 2)
        tokens.forEach { $0.cancel() }
    }

    @Test func aSinkThroughAStatefulOperatorIsRecorded() {
        let subject = PassthroughSubject<Int, Never>()
        let (cancellable, alive) = RippleDiagnostics.withRegistry {
            let cancellable = subject.scan(0, +).removeDuplicates().eraseToAnyPublisher().sink(
                receiveCompletion: { _ in }, receiveValue: { _ in })
            subject.send(1)
            return cancellable
        }
        #expect(alive.map(\.chain) == ["PassthroughSubject → Scan → RemoveDuplicates → AnyPublisher → Sink"])
        #expect(alive.first?.valuesDelivered == 1)
        cancellable.cancel()
    }

    @Test func severalUpstreamsAreListed() {
        let first = PassthroughSubject<Int, Never>()
        let second = CurrentValueSubject<Int, Never>(0)
        let (cancellable, alive) = RippleDiagnostics.withRegistry {
            first.merge(with: second).sink { _ in }
        }
        #expect(alive.map(\.chain) == ["(PassthroughSubject, CurrentValueSubject) → Merge → Sink"])
        #expect(alive.first?.valuesDelivered == 1)  // the current value
        cancellable.cancel()
    }

    @Test func cancelledCompletedAndReleasedSinksAreNotAlive() {
        let subject = PassthroughSubject<Int, Never>()
        let (_, alive) = RippleDiagnostics.withRegistry {
            subject.sink { _ in }.cancel()  // cancelled
            _ = subject.map { $0 }.sink { _ in }  // released: its token cancels
            _ = Just(1).sink { _ in }  // completed at once
            let finishing = PassthroughSubject<Int, Never>()
            let token = finishing.scan(0, +).sink { _ in }
            finishing.send(completion: .finished)  // completed
            _ = token
        }
        #expect(alive.isEmpty)
    }

    @Test func assignIsRecordedUntilCancelled() {
        final class Label { var text = "" }
        let label = Label()
        let subject = PassthroughSubject<String, Never>()
        let (cancellable, alive) = RippleDiagnostics.withRegistry {
            subject.assign(to: \.text, on: label)
        }
        #expect(alive.map(\.chain) == ["PassthroughSubject → Assign Label."])
        #expect(alive.first?.valuesDelivered == nil)  // not counted for assign
        cancellable.cancel()
        let (_, afterCancel) = RippleDiagnostics.withRegistry {
            subject.assign(to: \.text, on: label).cancel()
        }
        #expect(afterCancel.isEmpty)
    }

    @Test func aSinkKeptAliveInsideIsReportedAndItsCompletionEndsIt() {
        let subject = PassthroughSubject<Int, Never>()
        let (token, alive) = RippleDiagnostics.withRegistry {
            subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        #expect(alive.count == 1)
        let (_, afterCompletion) = RippleDiagnostics.withRegistry {
            let again = subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            subject.send(completion: .finished)
            _ = again
        }
        #expect(afterCompletion.isEmpty)
        _ = token
    }

    @Test func scopesNest() {
        let subject = PassthroughSubject<Int, Never>()
        let ((inner, innerAlive), outerAlive) = RippleDiagnostics.withRegistry {
            let outer = subject.sink { _ in }
            let inner = RippleDiagnostics.withRegistry { subject.map { $0 }.sink { _ in } }
            withExtendedLifetime(outer) {}
            return inner
        }
        #expect(innerAlive.map(\.chain) == ["PassthroughSubject → Map → Sink"])
        // The outer one was released when its body returned; the inner one is still alive.
        #expect(outerAlive.map(\.chain) == ["PassthroughSubject → Map → Sink"])
        inner.cancel()
    }

    /// Parallel scopes each see exactly their own subscriptions, while unscoped code subscribes
    /// at the same time on other threads.
    @Test func parallelScopesSeeOnlyTheirOwnSubscriptions() async {
        let subject = PassthroughSubject<Int, Never>()
        let results = await withTaskGroup(of: (Int, [Int]).self) { group in
            for task in 0..<4 {
                group.addTask {
                    let (kept, alive) = RippleDiagnostics.withRegistry {
                        (0..<(10 + task)).map { _ in subject.sink { _ in } }
                    }
                    kept.forEach { $0.cancel() }
                    return (task, alive.map(\.id))
                }
            }
            group.addTask {
                // Not in any scope: never reported by the ones above.
                for _ in 0..<200 { subject.sink { _ in }.cancel() }
                let kept = (0..<5).map { _ in subject.sink { _ in } }
                await Task.yield()
                kept.forEach { $0.cancel() }
                return (-1, [])
            }
            var results: [Int: [Int]] = [:]
            for await (task, ids) in group { results[task] = ids }
            return results
        }
        var seen = Set<Int>()
        for task in 0..<4 {
            let ids = results[task] ?? []
            #expect(ids.count == 10 + task)
            for id in ids { #expect(seen.insert(id).inserted) }
        }
    }

    @Test func anAsyncScopeSeesItsChildTasks() async {
        let subject = PassthroughSubject<Int, Never>()
        let (kept, alive) = await RippleDiagnostics.withRegistry {
            await Task { subject.sink { _ in } }.value
        }
        #expect(alive.count == 1)
        kept.cancel()
    }

    /// The registry does not change what a publisher sees: the same requests and cancel, from the
    /// same subscriber type, whether it is on or off.
    @Test func recordingDoesNotChangeWhatThePublisherSees() {
        func run(recording: Bool) -> [String] {
            let log = Locked<[String]>([])
            let publisher = LoggingPublisher<Int, Never>("upstream", log: log)
            let body = {
                let token = publisher.map { $0 + 1 }.sink { log.append("value \($0)") }
                publisher.send(1)
                token.cancel()
            }
            if recording { _ = RippleDiagnostics.withRegistry(body) } else { body() }
            return log.current
        }
        #expect(run(recording: true) == run(recording: false))
        #expect(run(recording: true) == ["upstream subscribed", "upstream request unlimited", "value 2", "upstream cancel"])
    }

    @Test func recordingKeepsNothingAlive() {
        final class Owner {}
        var owner: Owner? = Owner()
        let weakOwner = WeakRef(owner)
        let subject = PassthroughSubject<Int, Never>()
        let (token, alive) = RippleDiagnostics.withRegistry { [owner] in
            subject.sink { _ in withExtendedLifetime(owner) {} }
        }
        #expect(alive.count == 1)
        owner = nil
        #expect(weakOwner.object != nil)  // the sink's closure holds it
        token.cancel()
        #expect(weakOwner.object == nil)  // released with the closure: the registry kept nothing
    }

    @Test func theSwitchRecordsOutsideAnyScope() {
        // Nothing else in the suite sets the manual switch, so this test owns it; other tests'
        // subscriptions may be recorded meanwhile, so it looks for its own by a chain only it makes.
        #expect(!RippleDiagnostics.isEnabled)
        RippleDiagnostics.isEnabled = true
        defer { RippleDiagnostics.isEnabled = false }
        #expect(RippleDiagnostics.isEnabled)
        let subject = PassthroughSubject<Int, Never>()
        let token = Labelled(upstream: subject).sink { _ in }
        let mine = RippleDiagnostics.liveSubscriptions.filter { $0.chain == "PassthroughSubject → Labelled → Sink" }
        #expect(mine.count == 1)
        let id = mine.first?.id ?? 0
        #expect(RippleDiagnostics.dump().contains("#\(id) PassthroughSubject → Labelled → Sink: demand unlimited, 0 values, active"))
        token.cancel()
        #expect(!RippleDiagnostics.liveSubscriptions.contains { $0.id == id })
    }
}

/// A publisher of the test's own, to tell its subscriptions from everyone else's.
private struct Labelled<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(subscriber)
    }
}
