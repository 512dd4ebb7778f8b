/// Counts records per group value for `-c` with `group:` and for summaries, without keeping the
/// records (`GroupIndex` numbers the values). Each distinct value has an id, its index in order
/// of first appearance (the order sink keeps a record's group as that id).
struct GroupTally {
  /// The distinct values, numbered: a value's id is its number.
  private var index = GroupIndex()
  private var counts: [Int] = []

  /// Counts one record with group value `v` (empty, missing and null values are one group);
  /// returns the value's id.
  @discardableResult
  mutating func add(_ v: FieldValue) -> Int {
    if v.isNullLike { return add(UnsafeBufferPointer(start: nil, count: 0)) }
    if v.isVerbatim { return add(v.content) }
    return v.decodedBytes().withUnsafeBufferPointer { add($0) }
  }

  /// The number of distinct values.
  var count: Int { counts.count }

  /// The decoded bytes of value `id`.
  func value(_ id: Int) -> [UInt8] { Array(index.key(id)) }

  /// Calls `body` with the decoded bytes of value `id`.
  func withValue<R>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    index.withKey(id, body)
  }

  /// The records counted with value `id`.
  func count(_ id: Int) -> Int { counts[id] }

  /// The id of the value whose decoded bytes are `key`, if it was counted.
  func id(of key: UnsafeBufferPointer<UInt8>) -> Int? { index.find(key) }

  /// Adds the counts of another tally.
  mutating func merge(_ other: GroupTally) {
    for id in 0..<other.count {
      other.withValue(id) { _ = add($0, count: other.counts[id]) }
    }
  }

  /// Counts `count` records with the value whose decoded bytes are `key`; returns its id.
  @discardableResult
  mutating func add(_ key: UnsafeBufferPointer<UInt8>, count: Int = 1) -> Int {
    let (id, new) = index.number(of: key)
    if new { counts.append(0) }
    counts[id] += count
    return id
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
    order().map { (value($0), counts[$0]) }
  }

  /// Per id, the value's place in output order.
  func ranks() -> [Int32] {
    var ranks = [Int32](repeating: 0, count: count)
    for (rank, id) in order().enumerated() { ranks[id] = Int32(rank) }
    return ranks
  }

  /// The ids in output order.
  func order() -> [Int] {
    let values = (0..<count).map(value)
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
