import SiftCLI

#if os(Linux)
  /// glibc's `mallopt(3)` (declared in `malloc.h`, which the Glibc module does not include).
  @_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
  let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
  let mapThreshold: Int32 = -3  // M_MMAP_THRESHOLD

  // A run allocates and frees chunks and their field spans all along. By default glibc
  // maps each such block fresh from the kernel and unmaps it when freed (or trims the heap), so
  // every page of every chunk is faulted in anew; keeping freed memory for the next chunks
  // saves that (Docs/Performance.md, Memory kept for the next chunk).
  _ = mallopt(mapThreshold, 32 << 20)
  _ = mallopt(trimThreshold, 32 << 20)
#endif

exitProcess(SiftCLI.main())
