#include "CRippleSync.h"

#if defined(__linux__)
#include <linux/membarrier.h>

int ripple_membarrier_registered = 0;

/// Registers the process for expedited private memory barriers before `main` (and before any other
/// code of the library can run, when it is loaded later), so the choice the lock's two sides make
/// from `ripple_membarrier_ready()` is the same for every thread and never changes.
__attribute__((constructor)) static void ripple_register_membarrier(void) {
#if defined(__NR_membarrier)
    long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (supported < 0 || !(supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
        return;
    }
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        __atomic_store_n(&ripple_membarrier_registered, 1, __ATOMIC_RELAXED);
    }
#endif
}

void ripple_heavy_barrier(void) {
#if defined(__NR_membarrier)
    if (ripple_membarrier_ready()) {
        // Cannot fail once registered; if it ever did, the unlocking side's compiler barrier would
        // not be enough, so stop rather than risk a thread sleeping forever.
        if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) {
            __builtin_trap();
        }
        return;
    }
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#endif
