// The compiler's atomic builtins for the systems where Swift's `Synchronization` module is
// unavailable (Apple platforms before macOS 15 / iOS 18), also built on Linux with
// `-DRIPPLE_PORTABLE_ATOMICS` so that they are tested there. This header is imported only in those
// builds: on Linux, Windows and Android, importing Ripple never requires this C module (the Linux
// futex functions in CRippleSync.c are declared in Swift, Sync/LinuxFutex.swift). Nothing in it
// runs at load time.
#ifndef CRIPPLE_SYNC_H
#define CRIPPLE_SYNC_H

#include <stdint.h>

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
