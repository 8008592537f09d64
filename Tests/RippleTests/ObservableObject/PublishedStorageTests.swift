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

    /// A subscriber that assigns the property while it is told about a write: the property ends with
    /// the value `$count` delivered last.
    @Test func aNestedWriteFromASubscriberIsTheFinalValue() {
        let model = Model()
        let seen = Locked<[Int]>([])
        let token = model.$count.sink { value in
            seen.withLock { $0.append(value) }
            if value == 1 { model.count = 2 }
        }
        model.count = 1
        #expect(seen.current == [0, 1, 2])
        #expect(model.count == 2)
        let late = model.$count.sink { value in seen.withLock { $0.append(value) } }
        #expect(seen.current == [0, 1, 2, 2])
        late.cancel()
        token.cancel()
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
