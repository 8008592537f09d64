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

/// Whether the tests were built optimized (`swift test -c release`, as CI's AddressSanitizer run
/// is). The exhaustive checkers run their three-thread scripts there (about a minute and a half
/// under AddressSanitizer); a debug build (the plain `swift test`, the ThreadSanitizer run) runs the
/// two-thread scripts, which already show every defect the checkers' mutation tests plant.
let runningOptimized: Bool = {
    #if DEBUG
    return false
    #else
    return true
    #endif
}()

/// The heavy suites (stress, the randomized model, lifetimes, the re-entrancy matrix, and the
/// concurrency tests of subjects, fan-in, tracking and ObservableObject) block the thread they run
/// on. Grouped under one serialized suite, they take at
/// most one of the test runner's threads at a time, so async tests elsewhere are never starved.
@Suite(.serialized) struct Heavy {}

/// Whether this process runs under ThreadSanitizer or AddressSanitizer, found at run time (their
/// runtimes define `__tsan_init` / `__asan_init`), so `swift test --sanitize=thread` as a user types
/// it scales the heavy tests down by itself. `RIPPLE_SANITIZED` in the environment forces it.
let runningUnderSanitizer: Bool = {
    if ProcessInfo.processInfo.environment["RIPPLE_SANITIZED"] != nil { return true }
    #if canImport(Darwin)
    let everything = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
    let everything: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(everything, "__tsan_init") != nil || dlsym(everything, "__asan_init") != nil
}()

/// Work a single-threaded heavy test does, scaled down under a sanitizer, which checks nothing more
/// in single-threaded code but runs it ten times slower; plain `swift test` runs the full counts.
func sanitizerScaled(_ count: Int) -> Int {
    runningUnderSanitizer ? max(1, count / 10) : count
}

/// The iteration count of a race test: `RIPPLE_RACE_ITERATIONS` when set (for long runs on demand,
/// e.g. a million under ThreadSanitizer), otherwise `count` scaled for sanitizers.
func raceIterations(_ count: Int) -> Int {
    if let text = ProcessInfo.processInfo.environment["RIPPLE_RACE_ITERATIONS"], let n = Int(text), n > 0 {
        return n
    }
    return sanitizerScaled(count)
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

/// Runs `body` on a thread with a large stack (256 MB) when the tests run under a sanitizer, whose
/// larger frames make the structures a stack-depth test builds (a chain of nested publishers,
/// released recursively) deeper than a test runner thread's stack; otherwise on the calling thread,
/// so a stack-depth test keeps its meaning where it counts. Returns what `body` returned (check it
/// on the test's own thread).
func onSanitizerSizedStack<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    guard runningUnderSanitizer else { return body() }
    let done = DispatchSemaphore(value: 0)
    let result = Locked<Result?>(nil)
    let thread = Thread {
        let value = body()
        result.withLock { $0 = value }
        done.signal()
    }
    thread.stackSize = 1 << 28
    thread.start()
    done.wait()
    return result.withLock { $0! }
}
