// Gives back part of a file's disk space: the one C call sift needs that the Glibc module leaves
// out (fallocate is a GNU extension). Used by a spilling sort (Docs/Performance.md, Sorting
// beyond memory, Temporary space).
#ifndef SIFT_FILE_SPACE_H
#define SIFT_FILE_SPACE_H

#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <linux/falloc.h>
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

#endif
