/// Numbers distinct group values 0, 1, 2… in first-seen order: an open-addressing hash table
/// over the values' bytes, looked up without allocating. The tally, the order sink's group ids
/// and the summary's groups all number their values with it.
struct GroupIndex {
  /// Every distinct value's bytes, back to back, and where each one starts (and, after the
  /// last, the end).
  private var arena: [UInt8] = []
  private var starts: [Int] = [0]
  /// Slots of the hash table: a group number, or -1 (4 bytes: a table has at least twice as
  /// many slots as groups).
  private var slots = [Int32](repeating: -1, count: 64)

  var count: Int { starts.count - 1 }

  /// The bytes of every key, together.
  var keyBytes: Int { arena.count }

  /// The bytes of group `g`.
  func key(_ g: Int) -> ArraySlice<UInt8> { arena[starts[g]..<starts[g + 1]] }

  /// Calls `body` with the bytes of group `g`.
  func withKey<R>(_ g: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[starts[g]..<starts[g + 1]])) }
  }

  /// The number of the group with value `key`, if there is one.
  func find(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
    let slot = self.slot(of: key)
    return slots[slot] >= 0 ? Int(slots[slot]) : nil
  }

  /// The number of the group with value `key`, adding it when it is new.
  mutating func number(of key: UnsafeBufferPointer<UInt8>) -> (group: Int, new: Bool) {
    let slot = self.slot(of: key)
    if slots[slot] >= 0 { return (Int(slots[slot]), false) }
    let g = count
    slots[slot] = Int32(g)
    arena.append(contentsOf: key)
    starts.append(arena.count)
    if count * 2 > slots.count { rehash() }
    return (g, true)
  }

  /// The slot holding `key`'s group, or the empty slot where it would go.
  private func slot(of key: UnsafeBufferPointer<UInt8>) -> Int {
    let mask = slots.count - 1
    var slot = Self.hash(key) & mask
    while slots[slot] >= 0 && !equals(Int(slots[slot]), key) { slot = (slot + 1) & mask }
    return slot
  }

  private func equals(_ g: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = starts[g]
    guard starts[g + 1] - start == key.count else { return false }
    guard let k = key.baseAddress else { return true }
    return arena.withUnsafeBytes { a in sameBytes(a.baseAddress! + start, k, count: key.count) }
  }

  private mutating func rehash() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    arena.withUnsafeBufferPointer { a in
      for g in 0..<count {
        var slot = Self.hash(UnsafeBufferPointer(rebasing: a[starts[g]..<starts[g + 1]])) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(g)
      }
    }
  }

  /// The bytes taken eight at a time, the last word overlapping the one before it (a key of 4
  /// to 7 bytes as two overlapping halves, a shorter one as its first, middle and last bytes),
  /// each word multiplied in and mixed with the length, then MurmurHash3's finalizer, so that the
  /// low bits the table uses depend on every byte. No loop runs byte by byte: its length would
  /// vary from record to record and its branch be mispredicted.
  private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    let bytes = UnsafeRawBufferPointer(key)
    let n = bytes.count
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(n)
    let last: UInt64
    if n >= 8 {
      var i = 0
      while i < n - 8 {
        h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        i += 8
      }
      last = bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    } else if n >= 4 {
      last = UInt64(bytes.loadUnaligned(as: UInt32.self)) << 32
        | UInt64(bytes.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
    } else if n > 0 {
      last = UInt64(bytes[0]) << 16 | UInt64(bytes[n / 2]) << 8 | UInt64(bytes[n - 1])
    } else {
      last = 0
    }
    h = (h ^ last) &* 0x9E37_79B9_7F4A_7C15
    h ^= h >> 33
    h = h &* 0xff51_afd7_ed55_8ccd
    h ^= h >> 33
    h = h &* 0xc4ce_b9fe_1a85_ec53
    h ^= h >> 33
    return Int(truncatingIfNeeded: h)
  }
}
