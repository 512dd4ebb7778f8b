/// A small, fast, seeded pseudo-random generator (SplitMix64): the same seed gives the same
/// sequence on every platform, so generated data is reproducible byte for byte.
struct SplitMix64 {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  @inline(__always)
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0), by multiply-and-shift (a negligible bias for the
  /// small bounds used here).
  @inline(__always)
  mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
  }

  /// A number in `range`.
  @inline(__always)
  mutating func within(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.count)
  }

  /// True with a chance of `percent` in 100.
  @inline(__always)
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
