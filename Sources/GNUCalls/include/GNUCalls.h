// The C calls sift needs that the Glibc module leaves out (GNU extensions, a builtin): giving
// back part of a file's disk space, for a spilling sort (Docs/Performance.md, Sorting beyond
// memory, Temporary space); counting the cores this process may run on, for the default `-j`
// (Docs/CommandLine.md, Options); and asking for memory before it is read, for --changes's key
// table (Docs/Performance.md, The first run, and runs with many new or gone records).
#ifndef SIFT_GNU_CALLS_H
#define SIFT_GNU_CALLS_H

#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <linux/falloc.h>
#include <sched.h>
#endif

/// Punches a hole over `length` bytes at `offset` of the file `fd`, keeping its size: 0 when the
/// space was given back, -1 where the system or the file system cannot.
static inline int sift_punch_hole(int fd, long long offset, long long length) {
#ifdef __linux__
  return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
#else
  (void)fd;
  (void)offset;
  (void)length;
  return -1;
#endif
}

/// How many cores this process may run on (its affinity mask, as `taskset` or a container's
/// cpuset leaves it, the count `nproc` prints); 0 where the system cannot say.
static inline int sift_usable_cores(void) {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
  return CPU_COUNT(&set);
#else
  return 0;
#endif
}

/// Asks the processor to bring the memory at `address` into its cache: a look-up in a table far
/// larger than the cache then waits less when it comes (a builtin of GCC and Clang).
static inline void sift_prefetch(const void *address) { __builtin_prefetch(address, 1, 3); }

#endif
