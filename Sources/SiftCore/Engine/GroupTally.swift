/// Counts records per group value for `-c` with `group:`, without keeping the records: an
/// open-addressing hash table over the values' bytes, looked up without allocating.
struct GroupTally {
  /// Every distinct value's bytes, back to back.
  private var arena: [UInt8] = []
  /// Per distinct value: where its bytes are in `arena`, and its count.
  private var entries: [(start: Int, length: Int, count: Int)] = []
  /// Slots of the hash table: an index into `entries`, or -1.
  private var slots = [Int](repeating: -1, count: 64)

  /// Counts one record with group value `v` (empty, missing and null values are one group).
  mutating func add(_ v: FieldValue) {
    if v.isNullLike { return add(UnsafeBufferPointer(start: nil, count: 0)) }
    if v.isVerbatim { return add(v.content) }
    v.decodedBytes().withUnsafeBufferPointer { add($0) }
  }

  /// Counts one record whose group value's decoded bytes are `key`.
  mutating func add(bytes key: [UInt8]) {
    key.withUnsafeBufferPointer { add($0) }
  }

  /// The count of the group whose value's decoded bytes are `key`.
  func count(of key: [UInt8]) -> Int {
    key.withUnsafeBufferPointer { k in
      let mask = slots.count - 1
      var slot = Self.hash(k) & mask
      while slots[slot] >= 0 {
        let e = entries[slots[slot]]
        if equals(e, k) { return e.count }
        slot = (slot + 1) & mask
      }
      return 0
    }
  }

  /// Adds the counts of another tally.
  mutating func merge(_ other: GroupTally) {
    other.arena.withUnsafeBufferPointer { a in
      for e in other.entries {
        add(UnsafeBufferPointer(rebasing: a[e.start..<(e.start + e.length)]), count: e.count)
      }
    }
  }

  private mutating func add(_ key: UnsafeBufferPointer<UInt8>, count: Int = 1) {
    let mask = slots.count - 1
    var slot = Self.hash(key) & mask
    while true {
      let e = slots[slot]
      if e < 0 { break }
      if equals(entries[e], key) {
        entries[e].count += count
        return
      }
      slot = (slot + 1) & mask
    }
    slots[slot] = entries.count
    entries.append((arena.count, key.count, count))
    arena.append(contentsOf: key)
    if entries.count * 2 > slots.count { rehash() }
  }

  private func equals(_ e: (start: Int, length: Int, count: Int), _ key: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard e.length == key.count else { return false }
    return arena.withUnsafeBufferPointer { a in
      for i in 0..<key.count where a[e.start + i] != key[i] { return false }
      return true
    }
  }

  private mutating func rehash() {
    slots = [Int](repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for (index, e) in entries.enumerated() {
      var slot =
        arena.withUnsafeBufferPointer {
          Self.hash(UnsafeBufferPointer(rebasing: $0[e.start..<(e.start + e.length)]))
        } & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = index
    }
  }

  /// FNV-1a over the bytes.
  private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in key { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return Int(truncatingIfNeeded: h ^ (h >> 29))
  }

  /// The groups in output order (Docs/QueryLanguage.md, Directives: by value as `sort:` orders it, then by bytes), each
  /// value's bytes with its count.
  func ordered() -> [(value: [UInt8], count: Int)] {
    let groups = entries.map { e in
      (value: Array(arena[e.start..<(e.start + e.length)]), count: e.count)
    }
    let keys = groups.map { g in
      g.value.isEmpty
        ? SortValue.empty
        : g.value.withUnsafeBufferPointer { SortValue(decoded: $0) }
    }
    let order = groups.indices.sorted { i, j in
      let c = SortValue.compare(keys[i], keys[j], descending: false)
      if c != 0 { return c < 0 }
      return groups[i].value.lexicographicallyPrecedes(groups[j].value)
    }
    return order.map { groups[$0] }
  }
}
