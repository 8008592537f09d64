// The Linux kernel calls behind `Lock` and the turn waits: futexes and the thread's kernel ID.
//
// Written in Swift rather than C so that importing Ripple never requires a C module: a package
// that only sees Ripple's Swift modules (SwiftPM shows every built Swift module to every target,
// but a C module only to the targets that depend on it) can import `Ripple` or `Combine` cleanly.
//
// Swift cannot call C's variadic `syscall(2)` directly; it is declared here with the fixed
// arguments the futex calls take. On Linux's calling conventions (x86_64, arm64 and the others
// below) a variadic callee receives these arguments exactly where a fixed-argument callee does, and
// the C library's `syscall` reads them from there.

#if os(Linux) || os(Android)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// `syscall(2)` with the six arguments a futex call passes (unused ones are 0).
@_extern(c, "syscall")
private func systemCall(
    _ number: Int, _ word: UnsafeMutablePointer<UInt32>?, _ operation: Int32, _ value: UInt32,
    _ timeout: UnsafePointer<timespec>?, _ otherWord: UnsafeMutablePointer<UInt32>?, _ value3: UInt32
) -> Int

/// The kernel's numbers for the two calls made here, per architecture (`asm/unistd.h`).
private enum SystemCallNumber {
    #if arch(x86_64)
    static var futex: Int { 202 }
    static var gettid: Int { 186 }
    #elseif arch(arm64) || arch(riscv64)
    static var futex: Int { 98 }
    static var gettid: Int { 178 }
    #elseif arch(i386) || arch(arm)
    static var futex: Int { 240 }
    static var gettid: Int { 224 }
    #elseif arch(powerpc64le) || arch(powerpc64)
    static var futex: Int { 221 }
    static var gettid: Int { 207 }
    #elseif arch(s390x)
    static var futex: Int { 238 }
    static var gettid: Int { 236 }
    #else
    #error("Ripple: add this architecture's futex and gettid system call numbers")
    #endif
}

/// The futex operations used, with `FUTEX_PRIVATE_FLAG` (the words are never shared between
/// processes).
private enum FutexOperation {
    static var wait: Int32 { 0 | 128 }
    static var wake: Int32 { 1 | 128 }
    static var lockPI: Int32 { 6 | 128 }
    static var unlockPI: Int32 { 7 | 128 }
}

/// 0 if the call succeeded, otherwise the `errno` it failed with.
private func errorCode(_ returned: Int) -> Int32 {
    returned == -1 ? errno : 0
}

/// `FUTEX_LOCK_PI` (take a priority-inheriting lock) on `word`, sleeping at most `milliseconds`.
/// Returns 0 or the `errno` the kernel answered with.
func futexLockPI(_ word: UnsafeMutablePointer<UInt32>, milliseconds: Int32) -> Int32 {
    // FUTEX_LOCK_PI's timeout is a deadline on CLOCK_REALTIME.
    var deadline = timespec()
    guard clock_gettime(CLOCK_REALTIME, &deadline) == 0 else { return errno }
    deadline.tv_nsec += Int(milliseconds) * 1_000_000
    deadline.tv_sec += deadline.tv_nsec / 1_000_000_000
    deadline.tv_nsec %= 1_000_000_000
    return errorCode(systemCall(SystemCallNumber.futex, word, FutexOperation.lockPI, 0, &deadline, nil, 0))
}

/// `FUTEX_UNLOCK_PI`: hands `word` to its highest-priority sleeper. Returns 0 or the `errno`.
func futexUnlockPI(_ word: UnsafeMutablePointer<UInt32>) -> Int32 {
    errorCode(systemCall(SystemCallNumber.futex, word, FutexOperation.unlockPI, 0, nil, nil, 0))
}

/// `FUTEX_WAIT`: sleeps while `word` holds `expected`, at most `milliseconds` (forever if
/// negative). Returns 0 or the `errno`.
func futexWait(_ word: UnsafeMutablePointer<UInt32>, expected: UInt32, milliseconds: Int32) -> Int32 {
    // FUTEX_WAIT's timeout is relative, on CLOCK_MONOTONIC.
    guard milliseconds >= 0 else {
        return errorCode(systemCall(SystemCallNumber.futex, word, FutexOperation.wait, expected, nil, nil, 0))
    }
    var timeout = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
    return errorCode(systemCall(SystemCallNumber.futex, word, FutexOperation.wait, expected, &timeout, nil, 0))
}

/// `FUTEX_WAKE`: wakes up to `count` threads sleeping in ``futexWait(_:expected:milliseconds:)``
/// on `word`.
func futexWake(_ word: UnsafeMutablePointer<UInt32>, count: UInt32) {
    _ = systemCall(SystemCallNumber.futex, word, FutexOperation.wake, count, nil, nil, 0)
}

/// The calling thread's kernel ID, asked of the kernel (a system call: see ``linuxThreadID()``).
private func threadIDFromKernel() -> UInt32 {
    UInt32(truncatingIfNeeded: systemCall(SystemCallNumber.gettid, nil, 0, 0, nil, nil, 0))
}

/// Where each thread keeps its kernel ID once asked: a thread-specific slot, created on first use
/// (nil if the system refused one: every call then asks the kernel).
private let threadIDSlot: pthread_key_t? = {
    var key = pthread_key_t()
    guard pthread_key_create(&key, nil) == 0 else { return nil }
    // A child made by fork(2) runs only the thread that forked, still holding its parent's ID.
    // If registering fails, a forked child's lock falls back to plain futexes the first time the
    // kernel rejects the stale ID (the lock treats any unexpected error so).
    _ = pthread_atfork(nil, nil) {
        if let slot = threadIDSlot { _ = pthread_setspecific(slot, nil) }
    }
    return key
}()

/// The calling thread's kernel thread ID (what `gettid(2)` returns), never 0: the owner a futex
/// lock's word holds. Asked of the kernel once per thread, then kept in a thread-specific slot.
func linuxThreadID() -> UInt32 {
    guard let slot = threadIDSlot else { return threadIDFromKernel() }
    let cached = UInt32(truncatingIfNeeded: UInt(bitPattern: pthread_getspecific(slot)))
    if cached != 0 { return cached }
    let id = threadIDFromKernel()
    _ = pthread_setspecific(slot, UnsafeRawPointer(bitPattern: UInt(id)))
    return id
}
#endif
