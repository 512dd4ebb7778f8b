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
    var i = firstSlot(hash)
    while true {
      switch probe(i, hash) {
      case .free: return i
      case .same(let b, let c): if matches(b, c) { return i }
      case .other: break
      }
      i = following(i)
    }
  }

  /// What slot `i` holds, for a caller that probes the slots of `hash` itself (`firstSlot`,
  /// then `following` until `.free` or a `.same` whose key matches), with no closure to capture
  /// what holds the table.
  enum Probe {
    /// No key: `hash`'s key is not in the table, and goes here.
    case free
    /// Another hash's key.
    case other
    /// A key with this hash, and its records.
    case same(baseline: Int32, current: Int32)
  }

  /// The slot where the probe for `hash` starts.
  @inline(__always)
  func firstSlot(_ hash: UInt64) -> Int {
    // A full table would be probed forever: a debug build stops here instead.
    assert((count + 1) * 2 <= slots.count, "KeyTable.firstSlot before makeRoomForOne")
    return Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
  }

  @inline(__always)
  func probe(_ i: Int, _ hash: UInt64) -> Probe {
    let slot = slots[i]
    if slot.isFree { return .free }
    return slot.hash == hash ? .same(baseline: slot.baseline, current: slot.current) : .other
  }

  @inline(__always)
  func following(_ i: Int) -> Int { (i &+ 1) & mask }

  /// Asks for the memory of `hash`'s first slot ahead of `slot(_:matches:)`, so that the cache
  /// miss of a table far larger than the cache overlaps the work done before the look-up.
  /// Mutating only so that it is called on the table in place: called on a copy (from a
  /// closure that captures what holds the table), it retains and releases the slots each time.
  @inline(__always)
  mutating func prefetch(_ hash: UInt64) {
    let i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    slots.withUnsafeMutableBufferPointer {
      sift_prefetch($0.baseAddress.map { UnsafeRawPointer($0 + i) })
    }
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
