#include "CMallocInfo.h"

#if defined(__linux__)
#include <malloc.h>  /* defines __GLIBC__ on glibc systems */
#endif

#if defined(__GLIBC__)
long ripple_heap_in_use(void) { return (long)mallinfo2().uordblks; }
#else
long ripple_heap_in_use(void) { return -1; }
#endif
