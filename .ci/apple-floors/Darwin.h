// For .ci/check-apple-floors only: the few declarations of Apple's Darwin module that Ripple's core
// uses, with the types and availability Apple's headers give them, so the core can be type-checked
// for macOS without an Apple SDK. Not a build of anything.
typedef __UINT32_TYPE__ uint32_t;
typedef __SIZE_TYPE__ size_t;

typedef struct _opaque_pthread_t *pthread_t;
typedef unsigned long pthread_key_t;
typedef struct { long sig; char opaque[56]; } pthread_mutex_t;
typedef struct { long sig; char opaque[40]; } pthread_cond_t;
typedef struct { long sig; char opaque[56]; } pthread_attr_t;
typedef struct { long sig; char opaque[8]; } pthread_mutexattr_t;
typedef struct { long sig; char opaque[8]; } pthread_condattr_t;
pthread_t pthread_self(void);
int pthread_equal(pthread_t, pthread_t);
int pthread_key_create(pthread_key_t *, void (*)(void *));
void *pthread_getspecific(pthread_key_t);
int pthread_setspecific(pthread_key_t, const void *);
int pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);
int pthread_mutex_destroy(pthread_mutex_t *);
int pthread_cond_init(pthread_cond_t *, const pthread_condattr_t *);
int pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int pthread_cond_signal(pthread_cond_t *);
int pthread_cond_destroy(pthread_cond_t *);
void *pthread_get_stackaddr_np(pthread_t);
size_t pthread_get_stacksize_np(pthread_t);

#define RIPPLE_MACOS(version) __attribute__((availability(macos, introduced = version)))
typedef struct os_unfair_lock_s { uint32_t _os_unfair_lock_opaque; } os_unfair_lock, *os_unfair_lock_t;
void os_unfair_lock_lock(os_unfair_lock_t) RIPPLE_MACOS(10.12);
void os_unfair_lock_unlock(os_unfair_lock_t) RIPPLE_MACOS(10.12);
void os_unfair_lock_assert_owner(const os_unfair_lock *) RIPPLE_MACOS(10.12);

// <sys/qos.h>, <pthread/qos.h>: a thread's quality of service, and overriding another thread's.
typedef enum : unsigned int { QOS_CLASS_UNSPECIFIED = 0 } qos_class_t;
qos_class_t qos_class_self(void) RIPPLE_MACOS(10.10);
typedef struct pthread_override_s *pthread_override_t;
pthread_override_t pthread_override_qos_class_start_np(pthread_t, qos_class_t, int) RIPPLE_MACOS(10.10);
int pthread_override_qos_class_end_np(pthread_override_t) RIPPLE_MACOS(10.10);

void *dlsym(void *, const char *);
typedef long ssize_t;
ssize_t write(int, const void *, size_t);  // <unistd.h>: the core's runtime warnings
size_t strlen(const char *);
void free(void *);
void *malloc(size_t);
size_t malloc_size(const void *);  // <malloc/malloc.h>, every macOS
#define SIGTRAP 5
int raise(int);

// For RippleObservation's symbol lookup (POSIX, on every Apple system).
typedef long off_t;
struct stat { long st_dev; unsigned short st_mode; off_t st_size; char pad[120]; };
int close(int);
int fstat(int, struct stat *);
long sysconf(int);
#define _SC_PAGESIZE 29
#define O_RDONLY 0
#define O_CLOEXEC 0x1000000
#define EINTR 4
#define PROT_READ 1
#define MAP_PRIVATE 2
void *mmap(void *, size_t, int, int, int, off_t);
int munmap(void *, size_t);
