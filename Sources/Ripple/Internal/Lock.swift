import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WinSDK)
import WinSDK
#endif

/// A tiny non-recursive lock stored inline in its owner (no allocation, four bytes).
///
/// Ripple's critical sections are a handful of instructions and never call user code, so the lock
/// takes one compare-and-swap when free, spins briefly when taken, then yields the processor.
/// On this project's reference machine an uncontended lock/unlock pair costs about the same as a
/// pthread mutex pair and far less than `Synchronization.Mutex` (see `Documentation/Locking.md`).
///
/// Rules for every owner: keep all state the lock guards in one struct; decide under the lock,
/// call out after unlocking.
@usableFromInline
struct Lock: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let word = Atomic<UInt32>(0)

    @inlinable
    init() {}

    @inlinable @inline(__always)
    func lock() {
        if word.compareExchange(
            expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged {
            return
        }
        lockSlow()
    }

    @inlinable @inline(__always)
    func unlock() {
        word.store(0, ordering: .releasing)
    }

    @usableFromInline @inline(never)
    func lockSlow() {
        var spins = 0
        while true {
            // Spin on a plain load first so waiting threads do not fight over the cache line.
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(
                    expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
            spins += 1
            if spins >= 64 {
                yieldProcessor()
                spins = 0
            }
        }
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    @inlinable @inline(__always)
    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

@usableFromInline
func yieldProcessor() {
    #if canImport(WinSDK)
    _ = SwitchToThread()
    #else
    _ = sched_yield()
    #endif
}

/// A number that identifies the calling thread while it runs (never zero).
///
/// Used to tell re-entrant calls (the same thread, further up the stack) from concurrent ones.
@inlinable @inline(__always)
func currentThreadID() -> UInt {
    #if canImport(WinSDK)
    return UInt(GetCurrentThreadId()) &+ 1
    #elseif canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
