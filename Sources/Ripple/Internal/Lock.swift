#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Internal/AtomicCell.swift)
#endif

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

/// A small non-recursive lock stored in its owner, backed by the operating system: a thread that
/// finds it taken sleeps in the kernel until the holder unlocks.
///
/// - Linux and Android: a three-state futex lock (0 free, 1 held, 2 held with sleepers) on a
///   four-byte ``AtomicCell`` stored inline (no allocation). Taking a free lock is one
///   compare-and-swap; unlocking is one exchange, and a `FUTEX_WAKE` only when somebody sleeps.
///   Before sleeping, a thread re-reads the word a few dozen times (no yield), since Ripple's
///   critical sections are a handful of instructions. Built with `RIPPLE_PORTABLE_ATOMICS`, the same
///   algorithm on the portable cell's separately allocated word.
/// - Windows: the same algorithm on `WaitOnAddress` / `WakeByAddressSingle`.
/// - Darwin: `os_unfair_lock` (macOS 10.12, iOS 10), which donates priority to the holder, on a
///   separately allocated word: the kernel knows a waiter by the lock's address, which must not
///   change while the owner is moved or borrowed.
///
/// The measurements behind the choice are in `Documentation/Engine.md`.
///
/// Rules for every owner: keep all state the lock guards in one struct; decide under the lock,
/// call out after unlocking — and release what leaves the state (old values, subscribers, closures)
/// after unlocking too, since a deinit is user code.
@usableFromInline
struct Lock: ~Copyable, @unchecked Sendable {
    #if canImport(Darwin)
    /// The `os_unfair_lock`, allocated by `init` and freed by `deinit`.
    @usableFromInline
    let unfairLock: os_unfair_lock_t

    /// Creates an unlocked lock.
    @inlinable
    init() {
        unfairLock = .allocate(capacity: 1)
        unfairLock.initialize(to: os_unfair_lock())
    }

    deinit {
        unfairLock.deinitialize(count: 1)
        unfairLock.deallocate()
    }

    /// Takes the lock, sleeping while another thread holds it.
    @inlinable @inline(__always)
    func lock() {
        os_unfair_lock_lock(unfairLock)
    }

    /// Releases the lock (held by the calling thread).
    @inlinable @inline(__always)
    func unlock() {
        os_unfair_lock_unlock(unfairLock)
    }
    #else
    /// 0 free, 1 held, 2 held with sleepers.
    @usableFromInline
    let word = AtomicCell<UInt32>(0)

    /// Creates an unlocked lock.
    @inlinable
    init() {}

    /// Takes the lock: one compare-and-swap when it is free, ``lockSlow()`` otherwise.
    @inlinable @inline(__always)
    func lock() {
        if word.compareExchange(
            expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged {
            return
        }
        lockSlow()
    }

    /// Releases the lock (held by the calling thread), waking one sleeper if there are any.
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

    /// Wakes one thread sleeping in ``lockSlow()``.
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
func waitOnWord(_ word: borrowing AtomicCell<UInt32>, whileEqualTo expected: UInt32) {
    withAddress(of: word) { address in
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
func wakeOneOnWord(_ word: borrowing AtomicCell<UInt32>) {
    withAddress(of: word) { address in
        #if os(Windows)
        WakeByAddressSingle(address)
        #else
        ripple_wake_one(address)
        #endif
    }
}

/// Runs `body` with the address of `word`'s four bytes, for the operating system's wait-on-address
/// calls: the portable cell's allocated word, or `Synchronization.Atomic`'s inline storage (whose
/// address is stable while it is borrowed: it is laid out in place, never moved into a temporary).
private func withAddress(of word: borrowing AtomicCell<UInt32>, _ body: (UnsafeMutablePointer<UInt32>) -> Void) {
    #if RIPPLE_PORTABLE_ATOMICS
    body(word.address)
    #else
    withUnsafePointer(to: word) { pointer in
        body(UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: UInt32.self))
    }
    #endif
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
