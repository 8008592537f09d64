import Foundation
import Ripple
import Testing

extension Heavy {
    /// What each tracking entry point's cancel guarantees, with calls under way on other threads.
    ///
    /// Each test holds callbacks inside their call on other threads (a semaphore), cancels, and records
    /// whether `cancel()` had returned when each held call ended. Deterministic: a cancel that waits
    /// cannot return before the calls end, whatever the timing; one that does not wait returns within
    /// the grace period the test gives it (it only has to take a lock).
    @Suite struct TrackCancelTests {
        final class Model: ObservableObject, @unchecked Sendable {
            @Published var value = 0
            @Published var other = 0
        }

        /// Waits up to `seconds` for `condition`; returns whether it held.
        private static func within(_ seconds: Double, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition() { return true }
                usleep(1_000)
            }
            return condition()
        }

        /// `writers` threads each write once; each write's callback blocks until released. A third party
        /// cancels while they are all inside; once released, every callback records whether the cancel
        /// had returned by its end.
        private static func cancelWhileCallsAreUnderWay(
            writers: Int, start: (Model, @escaping @Sendable () -> Void) -> AnyCancellable
        ) -> (endedAfterCancelReturned: Int, calls: Int, cancelReturned: Bool) {
            let model = Model()
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let cancelReturned = Locked(false)
            let armed = Locked(false)
            let calls = Locked(0)
            let endedAfter = Locked(0)
            let token = start(model) {
                guard armed.current else { return }
                calls.withLock { $0 += 1 }
                entered.signal()
                release.wait()
                if cancelReturned.current { endedAfter.withLock { $0 += 1 } }
            }
            armed.withLock { $0 = true }
            let writing = DispatchGroup()
            for writer in 0..<writers {
                writing.enter()
                Thread.detachNewThread {
                    if writer == 0 { model.value = 1 } else { model.other = writer }
                    writing.leave()
                }
            }
            for _ in 0..<writers { entered.wait() }
            let cancelling = DispatchSemaphore(value: 0)
            let box = UncheckedBox(token)
            Thread.detachNewThread {
                box.value.cancel()
                cancelReturned.withLock { $0 = true }
                cancelling.signal()
            }
            // A cancel that does not wait has returned by now; one that waits cannot have.
            let returnedWhileInside = within(0.3) { cancelReturned.current }
            for _ in 0..<writers { release.signal() }
            writing.wait()
            cancelling.wait()
            return (endedAfter.current, calls.current, returnedWhileInside)
        }

        /// `track`: once `cancel()` returns, no callback starts or runs on another thread — it waits
        /// for the calls under way, one per writing thread (it used to return at once, and each writer
        /// that had already taken the callback called it after).
        @Test func trackCancelWaitsForEveryCallUnderWayOnOtherThreads() {
            let outcome = Self.cancelWhileCallsAreUnderWay(writers: 2) { model, body in
                track({ _ = model.value + model.other }, phase: .didSet) { _ in body() }
            }
            #expect(outcome.calls == 2)
            #expect(!outcome.cancelReturned)
            #expect(outcome.endedAfterCancelReturned == 0)
        }

        /// `track`: nothing is called after a cancel from inside the callback, and that cancel does
        /// not wait for itself.
        @Test func trackCancelFromInsideTheCallbackIsFinalAndDoesNotWait() {
            let model = Model()
            let calls = Locked(0)
            let token = Locked<AnyCancellable?>(nil)
            let made = track({ _ = model.value }, phase: .didSet) { _ in
                calls.withLock { $0 += 1 }
                token.current?.cancel()
            }
            token.withLock { $0 = made }
            model.value = 1
            model.value = 2
            #expect(calls.current == 1)
        }

        /// `track`: after `cancel()` returns, a write made on any thread calls nothing.
        @Test func trackCallsNothingForWritesAfterTheCancel() {
            let model = Model()
            let calls = Locked(0)
            let token = track({ _ = model.value }, phase: .willSet) { _ in calls.withLock { $0 += 1 } }
            model.value = 1
            token.cancel()
            runConcurrently(threads: 2) { _ in model.value += 1 }
            model.value = 9
            #expect(calls.current == 1)
        }

        /// `observe` (unchanged): its runs never overlap, and its cancel waits for the run under way.
        @Test func observeCancelWaitsForTheRunUnderWay() {
            let outcome = Self.cancelWhileCallsAreUnderWay(writers: 1) { model, body in
                observe { _ = model.value + model.other; body() }
            }
            #expect(outcome.calls == 1)
            #expect(!outcome.cancelReturned)
            #expect(outcome.endedAfterCancelReturned == 0)
        }
    }
}

/// Carries a value that is not `Sendable` to another thread the test hands it to.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
