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

#if !os(Windows)
internal import CRippleSync
#endif

/// A small non-recursive lock stored in its owner, backed by the operating system: a thread that
/// finds it taken sleeps in the kernel until the holder unlocks.
///
/// - Linux and Android: a futex lock on a four-byte ``AtomicCell`` stored inline (no allocation),
///   with a count of sleepers beside it. Taking a free lock is one compare-and-swap; unlocking is a
///   plain store and a read of the count (see ``wakeSleeper()`` for why that is enough), and a
///   `FUTEX_WAKE` only when somebody sleeps. Before sleeping, a thread re-reads the word a few dozen
///   times (no yield), since Ripple's critical sections are a handful of instructions. Built with
///   `RIPPLE_PORTABLE_ATOMICS`, the same algorithm on the portable cells' separately allocated words.
/// - Windows: the same algorithm on `WaitOnAddress` / `WakeByAddressSingle`, with full fences.
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
    /// 0 free, 1 held.
    @usableFromInline
    let word = AtomicCell<UInt32>(0)
    /// How many threads sleep, or are about to sleep, in ``lockSlow()``.
    @usableFromInline
    let sleepers = AtomicCell<UInt32>(0)

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

    /// Releases the lock (held by the calling thread): a plain store, then ``wakeSleeper()``.
    @inlinable @inline(__always)
    func unlock() {
        word.store(0, ordering: .releasing)
        storeLoadBarrierLight()
        if sleepers.load(ordering: .relaxed) != 0 {
            wakeSleeper()
        }
    }

    /// After the releasing store and the light barrier, when `sleepers` is not 0: wakes one thread
    /// sleeping in ``lockSlow()``, if any.
    ///
    /// The store and the read of `sleepers` must not be reordered, or an unlock could miss a thread
    /// that has just gone to sleep. A fence between them would cost what the exchange it replaces
    /// did; instead the two sides of the lock are asymmetric. On the unlocking side, only
    /// ``storeLoadBarrierLight()``: a compiler barrier (and an out-of-line call). The first thread
    /// ever to sleep on the lock raises the count with `fenced` set, then makes every running
    /// thread of the process execute a full barrier (`membarrier(2)`, Linux 4.14) and sets
    /// `ready`, before it reads the word for the last time:
    /// an unlock whose read of the count came before that barrier had its store seen by then, and
    /// every later unlock sees `fenced` and, from then on, orders its store and read with a full
    /// fence, as a sleeper does. So one system call per lock, on its first contention, buys plain
    /// stores for every uncontended unlock. Where the kernel cannot do that, both sides always use
    /// a full fence (and so does Windows).
    @usableFromInline @inline(never)
    func wakeSleeper() {
        var count = sleepers.load(ordering: .relaxed)
        if count & Self.fenced != 0 {
            atomicFullFence()
            count = sleepers.load(ordering: .relaxed)
        }
        if count & Self.sleeperCount != 0 {
            wakeOneOnWord(word)
        }
    }

    /// In `sleepers`: the lock has been contended; unlocks fence.
    @usableFromInline static var fenced: UInt32 { 1 << 31 }
    /// In `sleepers`: the barrier after `fenced` was set has completed; sleepers need no other.
    @usableFromInline static var ready: UInt32 { 1 << 30 }
    /// In `sleepers`: the number of sleepers.
    @usableFromInline static var sleeperCount: UInt32 { ready - 1 }

    /// Re-reads the word briefly, then counts itself a sleeper and sleeps until the lock is free.
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
        var old = sleepers.load(ordering: .relaxed)
        while true {
            let (exchanged, found) = sleepers.compareExchange(
                expected: old, desired: (old | Self.fenced) &+ 1, ordering: .sequentiallyConsistent)
            if exchanged { break }
            old = found
        }
        if old & Self.ready == 0 {
            storeLoadBarrierHeavy()
            var current = sleepers.load(ordering: .relaxed)
            while current & Self.ready == 0 {
                let (exchanged, found) = sleepers.compareExchange(
                    expected: current, desired: current | Self.ready, ordering: .sequentiallyConsistent)
                if exchanged { break }
                current = found
            }
        } else {
            atomicFullFence()
        }
        // Sleeps (in the kernel) until the word is found free.
        while true {
            if word.compareExchange(expected: 0, desired: 1, ordering: .sequentiallyConsistent).exchanged {
                break
            }
            waitOnWord(word, whileEqualTo: 1)
        }
        sleepers.subtract(1, ordering: .relaxed)
    }

    /// A full fence on this thread.
    private func atomicFullFence() {
        #if os(Windows)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        #else
        ripple_full_fence()
        #endif
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

// MARK: Asymmetric store-load barriers

/// The light half of a pair of store–load barriers: call between a store and a load of another
/// word, when the thread on the other side (which stores its word and then loads this one) calls
/// ``storeLoadBarrierHeavy()`` in between. Together they keep one of the two threads from missing
/// the other's store, as a full fence on each side would — but this side costs only a compiler
/// barrier (and an out-of-line call), where the membarrier system call is available (Linux 4.14),
/// and the other side pays: so the side that runs on every operation takes this one. Elsewhere, a
/// full fence. Used by ``Lock`` (unlock / a thread about to sleep) and by the subjects' delivery
/// turns (a turn given back without the lock / a thread that starts depending on it).
@usableFromInline @inline(never)
func storeLoadBarrierLight() {
    #if os(Linux) || os(Android)
    ripple_light_barrier(ripple_membarrier_ready())
    #elseif os(Windows)
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    #else
    ripple_full_fence()
    #endif
}

/// The heavy half of the pair (see ``storeLoadBarrierLight()``): makes every running thread of the
/// process execute a full barrier (`membarrier(2)`), or, where that is unavailable, a full fence.
@usableFromInline @inline(never)
func storeLoadBarrierHeavy() {
    #if os(Linux) || os(Android)
    ripple_heavy_barrier()
    #elseif os(Windows)
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    #else
    ripple_full_fence()
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
