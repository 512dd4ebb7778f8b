// FileSpace is header-only (include/FileSpace.h); SwiftPM wants one source file in a C target.
#include "FileSpace.h"
