// Ripple's only C: the operating system's wait-on-address calls, which Swift cannot call directly on
// Linux (syscall(2) is variadic). Static inline, so nothing is linked and Swift inlines them.
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
#endif

#endif
