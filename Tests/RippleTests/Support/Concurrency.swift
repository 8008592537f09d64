import Foundation
import Testing

/// Runs `body(index)` on `threads` new threads at once and waits for all of them.
func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            body(index)
            group.leave()
        }
    }
    group.wait()
}

/// Waits (yielding) until `condition` holds or `seconds` pass; returns whether it held.
/// Async tests use this instead of an unbounded loop, so a bug fails the test instead of hanging it.
func eventually(within seconds: Double = 30, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return await condition()
}

/// The heavy suites (stress, the randomized model, lifetimes, the re-entrancy matrix, and the
/// concurrency tests of subjects, fan-in, tracking and ObservableObject) block the thread they run
/// on. Grouped under one serialized suite, they take at
/// most one of the test runner's threads at a time, so async tests elsewhere are never starved.
@Suite(.serialized) struct Heavy {}

/// Work a single-threaded heavy test does, scaled down under ThreadSanitizer, which checks nothing
/// more in single-threaded code but runs it ten times slower. `.ci/run` sets RIPPLE_SANITIZED for
/// its TSan job; plain `swift test` runs the full counts.
func sanitizerScaled(_ count: Int) -> Int {
    ProcessInfo.processInfo.environment["RIPPLE_SANITIZED"] == nil ? count : max(1, count / 10)
}

/// Runs `body` on a new thread and waits up to `seconds` for it to return: `false` means it hung
/// (a deadlock), and the test fails instead of hanging the run. A hung thread is left behind.
func completesWithin(seconds: Double = 30, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}
