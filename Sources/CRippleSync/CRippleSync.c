#include "CRippleSync.h"
