// Linux's futex calls and the thread's kernel ID, for the Swift lock (Engine/LinuxFutex.swift).
//
// These functions are deliberately not in the module's header: Swift declares them itself with
// `@_extern(c)`, so the Ripple module never imports this C module on Linux and a package that sees
// only Ripple's Swift modules can import them. (C is needed because `syscall(2)` is variadic, which
// Swift cannot call, and for a thread-local cache of the ID.) The header holds only the atomics that
// Apple platforms import. Nothing here runs at load time: no constructors, no system calls before
// the first lock that has to wait.
#include "CRippleSync.h"

#if defined(__linux__)
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static __thread uint32_t ripple_cached_thread_id = 0;

static pthread_once_t ripple_fork_handler_once = PTHREAD_ONCE_INIT;

/// In a child made by fork(2) the only thread is the one that forked, with its parent's cached ID.
static void ripple_forget_thread_id(void) {
    ripple_cached_thread_id = 0;
}

static void ripple_register_fork_handler(void) {
    // If registration fails, a forked child that uses Ripple falls back to the plain futex path
    // the first time the kernel rejects its stale ID (the lock treats any unexpected error so).
    (void)pthread_atfork(NULL, NULL, ripple_forget_thread_id);
}

/// The calling thread's kernel thread ID (what `gettid(2)` returns), never 0: asked of the kernel
/// once per thread, then kept in a thread-local variable.
uint32_t ripple_linux_thread_id(void) {
    uint32_t id = ripple_cached_thread_id;
    if (id != 0) {
        return id;
    }
    (void)pthread_once(&ripple_fork_handler_once, ripple_register_fork_handler);
    id = (uint32_t)syscall(SYS_gettid);
    ripple_cached_thread_id = id;
    return id;
}

/// `errno` after a system call that returned -1, or 0.
static int ripple_result(long returned) {
    return returned == -1 ? errno : 0;
}

/// `FUTEX_LOCK_PI` on `word`, sleeping at most `timeout_ms`. Returns 0 or the `errno`.
int ripple_linux_futex_lock_pi(uint32_t *word, int timeout_ms) {
    // FUTEX_LOCK_PI's timeout is absolute, on CLOCK_REALTIME.
    struct timespec deadline;
    if (clock_gettime(CLOCK_REALTIME, &deadline) != 0) {
        return errno;
    }
    deadline.tv_nsec += (long)timeout_ms * 1000000L;
    deadline.tv_sec += deadline.tv_nsec / 1000000000L;
    deadline.tv_nsec %= 1000000000L;
    return ripple_result(syscall(SYS_futex, word, FUTEX_LOCK_PI_PRIVATE, 0, &deadline, (void *)0, 0));
}

/// `FUTEX_UNLOCK_PI`: hands `word` to its highest-priority sleeper. Returns 0 or the `errno`.
int ripple_linux_futex_unlock_pi(uint32_t *word) {
    return ripple_result(syscall(SYS_futex, word, FUTEX_UNLOCK_PI_PRIVATE, 0, (void *)0, (void *)0, 0));
}

/// `FUTEX_WAIT`: sleeps while `*word == expected`, at most `timeout_ms` (forever if negative).
int ripple_linux_futex_wait(uint32_t *word, uint32_t expected, int timeout_ms) {
    // FUTEX_WAIT's timeout is relative, on CLOCK_MONOTONIC.
    struct timespec timeout = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
    return ripple_result(
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, timeout_ms < 0 ? (void *)0 : &timeout, (void *)0, 0));
}

/// `FUTEX_WAKE`: wakes up to `count` threads sleeping in `ripple_linux_futex_wait` on `word`.
int ripple_linux_futex_wake(uint32_t *word, int count) {
    return ripple_result(syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count, (void *)0, (void *)0, 0));
}
#endif
