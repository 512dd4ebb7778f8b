import GNUCalls

/// The keys of a `--changes` run by their 64-bit hash: for each, its record in the baseline and
/// in this run (`-1`: none). Open addressing with linear probing over one flat array of 16-byte
/// slots, so a lookup is mostly one cache miss, not a dictionary's hashing of the hash.
struct KeyTable {
  private struct Slot {
    var hash: UInt64 = 0
    var baseline: Int32 = -1
    var current: Int32 = -1
    var isFree: Bool { baseline < 0 && current < 0 }
  }

  private var slots: [Slot]
  private var mask: Int
  private(set) var count = 0

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: Slot(), count: size)
    mask = size - 1
  }

  /// Makes room for one more key: grows the table when it is half full. Called before `slot`
  /// (which only looks, so its `matches` may read what holds the table).
  mutating func makeRoomForOne() {
    if (count + 1) * 2 > slots.count { grow() }
  }

  /// The slot of `hash` whose key `matches`, else a free slot for it (`makeRoomForOne` first).
  func slot(_ hash: UInt64, matches: (_ baseline: Int32, _ current: Int32) -> Bool) -> Int {
    // A full table would be probed forever: a debug build stops here instead.
    assert((count + 1) * 2 <= slots.count, "KeyTable.slot before makeRoomForOne")
    var i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    while !slots[i].isFree {
      if slots[i].hash == hash && matches(slots[i].baseline, slots[i].current) { return i }
      i = (i &+ 1) & mask
    }
    return i
  }

  /// Asks for the memory of `hash`'s first slot ahead of `slot(_:matches:)`, so that the cache
  /// miss of a table far larger than the cache overlaps the work done before the look-up.
  @inline(__always)
  func prefetch(_ hash: UInt64) {
    let i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    slots.withUnsafeBufferPointer { sift_prefetch($0.baseAddress.map { UnsafeRawPointer($0 + i) }) }
  }

  /// The baseline and current records at `slot`.
  func records(at slot: Int) -> (baseline: Int32, current: Int32) {
    (slots[slot].baseline, slots[slot].current)
  }

  mutating func setBaseline(_ record: Int32, hash: UInt64, at slot: Int) {
    if slots[slot].isFree { count += 1 }
    slots[slot].hash = hash
    slots[slot].baseline = record
  }

  mutating func setCurrent(_ record: Int32, hash: UInt64, at slot: Int) {
    if slots[slot].isFree { count += 1 }
    slots[slot].hash = hash
    slots[slot].current = record
  }

  /// Makes room for `capacity` keys in all, so that the table does not grow before.
  mutating func reserve(_ capacity: Int) {
    if capacity * 2 > slots.count { rehash(capacity: capacity) }
  }

  private mutating func grow() { rehash(capacity: slots.count) }

  private mutating func rehash(capacity: Int) {
    let old = slots
    self = KeyTable(capacity: capacity)
    for s in old where !s.isFree {
      var j = Int(truncatingIfNeeded: s.hash ^ (s.hash >> 29)) & mask
      while !slots[j].isFree { j = (j &+ 1) & mask }
      slots[j] = s
      count += 1
    }
  }
}
