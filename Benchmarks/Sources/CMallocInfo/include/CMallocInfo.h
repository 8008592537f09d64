#ifndef CMALLOCINFO_H
#define CMALLOCINFO_H
#include <stddef.h>

/// Bytes currently allocated through malloc, or -1 where the C library cannot tell.
long ripple_heap_in_use(void);

#endif
