// For Ripple's tests only: seccomp filters that refuse the operating system facilities Ripple's
// lock may use (membarrier(2), priority-inheritance futexes), so a test can show that a program
// linking Ripple keeps working when the system says no. Linux on x86_64 and arm64; elsewhere every
// function reports ENOSYS.
#ifndef CRIPPLE_SANDBOX_H
#define CRIPPLE_SANDBOX_H

/// The filters `ripple_sandbox_install` can install. Every call not named is allowed.
typedef enum RippleSandboxFilter {
    /// `membarrier` (any command) and the priority-inheritance futex operations fail with EPERM.
    RippleSandboxRefuse = 0,
    /// Only `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)` fails with EPERM: querying and
    /// registering succeed, so a program learns it may use the barrier, then is refused it.
    RippleSandboxRefuseBarrierCommand = 1,
    /// `membarrier` (any command) and the priority-inheritance futex operations kill the process
    /// (SIGSYS), so any use of them, however well handled, shows.
    RippleSandboxKill = 2,
    /// Only the priority-inheritance futex operations kill the process (SIGSYS), as Chromium's
    /// sandbox does; membarrier is allowed.
    RippleSandboxKillPriorityInheritance = 3,
    /// Only `gettid` fails with EPERM.
    RippleSandboxRefuseThreadID = 4,
} RippleSandboxFilter;

/// Installs `filter` for the calling thread, or with `all_threads` for every thread of the process
/// (SECCOMP_FILTER_FLAG_TSYNC). Sets no_new_privs first, so the filter also stays in force across
/// execve. Returns 0, or an errno value (ESRCH: a thread could not be synchronized).
int ripple_sandbox_install(RippleSandboxFilter filter, int all_threads);

/// The membarrier(2) commands the probe issues (the values of linux/membarrier.h).
typedef enum RippleSandboxBarrierCommand {
    RippleSandboxBarrierQuery = 0,
    RippleSandboxBarrierPrivateExpedited = 8,
    RippleSandboxBarrierRegisterPrivateExpedited = 16,
} RippleSandboxBarrierCommand;

/// membarrier(command, 0, 0): its non-negative result, or minus the errno value.
long ripple_sandbox_membarrier(RippleSandboxBarrierCommand command);

/// FUTEX_TRYLOCK_PI, then FUTEX_UNLOCK_PI, on a free word of the caller's stack: 0, or minus the
/// errno value of the first that failed.
int ripple_sandbox_futex_trylock_pi(void);

/// gettid(): the calling thread's ID, or minus the errno value.
long ripple_sandbox_gettid(void);

#endif
