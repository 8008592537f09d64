#include "CRippleSandbox.h"

#include <errno.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <stddef.h>
#include <stdint.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define SANDBOX_ARCH AUDIT_ARCH_X86_64
#else
#define SANDBOX_ARCH AUDIT_ARCH_AARCH64
#endif

// Older headers lack these.
#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif
#ifndef FUTEX_CMD_MASK
#define FUTEX_CMD_MASK ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif

_Static_assert((int)RippleSandboxBarrierQuery == (int)MEMBARRIER_CMD_QUERY
                   && (int)RippleSandboxBarrierPrivateExpedited == (int)MEMBARRIER_CMD_PRIVATE_EXPEDITED
                   && (int)RippleSandboxBarrierRegisterPrivateExpedited
                          == (int)MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED,
               "the header's membarrier commands are the kernel's");

// The low 32 bits of a system call argument (both architectures are little-endian). The kernel
// reads membarrier's command and futex's operation as an int, so the low half is what it acts on.
#define ARG_LOW(index) ((uint32_t)(offsetof(struct seccomp_data, args) + 8 * (index)))

#define LOAD(offset) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (offset))
#define RETURN(action) BPF_STMT(BPF_RET | BPF_K, (action))
#define IF_EQUAL(value, skip_if_true, skip_if_false)                                                   \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (value), (skip_if_true), (skip_if_false))

#define ALLOW SECCOMP_RET_ALLOW
#define REFUSE (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define KILL SECCOMP_RET_KILL_PROCESS

// Every program starts the same way: a call made under another architecture's numbering (or, on
// x86_64, the x32 one) cannot be told apart by number, so it gets the filter's action.
#if defined(__x86_64__)
#define PROLOGUE(action)                                                                               \
    LOAD(offsetof(struct seccomp_data, arch)), IF_EQUAL(SANDBOX_ARCH, 1, 0), RETURN(action),           \
        LOAD(offsetof(struct seccomp_data, nr)),                                                       \
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1), RETURN(action)
#else
#define PROLOGUE(action)                                                                               \
    LOAD(offsetof(struct seccomp_data, arch)), IF_EQUAL(SANDBOX_ARCH, 1, 0), RETURN(action),           \
        LOAD(offsetof(struct seccomp_data, nr))
#endif

// membarrier (any command) and the priority-inheritance futex operations get `action`.
#define BARRIER_AND_PI_FUTEX(action)                                                                   \
    PROLOGUE(action), IF_EQUAL(__NR_membarrier, 0, 1), RETURN(action), IF_EQUAL(__NR_futex, 1, 0),     \
        RETURN(ALLOW), LOAD(ARG_LOW(1)), BPF_STMT(BPF_ALU | BPF_AND | BPF_K, FUTEX_CMD_MASK),          \
        IF_EQUAL(FUTEX_LOCK_PI, 6, 0), IF_EQUAL(FUTEX_UNLOCK_PI, 5, 0),                                \
        IF_EQUAL(FUTEX_TRYLOCK_PI, 4, 0), IF_EQUAL(FUTEX_WAIT_REQUEUE_PI, 3, 0),                       \
        IF_EQUAL(FUTEX_CMP_REQUEUE_PI, 2, 0), IF_EQUAL(FUTEX_LOCK_PI2, 1, 0), RETURN(ALLOW),           \
        RETURN(action)

// Only the priority-inheritance futex operations get `action` (membarrier is allowed).
#define PI_FUTEX(action)                                                                               \
    PROLOGUE(action), IF_EQUAL(__NR_futex, 1, 0), RETURN(ALLOW), LOAD(ARG_LOW(1)),                     \
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, FUTEX_CMD_MASK), IF_EQUAL(FUTEX_LOCK_PI, 6, 0),            \
        IF_EQUAL(FUTEX_UNLOCK_PI, 5, 0), IF_EQUAL(FUTEX_TRYLOCK_PI, 4, 0),                             \
        IF_EQUAL(FUTEX_WAIT_REQUEUE_PI, 3, 0), IF_EQUAL(FUTEX_CMP_REQUEUE_PI, 2, 0),                   \
        IF_EQUAL(FUTEX_LOCK_PI2, 1, 0), RETURN(ALLOW), RETURN(action)

static struct sock_filter refuse[] = {BARRIER_AND_PI_FUTEX(REFUSE)};

static struct sock_filter kill_pi_futex[] = {PI_FUTEX(KILL)};

static struct sock_filter refuse_gettid[] = {
    PROLOGUE(REFUSE),
    IF_EQUAL(__NR_gettid, 0, 1),
    RETURN(REFUSE),
    RETURN(ALLOW),
};

static struct sock_filter kill_process[] = {BARRIER_AND_PI_FUTEX(KILL)};

static struct sock_filter refuse_barrier_command[] = {
    PROLOGUE(REFUSE),
    IF_EQUAL(__NR_membarrier, 1, 0),
    RETURN(ALLOW),
    LOAD(ARG_LOW(0)),
    IF_EQUAL(MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 1),
    RETURN(REFUSE),
    RETURN(ALLOW),
};

int ripple_sandbox_install(RippleSandboxFilter filter, int all_threads) {
    struct sock_fprog program;
    switch (filter) {
    case RippleSandboxRefuse:
        program = (struct sock_fprog){sizeof refuse / sizeof refuse[0], refuse};
        break;
    case RippleSandboxRefuseBarrierCommand:
        program = (struct sock_fprog){sizeof refuse_barrier_command / sizeof refuse_barrier_command[0],
                                      refuse_barrier_command};
        break;
    case RippleSandboxKill:
        program = (struct sock_fprog){sizeof kill_process / sizeof kill_process[0], kill_process};
        break;
    case RippleSandboxKillPriorityInheritance:
        program = (struct sock_fprog){sizeof kill_pi_futex / sizeof kill_pi_futex[0], kill_pi_futex};
        break;
    case RippleSandboxRefuseThreadID:
        program = (struct sock_fprog){sizeof refuse_gettid / sizeof refuse_gettid[0], refuse_gettid};
        break;
    default:
        return EINVAL;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        return errno;
    }
    long result = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                          all_threads ? SECCOMP_FILTER_FLAG_TSYNC : 0, &program);
    if (result < 0) {
        return errno;
    }
    // With TSYNC, a positive result is the id of a thread the filter could not be applied to.
    return result == 0 ? 0 : ESRCH;
}

long ripple_sandbox_membarrier(RippleSandboxBarrierCommand command) {
    long result = syscall(__NR_membarrier, (int)command, 0, 0);
    return result < 0 ? -errno : result;
}

long ripple_sandbox_gettid(void) {
    long result = syscall(SYS_gettid);
    return result < 0 ? -errno : result;
}

int ripple_sandbox_futex_trylock_pi(void) {
    uint32_t word = 0;
    if (syscall(SYS_futex, &word, FUTEX_TRYLOCK_PI_PRIVATE, 0, (void *)0, (void *)0, 0) != 0) {
        return -errno;
    }
    if (syscall(SYS_futex, &word, FUTEX_UNLOCK_PI_PRIVATE, 0, (void *)0, (void *)0, 0) != 0) {
        return -errno;
    }
    return 0;
}

#else

int ripple_sandbox_install(RippleSandboxFilter filter, int all_threads) {
    (void)filter;
    (void)all_threads;
    return ENOSYS;
}

long ripple_sandbox_membarrier(RippleSandboxBarrierCommand command) {
    (void)command;
    return -ENOSYS;
}

int ripple_sandbox_futex_trylock_pi(void) { return -ENOSYS; }

long ripple_sandbox_gettid(void) { return -ENOSYS; }

#endif
