// Everything in this module is in its header (static inline atomics); a C target needs one source
// file.
#include "CRippleSync.h"
