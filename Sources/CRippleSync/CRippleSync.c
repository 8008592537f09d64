// Linux's futex calls and the thread's kernel ID, for the Swift lock (Sync/LinuxFutex.swift).
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

// Real thread IDs are below PID_MAX_LIMIT (2^22: `pid_max` can be set no higher), so an ID from
// here up to the futex word's owner mask (2^30 - 1) is never a thread's: a synthetic owner for a
// thread whose `gettid(2)` was refused. Must match `Lock.firstSyntheticOwner` in Sync/Lock.swift.
#define RIPPLE_FIRST_SYNTHETIC_ID 0x00400000u
#define RIPPLE_SYNTHETIC_ID_COUNT (0x40000000u - RIPPLE_FIRST_SYNTHETIC_ID)

/// How many synthetic IDs have been handed out (zero-initialized data: nothing runs at load).
static uint32_t ripple_synthetic_ids_issued = 0;

/// The calling thread's kernel thread ID (what `gettid(2)` returns), never 0: asked of the kernel
/// once per thread, then kept in a thread-local variable.
///
/// If the kernel refuses `gettid` (a seccomp policy answering -1 with EPERM or ENOSYS) or answers
/// something no thread ID can be, the thread gets a synthetic ID instead: the next of a
/// process-wide counter, at or above RIPPLE_FIRST_SYNTHETIC_ID — never 0, never with the futex
/// waiters or owner-died bits, never any thread's real ID, and unique among the process's threads
/// (it repeats only after 2^30 - 2^22 refused threads). The lock sees the range and uses plain
/// futexes for such an owner: priority-inheriting futexes need the real ID (the kernel writes it).
uint32_t ripple_linux_thread_id(void) {
    uint32_t id = ripple_cached_thread_id;
    if (id != 0) {
        return id;
    }
    (void)pthread_once(&ripple_fork_handler_once, ripple_register_fork_handler);
    long answered = syscall(SYS_gettid);
    if (answered > 0 && answered < (long)RIPPLE_FIRST_SYNTHETIC_ID) {
        id = (uint32_t)answered;
    } else {
        uint32_t issued = __atomic_fetch_add(&ripple_synthetic_ids_issued, 1, __ATOMIC_RELAXED);
        id = RIPPLE_FIRST_SYNTHETIC_ID + issued % RIPPLE_SYNTHETIC_ID_COUNT;
    }
    ripple_cached_thread_id = id;
    return id;
}

/// `errno` after a system call that returned -1, or 0.
static int ripple_result(long returned) {
    return returned == -1 ? errno : 0;
}

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

/// Whether this kernel lacks FUTEX_LOCK_PI2 (set on its first ENOSYS or EINVAL; zero-initialized
/// data, so nothing runs at load).
static int ripple_lock_pi2_missing = 0;

/// Takes the priority-inheriting lock on `word`, sleeping at most `timeout_ms`. Returns 0 or the
/// `errno`.
///
/// FUTEX_LOCK_PI2 (Linux 5.14) takes its absolute deadline on CLOCK_MONOTONIC, which a change of
/// the wall clock does not move. Where the kernel lacks it (ENOSYS, or EINVAL from kernels that do
/// not know the operation) — or a seccomp policy written before it refuses it (EPERM) while it
/// may still allow FUTEX_LOCK_PI — this falls back, for the rest of the process, to
/// FUTEX_LOCK_PI, whose deadline can only be on CLOCK_REALTIME: a wall-clock jump then stretches
/// or shortens that one sleep (the lock re-reads the word after every sleep, so it costs a delay,
/// never a hang or a lost lock). An EINVAL that really meant "inconsistent word" comes back from
/// FUTEX_LOCK_PI too, and the lock then takes the plain futex path, as before.
int ripple_linux_futex_lock_pi(uint32_t *word, int timeout_ms) {
    if (!__atomic_load_n(&ripple_lock_pi2_missing, __ATOMIC_RELAXED)) {
        struct timespec deadline;
        if (clock_gettime(CLOCK_MONOTONIC, &deadline) != 0) {
            return errno;
        }
        deadline.tv_nsec += (long)timeout_ms * 1000000L;
        deadline.tv_sec += deadline.tv_nsec / 1000000000L;
        deadline.tv_nsec %= 1000000000L;
        int result = ripple_result(
            syscall(SYS_futex, word, FUTEX_LOCK_PI2 | FUTEX_PRIVATE_FLAG, 0, &deadline, (void *)0, 0));
        if (result != ENOSYS && result != EINVAL && result != EPERM) {
            return result;
        }
        __atomic_store_n(&ripple_lock_pi2_missing, 1, __ATOMIC_RELAXED);
    }
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
/// Returns 0 (however many were woken) or the `errno`.
int ripple_linux_futex_wake(uint32_t *word, int count) {
    return ripple_result(syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count, (void *)0, (void *)0, 0));
}
#endif
