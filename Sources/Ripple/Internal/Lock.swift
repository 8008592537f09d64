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

#if os(Linux) || os(Android)
internal import CRippleSync
#endif

/// A small non-recursive lock stored inline in its owner (no allocation, four bytes), backed by the
/// operating system: a thread that finds it taken sleeps in the kernel until the holder unlocks.
///
/// - Linux and Android: a three-state futex lock (0 free, 1 held, 2 held with sleepers). Taking a
///   free lock is one compare-and-swap; unlocking is one exchange, and a `FUTEX_WAKE` only when
///   somebody sleeps. Before sleeping, a thread re-reads the word a few dozen times (no yield), since
///   Ripple's critical sections are a handful of instructions.
/// - Windows: the same algorithm on `WaitOnAddress` / `WakeByAddressSingle`.
/// - Darwin: `os_unfair_lock`, which donates priority to the holder.
///
/// The measurements behind the choice are in `Documentation/Engine.md`.
///
/// Rules for every owner: keep all state the lock guards in one struct; decide under the lock,
/// call out after unlocking — and release what leaves the state (old values, subscribers, closures)
/// after unlocking too, since a deinit is user code.
@usableFromInline
struct Lock: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let word = Atomic<UInt32>(0)

    @inlinable
    init() {}

    #if canImport(Darwin)
    @inlinable @inline(__always)
    func lock() {
        os_unfair_lock_lock(unfairLock)
    }

    @inlinable @inline(__always)
    func unlock() {
        os_unfair_lock_unlock(unfairLock)
    }

    @inlinable
    var unfairLock: os_unfair_lock_t {
        withUnsafePointer(to: word) {
            UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: os_unfair_lock_s.self)
        }
    }
    #else
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
        if word.exchange(0, ordering: .releasing) == 2 {
            wakeOne()
        }
    }

    /// Re-reads the word briefly, then marks the lock contended (2) and sleeps until it is free.
    @usableFromInline @inline(never)
    func lockSlow() {
        for _ in 0..<40 {
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(
                    expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
        }
        // Whoever takes the lock from here on holds it as "contended", so its unlock wakes a sleeper.
        while word.exchange(2, ordering: .acquiring) != 0 {
            waitOnWord(word, whileEqualTo: 2)
        }
    }

    @usableFromInline @inline(never)
    func wakeOne() {
        wakeOneOnWord(word)
    }
    #endif

    /// Runs `body` with the lock held. `body` must not call user code.
    @inlinable @inline(__always)
    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

#if !canImport(Darwin)
/// Sleeps while `word` holds `expected` (returns at once if it does not; may return spuriously).
@usableFromInline
func waitOnWord(_ word: borrowing Atomic<UInt32>, whileEqualTo expected: UInt32) {
    withUnsafePointer(to: word) { pointer in
        let address = UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: UInt32.self)
        #if os(Windows)
        var compare = expected
        _ = WaitOnAddress(address, &compare, 4, INFINITE)
        #else
        ripple_wait_on_address(address, expected)
        #endif
    }
}

/// Wakes one thread sleeping in ``waitOnWord(_:whileEqualTo:)`` on `word`.
@usableFromInline
func wakeOneOnWord(_ word: borrowing Atomic<UInt32>) {
    withUnsafePointer(to: word) { pointer in
        let address = UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: UInt32.self)
        #if os(Windows)
        WakeByAddressSingle(address)
        #else
        ripple_wake_one(address)
        #endif
    }
}
#endif

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
