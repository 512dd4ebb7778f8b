/// Counts records per group value for `-c` with `group:`, without keeping the records: an
/// open-addressing hash table over the values' bytes, looked up without allocating. Each
/// distinct value has an id, its index in order of first appearance (the order sink keeps
/// a record's group as that id).
struct GroupTally {
  /// Every distinct value's bytes, back to back.
  private var arena: [UInt8] = []
  /// Per distinct value: where its bytes are in `arena`, and its count.
  private var entries: [(start: Int, length: Int, count: Int)] = []
  /// Slots of the hash table: an index into `entries`, or -1.
  private var slots = [Int](repeating: -1, count: 64)

  /// Counts one record with group value `v` (empty, missing and null values are one group);
  /// returns the value's id.
  @discardableResult
  mutating func add(_ v: FieldValue) -> Int {
    if v.isNullLike { return add(UnsafeBufferPointer(start: nil, count: 0)) }
    if v.isVerbatim { return add(v.content) }
    return v.decodedBytes().withUnsafeBufferPointer { add($0) }
  }

  /// The number of distinct values.
  var count: Int { entries.count }

  /// The decoded bytes of value `id`.
  func value(_ id: Int) -> [UInt8] {
    withValue(id) { Array($0) }
  }

  /// Calls `body` with the decoded bytes of value `id`.
  func withValue<R>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let e = entries[id]
    return arena.withUnsafeBufferPointer {
      body(UnsafeBufferPointer(rebasing: $0[e.start..<(e.start + e.length)]))
    }
  }

  /// The records counted with value `id`.
  func count(_ id: Int) -> Int { entries[id].count }

  /// The id of the value whose decoded bytes are `key`, if it was counted.
  func id(of key: UnsafeBufferPointer<UInt8>) -> Int? {
    let mask = slots.count - 1
    var slot = Self.hash(key) & mask
    while slots[slot] >= 0 {
      if equals(entries[slots[slot]], key) { return slots[slot] }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Adds the counts of another tally.
  mutating func merge(_ other: GroupTally) {
    other.arena.withUnsafeBufferPointer { a in
      for e in other.entries {
        add(UnsafeBufferPointer(rebasing: a[e.start..<(e.start + e.length)]), count: e.count)
      }
    }
  }

  /// Counts `count` records with the value whose decoded bytes are `key`; returns its id.
  @discardableResult
  mutating func add(_ key: UnsafeBufferPointer<UInt8>, count: Int = 1) -> Int {
    let mask = slots.count - 1
    var slot = Self.hash(key) & mask
    while true {
      let e = slots[slot]
      if e < 0 { break }
      if equals(entries[e], key) {
        entries[e].count += count
        return e
      }
      slot = (slot + 1) & mask
    }
    let id = entries.count
    slots[slot] = id
    entries.append((arena.count, key.count, count))
    arena.append(contentsOf: key)
    if entries.count * 2 > slots.count { rehash() }
    return id
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

  /// The same groups and counts with ids in output order: id `i` is the `i`-th group.
  func ranked() -> GroupTally {
    var ranked = GroupTally()
    for g in ordered() { g.value.withUnsafeBufferPointer { _ = ranked.add($0, count: g.count) } }
    return ranked
  }

  /// The groups in output order (Docs/QueryLanguage.md, Directives: by value as `sort:` orders it, then by bytes), each
  /// value's bytes with its count.
  func ordered() -> [(value: [UInt8], count: Int)] {
    order().map { (value($0), entries[$0].count) }
  }

  /// Per id, the value's place in output order.
  func ranks() -> [Int32] {
    var ranks = [Int32](repeating: 0, count: entries.count)
    for (rank, id) in order().enumerated() { ranks[id] = Int32(rank) }
    return ranks
  }

  /// The ids in output order.
  private func order() -> [Int] {
    let values = entries.indices.map(value)
    let keys = values.map { v in
      v.isEmpty ? SortValue.empty : v.withUnsafeBufferPointer { SortValue(decoded: $0) }
    }
    return values.indices.sorted { i, j in
      let c = SortValue.compare(keys[i], keys[j], descending: false)
      if c != 0 { return c < 0 }
      return values[i].lexicographicallyPrecedes(values[j])
    }
  }
}
