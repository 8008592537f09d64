// Ripple's only C: the operating system's futex calls, which Swift cannot call directly on Linux
// (syscall(2) is variadic), and the compiler's atomic builtins for the systems where Swift's
// `Synchronization` module is unavailable (Apple platforms before macOS 15 / iOS 18). Nothing in it
// runs at load time: no constructors, no system calls before the first lock that has to wait.
#ifndef CRIPPLE_SYNC_H
#define CRIPPLE_SYNC_H

#include <stdint.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The calling thread's kernel ID, cached after the first call (and forgotten in a forked child).
extern __thread uint32_t ripple_cached_thread_id;
uint32_t ripple_thread_id_slow(void);

/// The calling thread's kernel thread ID (what `gettid(2)` returns), never 0: the owner a futex
/// lock's word holds.
static inline uint32_t ripple_thread_id(void) {
    uint32_t id = ripple_cached_thread_id;
    return id != 0 ? id : ripple_thread_id_slow();
}

// Each call below returns 0, or the `errno` the kernel answered with (a seccomp filter may answer
// any of them with EPERM or ENOSYS: the Swift side falls back rather than trapping).

/// `FUTEX_LOCK_PI` (priority-inheriting lock) on `word`, sleeping at most `timeout_ms`.
int ripple_futex_lock_pi(uint32_t *word, int timeout_ms);
/// `FUTEX_UNLOCK_PI`: hands `word` to its highest-priority sleeper.
int ripple_futex_unlock_pi(uint32_t *word);
/// `FUTEX_WAIT`: sleeps while `*word == expected`, at most `timeout_ms` (forever if negative).
int ripple_futex_wait(uint32_t *word, uint32_t expected, int timeout_ms);
/// `FUTEX_WAKE`: wakes up to `count` threads sleeping in `ripple_futex_wait` on `word`.
int ripple_futex_wake(uint32_t *word, int count);
#endif

/// A full memory fence.
static inline void ripple_full_fence(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// Atomic operations on a word the caller allocated (so its address is stable), for the Swift side's
// portable `AtomicCell`. `order` and `failure` are the compiler's memory orders, whose values the
// Swift side passes as numbers (checked here); once inlined they are constants.
_Static_assert(__ATOMIC_RELAXED == 0 && __ATOMIC_ACQUIRE == 2 && __ATOMIC_RELEASE == 3
                   && __ATOMIC_ACQ_REL == 4 && __ATOMIC_SEQ_CST == 5,
               "AtomicCell passes the compiler's memory orders as these numbers");

#define RIPPLE_ATOMIC_FUNCTIONS(SUFFIX, TYPE)                                                          \
    static inline TYPE ripple_atomic_load_##SUFFIX(TYPE *cell, int order) {                            \
        return __atomic_load_n(cell, order);                                                           \
    }                                                                                                  \
    static inline void ripple_atomic_store_##SUFFIX(TYPE *cell, TYPE value, int order) {               \
        __atomic_store_n(cell, value, order);                                                          \
    }                                                                                                  \
    static inline TYPE ripple_atomic_exchange_##SUFFIX(TYPE *cell, TYPE value, int order) {            \
        return __atomic_exchange_n(cell, value, order);                                                \
    }                                                                                                  \
    /* Returns the value found: equal to `expected` exactly when `desired` was stored. */              \
    static inline TYPE ripple_atomic_compare_exchange_##SUFFIX(                                        \
        TYPE *cell, TYPE expected, TYPE desired, int order, int failure) {                             \
        __atomic_compare_exchange_n(cell, &expected, desired, 0, order, failure);                      \
        return expected;                                                                               \
    }                                                                                                  \
    static inline TYPE ripple_atomic_fetch_add_##SUFFIX(TYPE *cell, TYPE operand, int order) {         \
        return __atomic_fetch_add(cell, operand, order);                                               \
    }                                                                                                  \
    static inline TYPE ripple_atomic_fetch_sub_##SUFFIX(TYPE *cell, TYPE operand, int order) {         \
        return __atomic_fetch_sub(cell, operand, order);                                               \
    }

RIPPLE_ATOMIC_FUNCTIONS(8, uint8_t)
RIPPLE_ATOMIC_FUNCTIONS(32, uint32_t)
RIPPLE_ATOMIC_FUNCTIONS(64, uint64_t)
RIPPLE_ATOMIC_FUNCTIONS(word, uintptr_t)

#undef RIPPLE_ATOMIC_FUNCTIONS

#endif
