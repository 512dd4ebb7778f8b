/// Whether the `count` bytes at `x` and at `y` are the same, a word at a time (the last word
/// overlapping the one before it rather than going byte by byte: no loop whose length depends
/// on the count's last three bits, whose branch a run of keys of varied lengths mispredicts).
@inline(__always)
func sameBytes(_ x: UnsafeRawPointer, _ y: UnsafeRawPointer, count: Int) -> Bool {
  if count >= 8 {
    var k = 0
    while k < count - 8 {
      if x.loadUnaligned(fromByteOffset: k, as: UInt64.self)
        != y.loadUnaligned(fromByteOffset: k, as: UInt64.self)
      { return false }
      k += 8
    }
    return x.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      == y.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
  }
  if count >= 4 {
    return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
      && x.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        == y.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
  }
  for k in 0..<count
  where x.load(fromByteOffset: k, as: UInt8.self) != y.load(fromByteOffset: k, as: UInt8.self) {
    return false
  }
  return true
}

/// Whether `byte` occurs in `bytes`, eight at a time (the last word overlapping the one before
/// it): a value's check for a backslash runs per record and field, over short values.
@inline(__always)
func containsByte(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = bytes.baseAddress else { return false }
  let n = bytes.count
  guard n >= 8 else { return bytes.contains(byte) }
  let raw = UnsafeRawPointer(base)
  let ones: UInt64 = 0x0101_0101_0101_0101
  let pattern = ones &* UInt64(byte)
  @inline(__always) func holds(_ offset: Int) -> Bool {
    let x = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ pattern
    return (x &- ones) & ~x & 0x8080_8080_8080_8080 != 0
  }
  var k = 0
  while k < n - 8 {
    if holds(k) { return true }
    k += 8
  }
  return holds(n - 8)
}
