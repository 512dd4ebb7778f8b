#if canImport(Glibc)
  import Glibc
#endif

/// Milliseconds on the monotonic clock, for pauses and progress (never the wall time).
public enum MonotonicClock {
  public static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
  }
}
