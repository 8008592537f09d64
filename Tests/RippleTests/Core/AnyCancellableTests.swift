import Ripple
import Testing

@Suite struct AnyCancellableTests {
    // Rule 18
    @Test func actionRunsAtMostOnceThroughCancelAndDeinit() {
        let count = Locked(0)
        do {
            let cancellable = AnyCancellable { count.withLock { $0 += 1 } }
            cancellable.cancel()
            cancellable.cancel()
        }
        #expect(count.current == 1)
    }

    @Test func deinitCancels() {
        let count = Locked(0)
        do {
            _ = AnyCancellable { count.withLock { $0 += 1 } }
        }
        #expect(count.current == 1)
    }

    @Test func concurrentCancelsRunTheActionOnce() async {
        for _ in 0..<200 {
            let count = Locked(0)
            let cancellable = AnyCancellable { count.withLock { $0 += 1 } }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { cancellable.cancel() } }
            }
            #expect(count.current == 1)
        }
    }

    @Test func hashableByIdentity() {
        let a = AnyCancellable {}
        let b = AnyCancellable {}
        #expect(a == a)
        #expect(a != b)
        var set = Set<AnyCancellable>()
        a.store(in: &set)
        a.store(in: &set)
        b.store(in: &set)
        #expect(set.count == 2)
    }

    @Test func storeInRangeReplaceableCollections() {
        let count = Locked(0)
        var array: [AnyCancellable] = []
        var contiguous = ContiguousArray<AnyCancellable>()
        AnyCancellable { count.withLock { $0 += 1 } }.store(in: &array)
        AnyCancellable { count.withLock { $0 += 1 } }.store(in: &contiguous)
        #expect(array.count == 1 && contiguous.count == 1)
        array.removeAll()
        contiguous.removeAll()
        #expect(count.current == 2)
    }

    @Test func wrapsAnyCancellable() {
        struct Canceller: Cancellable {
            let count: Locked<Int>
            func cancel() { count.withLock { $0 += 1 } }
        }
        let count = Locked(0)
        let wrapped = AnyCancellable(Canceller(count: count))
        var set = Set<AnyCancellable>()
        Canceller(count: count).store(in: &set)
        wrapped.cancel()
        set.removeAll()
        #expect(count.current == 2)
    }

    /// A subject's own `sink` token cancels its subscription without claiming the token's flag (the
    /// subscription's cancel is idempotent): cancelled from four threads at once, and then dropped,
    /// the closure is released exactly once and no value arrives after the first `cancel()` returns.
    @Test func concurrentCancelsOfASubjectSinkTokenReleaseTheClosureOnce() async {
        final class Owner: Sendable {
            let releases: Locked<Int>
            init(_ releases: Locked<Int>) { self.releases = releases }
            deinit { releases.withLock { $0 += 1 } }
        }
        for _ in 0..<200 {
            let subject = PassthroughSubject<Int, Never>()
            let releases = Locked(0)
            let received = Locked(0)
            var token: AnyCancellable? = {
                let owner = Owner(releases)
                return subject.sink { _ in
                    _ = owner
                    received.withLock { $0 += 1 }
                }
            }()
            subject.send(1)
            let shared = token!
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { shared.cancel() } }
            }
            #expect(releases.current == 1)
            subject.send(2)
            token = nil
            #expect(received.current == 1)
            #expect(releases.current == 1)
            _ = token
        }
    }

    // Rule 17
    @Test func droppingTheSinkTokenCancelsAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let received = Locked<[Int]>([])
        var token: AnyCancellable? = subject.sink { value in received.withLock { $0.append(value) } }
        subject.send(1)
        token = nil
        subject.send(2)
        #expect(received.current == [1])
        _ = token
    }
}
