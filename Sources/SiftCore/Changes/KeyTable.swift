import GNUCalls

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The keys of a `--changes` run by their 64-bit hash: for each, its record in the baseline and
/// in this run (`-1`: none). Open addressing with linear probing over one flat array of 16-byte
/// slots, so a lookup is mostly one cache miss, not a dictionary's hashing of the hash.
///
/// The slots are memory the system hands over zeroed as it is first touched (a free slot is all
/// zeros), in huge pages where it gives them: a table of a million keys is not written through
/// before its first key goes in, and its look-ups miss the address cache less
/// (Docs/Performance.md, "A first run's rows written in the parts"). A table is not copied to be
/// changed apart: copies share their slots.
struct KeyTable {
  /// A slot: its records one more than their numbers, so that 0 is none and a free slot is
  /// zeroed memory.
  fileprivate struct Slot {
    var hash: UInt64
    var baselinePlusOne: Int32
    var currentPlusOne: Int32
    var isFree: Bool { baselinePlusOne == 0 && currentPlusOne == 0 }
  }

  private var slots: ZeroedSlots
  private var mask: Int
  private(set) var count = 0

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = ZeroedSlots(count: size)
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
    let slot = slots.base[i]
    if slot.isFree { return .free }
    guard slot.hash == hash else { return .other }
    return .same(baseline: slot.baselinePlusOne &- 1, current: slot.currentPlusOne &- 1)
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
    sift_prefetch(UnsafeRawPointer(slots.base + i))
  }

  mutating func setBaseline(_ record: Int32, hash: UInt64, at slot: Int) {
    let s = slots.base + slot
    if s.pointee.isFree { count += 1 }
    s.pointee.hash = hash
    s.pointee.baselinePlusOne = record &+ 1
  }

  mutating func setCurrent(_ record: Int32, hash: UInt64, at slot: Int) {
    let s = slots.base + slot
    if s.pointee.isFree { count += 1 }
    s.pointee.hash = hash
    s.pointee.currentPlusOne = record &+ 1
  }

  /// Makes every key's record of this run its baseline record: the table of the run that read
  /// a baseline, taken as that baseline's table by the run compared with it. A pass over the
  /// slots in order, with no key hashed or probed.
  mutating func makeCurrentTheBaseline() {
    for i in 0..<slots.count where slots.base[i].currentPlusOne != 0 {
      slots.base[i].baselinePlusOne = slots.base[i].currentPlusOne
      slots.base[i].currentPlusOne = 0
    }
  }

  /// Makes room for `capacity` keys in all, so that the table does not grow before.
  mutating func reserve(_ capacity: Int) {
    if capacity * 2 > slots.count { rehash(capacity: capacity) }
  }

  private mutating func grow() { rehash(capacity: slots.count) }

  private mutating func rehash(capacity: Int) {
    let old = slots
    self = KeyTable(capacity: capacity)
    for i in 0..<old.count where !old.base[i].isFree {
      let s = old.base[i]
      var j = Int(truncatingIfNeeded: s.hash ^ (s.hash >> 29)) & mask
      while !slots.base[j].isFree { j = (j &+ 1) & mask }
      slots.base[j] = s
      count += 1
    }
  }
}

/// `KeyTable`'s slots, all free at first: from 2 MiB on, memory mapped for them, which the
/// system zeroes as it is first touched (in huge pages where it gives them, Linux's
/// `MADV_HUGEPAGE`); a smaller table's (or where mapping fails) allocated and zeroed here.
private final class ZeroedSlots {
  let base: UnsafeMutablePointer<KeyTable.Slot>
  let count: Int
  /// The bytes mapped, 0 when the slots were allocated.
  private let mapped: Int

  init(count: Int) {
    self.count = count
    let bytes = count * MemoryLayout<KeyTable.Slot>.stride
    if bytes >= 2 << 20,
      let region = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      region != MAP_FAILED
    {
      #if os(Linux)
        _ = madvise(region, bytes, MADV_HUGEPAGE)
      #endif
      base = region.bindMemory(to: KeyTable.Slot.self, capacity: count)
      mapped = bytes
    } else {
      base = .allocate(capacity: count)
      base.initialize(
        repeating: KeyTable.Slot(hash: 0, baselinePlusOne: 0, currentPlusOne: 0), count: count)
      mapped = 0
    }
  }

  deinit {
    if mapped > 0 { munmap(base, mapped) } else { base.deallocate() }
  }
}
