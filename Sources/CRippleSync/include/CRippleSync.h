// Ripple's only C: the operating system's wait-on-address calls, which Swift cannot call directly on
// Linux (syscall(2) is variadic), and the compiler's atomic builtins for the systems where Swift's
// `Synchronization` module is unavailable (Apple platforms before macOS 15 / iOS 18). Static inline,
// so Swift inlines them — except the two functions of the lock's barrier pair on Linux, in
// CRippleSync.c with the registration they need.
#ifndef CRIPPLE_SYNC_H
#define CRIPPLE_SYNC_H

#include <stdint.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Sleeps while `*word == expected` (returns at once otherwise, or spuriously).
static inline void ripple_wait_on_address(uint32_t *word, uint32_t expected) {
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, (void *)0, (void *)0, 0);
}

/// Wakes one thread sleeping on `word`.
static inline void ripple_wake_one(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, (void *)0, (void *)0, 0);
}

// The lock's asymmetric barrier pair (see `Lock` in the Swift sources). Unlocking is a plain store
// followed by a read of the sleeper count, with only a compiler barrier between them; a thread about
// to sleep pays instead, with a `membarrier(2)` that makes every running thread of the process
// execute a full barrier. If the kernel cannot do that for this process (older than Linux 4.14, or
// the system call filtered), both sides use a full fence.

/// Whether the process is registered for `MEMBARRIER_CMD_PRIVATE_EXPEDITED` (decided once, before
/// `main`, by a constructor in CRippleSync.c; never changes after).
static inline int ripple_membarrier_ready(void) {
    extern int ripple_membarrier_registered;
    return __atomic_load_n(&ripple_membarrier_registered, __ATOMIC_RELAXED);
}

/// The unlocking side: orders the preceding store before the following load.
static inline void ripple_light_barrier(int membarrier_ready) {
    if (membarrier_ready) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
}

/// The sleeping side: a full barrier on every running thread of the process.
void ripple_heavy_barrier(void);
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
