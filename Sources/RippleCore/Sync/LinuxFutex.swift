// The Linux kernel calls behind `Lock` and the turn waits: futexes and the thread's kernel ID.
//
// They are C functions (Sources/CRippleSync/CRippleSync.c: `syscall(2)` is variadic, which Swift
// cannot call, and the ID is cached in a C thread-local), declared here with `@_extern(c)` rather
// than imported from the C module: importing it would make every client of Ripple need that C
// module too, and SwiftPM shows a C module only to the targets that depend on it — so a package
// that sees Ripple's Swift modules without depending on Ripple (one that says
// `#if canImport(Combine)`) could not import them. The C target is still linked wherever Ripple is.

#if os(Linux) || os(Android)
/// The calling thread's kernel thread ID (what `gettid(2)` returns), never 0: the owner a futex
/// lock's word holds. Asked of the kernel once per thread, then read from a thread-local.
@_extern(c, "ripple_linux_thread_id")
func linuxThreadID() -> UInt32

#if RIPPLE_EXPLORER
// The explorer's build: each call asks the explorer's kernel model first (its atomics mode,
// Sync/ExplorerSeam.swift), and makes the real call for a thread the explorer does not run.
/// `FUTEX_LOCK_PI` (take a priority-inheriting lock) on `word`, sleeping at most `milliseconds`.
func futexLockPI(_ word: UnsafeMutablePointer<UInt32>, _ milliseconds: Int32) -> Int32 {
    explorerHooks?.futexLockPI(word, me: linuxThreadID(), milliseconds: milliseconds) ?? kernelFutexLockPI(word, milliseconds)
}

/// `FUTEX_UNLOCK_PI` on `word`.
func futexUnlockPI(_ word: UnsafeMutablePointer<UInt32>) -> Int32 {
    explorerHooks?.futexUnlockPI(word, me: linuxThreadID()) ?? kernelFutexUnlockPI(word)
}

/// `FUTEX_WAIT` on `word`.
func futexWait(_ word: UnsafeMutablePointer<UInt32>, _ expected: UInt32, _ milliseconds: Int32) -> Int32 {
    explorerHooks?.futexWait(word, expected: expected, milliseconds: milliseconds)
        ?? kernelFutexWait(word, expected, milliseconds)
}

/// `FUTEX_WAKE` on `word`.
func futexWake(_ word: UnsafeMutablePointer<UInt32>, _ count: Int32) -> Int32 {
    explorerHooks?.futexWake(word, count: count) ?? kernelFutexWake(word, count)
}

@_extern(c, "ripple_linux_futex_lock_pi")
func kernelFutexLockPI(_ word: UnsafeMutablePointer<UInt32>, _ milliseconds: Int32) -> Int32
@_extern(c, "ripple_linux_futex_unlock_pi")
func kernelFutexUnlockPI(_ word: UnsafeMutablePointer<UInt32>) -> Int32
@_extern(c, "ripple_linux_futex_wait")
func kernelFutexWait(_ word: UnsafeMutablePointer<UInt32>, _ expected: UInt32, _ milliseconds: Int32) -> Int32
@_extern(c, "ripple_linux_futex_wake")
func kernelFutexWake(_ word: UnsafeMutablePointer<UInt32>, _ count: Int32) -> Int32
#else
/// `FUTEX_LOCK_PI` (take a priority-inheriting lock) on `word`, sleeping at most `milliseconds`.
/// Returns 0 or the `errno` the kernel answered with.
@_extern(c, "ripple_linux_futex_lock_pi")
func futexLockPI(_ word: UnsafeMutablePointer<UInt32>, _ milliseconds: Int32) -> Int32

/// `FUTEX_UNLOCK_PI`: hands `word` to its highest-priority sleeper. Returns 0 or the `errno`.
@_extern(c, "ripple_linux_futex_unlock_pi")
func futexUnlockPI(_ word: UnsafeMutablePointer<UInt32>) -> Int32

/// `FUTEX_WAIT`: sleeps while `word` holds `expected`, at most `milliseconds` (forever if
/// negative). Returns 0 or the `errno`.
@_extern(c, "ripple_linux_futex_wait")
func futexWait(_ word: UnsafeMutablePointer<UInt32>, _ expected: UInt32, _ milliseconds: Int32) -> Int32

/// `FUTEX_WAKE`: wakes up to `count` threads sleeping in ``futexWait(_:_:_:)`` on `word`.
@_extern(c, "ripple_linux_futex_wake")
func futexWake(_ word: UnsafeMutablePointer<UInt32>, _ count: Int32) -> Int32
#endif
#endif
