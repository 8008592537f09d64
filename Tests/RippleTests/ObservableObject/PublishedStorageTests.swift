import Foundation
import Ripple
import Testing

/// Issue 14: `@Published` keeps one source of truth for the property and `$property`, releases old
/// values after unlocking, and ignores an assigned projection (as Combine does).
@Suite struct PublishedStorageTests {
    final class Model: ObservableObject, @unchecked Sendable {
        @Published var count = 0
        @Published var payload: Payload? = nil
    }

    /// A value whose deinit reads the property it was stored in.
    final class Payload: @unchecked Sendable {
        weak var model: Model?
        let onDeinit: @Sendable () -> Void
        init(model: Model, onDeinit: @escaping @Sendable () -> Void) {
            self.model = model
            self.onDeinit = onDeinit
        }
        deinit {
            _ = model?.payload  // re-enters the property whose storage is releasing this value
            onDeinit()
        }
    }

    /// Runs `body` on another thread; `true` if it finished within a generous deadlock timeout.
    func finishes(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + 60) == .success
    }

    @Test func anOldValueWhoseDeinitReadsThePropertyIsReleasedAfterUnlocking() {
        let deinits = Locked(0)
        let unobserved = finishes {
            let model = Model()
            model.payload = Payload(model: model) { deinits.withLock { $0 += 1 } }
            model.payload = nil  // the old payload's deinit reads model.payload
        }
        #expect(unobserved)
        let observed = finishes {
            let model = Model()
            let token = model.$payload.sink { _ in }
            model.payload = Payload(model: model) { deinits.withLock { $0 += 1 } }
            model.payload = nil
            token.cancel()
        }
        #expect(observed)
        #expect(deinits.current == 2)
    }

    /// After concurrent writers, a new `$count` subscriber starts from the value the property holds.
    @Test func theProjectionsCurrentValueIsThePropertysAfterConcurrentWriters() {
        var mismatches: [String] = []
        for round in 0..<sanitizerScaled(2_000) {
            let model = Model()
            let token = model.$count.sink { _ in }  // the projection exists, so writes are observed
            runConcurrently(threads: 2) { writer in model.count = round * 10 + writer + 1 }
            let first = Locked<Int?>(nil)
            let late = model.$count.sink { value in first.withLock { if $0 == nil { $0 = value } } }
            if first.current != model.count { mismatches.append("round \(round): $count \(first.current ?? -1), count \(model.count)") }
            late.cancel()
            token.cancel()
        }
        #expect(mismatches.isEmpty)
    }

    /// A subscriber that assigns the property while it is told about a write (a clamp): the nested
    /// write stores first and the outer one stores over it, as in Combine — `@Published` publishes
    /// in `willSet` and stores after (Apple's `Published` documentation; OpenCombine's
    /// `PublishedSubject.send` stores after delivering). A later `$count` subscriber starts from
    /// what the property holds.
    @Test func theOuterWriteStoresOverANestedWriteFromASubscriber() {
        let model = Model()
        let seen = Locked<[Int]>([])
        let token = model.$count.sink { value in
            seen.withLock { $0.append(value) }
            if value > 10 { model.count = 10 }
        }
        model.count = 11
        #expect(seen.current == [0, 11, 10])
        #expect(model.count == 11)
        let late = model.$count.sink { value in seen.withLock { $0.append(value) } }
        #expect(seen.current == [0, 11, 10, 11])
        late.cancel()
        token.cancel()
    }

    /// The same clamp with a second subscriber and a derived property: everything after the clamp
    /// sees the nested value, then the outer one, and ends agreeing with the property (the second
    /// subscriber's last value, the derived property, a new subscriber).
    @Test func subscribersAfterANestedWriteEndWithThePropertysValue() {
        final class Derived: ObservableObject {
            @Published var count = 0
            @Published var doubled = 0
        }
        let model = Derived()
        let clamp = model.$count.sink { if $0 > 10 { model.count = 10 } }
        let second = Locked<[Int]>([])
        let token = model.$count.sink { value in second.withLock { $0.append(value) } }
        model.$count.map { $0 * 2 }.assign(to: &model.$doubled)
        model.count = 11
        #expect(second.current == [0, 10, 11])
        #expect(model.count == 11)
        #expect(model.doubled == 22)
        var fresh: [Int] = []
        let late = model.$count.sink { fresh.append($0) }
        #expect(fresh == [11])
        withExtendedLifetime((clamp, token, late)) {}
    }

    /// `a.$count = b.$count` has no observable effect, as in Combine: `a` keeps its own storage.
    @Test func assigningAProjectionHasNoEffect() {
        let a = Model()
        let b = Model()
        b.count = 7
        let seenByA = Locked<[Int]>([])
        let token = a.$count.sink { value in seenByA.withLock { $0.append(value) } }
        a.$count = b.$count
        #expect(a.count == 0)
        b.count = 8
        #expect(a.count == 0)
        a.count = 1
        #expect(a.count == 1 && b.count == 8)
        #expect(seenByA.current == [0, 1])
        token.cancel()
    }
}
