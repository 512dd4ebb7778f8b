// GNUCalls is header-only (include/GNUCalls.h); SwiftPM wants one source file in a C target.
#include "GNUCalls.h"
