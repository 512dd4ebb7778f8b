/// Counts records per group for `-c` with `group:` and for summaries, without keeping the
/// records (`GroupIndex` numbers the groups). A group is the value of the one group field, or
/// with `group:a,b` the combination of the fields' values (`GroupKey`). Each distinct group has
/// an id, its index in order of first appearance (the order sink keeps a record's group as that
/// id).
struct GroupTally {
  /// How many fields make a group: 1, or 2 for `group:a,b`.
  let arity: Int
  /// How the group values' numbers are read for their order: `Plan.decimalMark`, a decimal
  /// comma when every input writes one (Docs/Formats.md, Decimal commas).
  let decimalMark: DecimalMark
  /// The distinct groups' keys, numbered: a group's id is its number.
  private var index = GroupIndex()
  private var counts: [Int] = []
  /// How each group field reads its dates, outermost first (Docs/Formats.md, Dates).
  let conventions: [DateConvention]
  /// Per group field, outermost first, whether its values come in descending order
  /// (`Plan.groupDescending`).
  let descending: [Bool]

  init(
    arity: Int = 1, decimalMark: DecimalMark = .point, conventions: [DateConvention] = [],
    descending: [Bool] = []
  ) {
    self.arity = arity
    self.decimalMark = decimalMark
    self.conventions = conventions
    self.descending = descending
  }

  /// No groups yet, ordered as `other` orders them.
  init(orderedAs other: GroupTally) {
    self.init(
      arity: other.arity, decimalMark: other.decimalMark, conventions: other.conventions,
      descending: other.descending)
  }

  /// Counts one record with group key `key` (`GroupKey.withKey`); returns the group's id.
  @discardableResult
  mutating func add(_ key: UnsafeBufferPointer<UInt8>, count: Int = 1) -> Int {
    let (id, new) = index.number(of: key)
    if new { counts.append(0) }
    counts[id] += count
    return id
  }

  /// The number of distinct groups.
  var count: Int { counts.count }

  /// The bytes of every group's key, together.
  var keyBytes: Int { index.keyBytes }

  /// The key of group `id`.
  func key(_ id: Int) -> [UInt8] { Array(index.key(id)) }

  /// The decoded bytes of each field's value of group `id`, outermost first.
  func values(_ id: Int) -> [[UInt8]] {
    index.withKey(id) { GroupKey.parts(of: $0, arity: arity).map { Array($0) } }
  }

  /// Calls `body` with the key of group `id`.
  func withKey<R>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    index.withKey(id, body)
  }

  /// The records counted in group `id`.
  func count(_ id: Int) -> Int { counts[id] }

  /// The id of the group whose key is `key`, if it was counted.
  func id(of key: UnsafeBufferPointer<UInt8>) -> Int? { index.find(key) }

  /// Adds the counts of another tally.
  mutating func merge(_ other: GroupTally) {
    for id in 0..<other.count {
      other.withKey(id) { _ = add($0, count: other.counts[id]) }
    }
  }

  /// The same groups and counts with ids in output order: id `i` is the `i`-th group.
  func ranked() -> GroupTally {
    var ranked = GroupTally(orderedAs: self)
    for id in order() { withKey(id) { _ = ranked.add($0, count: counts[id]) } }
    return ranked
  }

  /// The groups in output order, each group's values (outermost first) with its count.
  func ordered() -> [(values: [[UInt8]], count: Int)] {
    order().map { (values($0), counts[$0]) }
  }

  /// Per id, the group's place in output order.
  func ranks() -> [Int32] {
    var ranks = [Int32](repeating: 0, count: count)
    for (rank, id) in order().enumerated() { ranks[id] = Int32(rank) }
    return ranks
  }

  /// The ids in output order (Docs/QueryLanguage.md, Directives): by the first field's value as
  /// `sort:` orders it (descending where `descending` says), then by its bytes; then the same
  /// for the next field.
  func order() -> [Int] {
    let arity = arity
    let mark = decimalMark
    let descending = (0..<arity).map { $0 < self.descending.count && self.descending[$0] }
    let conventions = (0..<arity).map { $0 < self.conventions.count ? self.conventions[$0] : .iso }
    // Each group's values as `sort:` orders them, `arity` per group, with no allocation per
    // value: a million groups are ordered in a few tens of MB (Docs/Aggregates.md, Memory).
    var keys: [OrderKey] = []
    var folded: [UInt8] = []
    keys.reserveCapacity(count * arity)
    for id in 0..<count {
      index.withKey(id) { key in
        for (f, part) in GroupKey.parts(of: key, arity: arity).enumerated() {
          keys.append(OrderKey(part, conventions[f], folded: &folded, mark: mark))
        }
      }
    }
    return folded.withUnsafeBufferPointer { text in
      var ids = Array(0..<Int32(count))
      ids.sort { i, j in
        for f in 0..<arity {
          let c = keys[Int(i) * arity + f].compare(
            keys[Int(j) * arity + f], text: text, descending: descending[f])
          if c != 0 { return c < 0 }
        }
        return index.withKey(Int(i)) { a in
          index.withKey(Int(j)) { b in GroupKey.precedes(a, b, arity: arity) }
        }
      }
      return ids.map(Int.init)
    }
  }
}

/// A group value's place in `group:` order, as `SortValue` orders it but held in 16 bytes: a
/// text's folded bytes lie in a buffer shared by all values, and so does the exact text of a
/// number its double may not tell apart from another (Docs/QueryLanguage.md, How numbers compare).
private struct OrderKey {
  /// The number's bits, the date, or the start in the buffer of the text or the long number.
  let value: UInt64
  /// The text's length, or the long number's (0 for a number its double orders).
  let length: Int32
  /// 0 numbers, 1 dates, 2 text, 3 empty (`SortValue`'s order).
  let rank: UInt8

  init(
    _ bytes: UnsafeBufferPointer<UInt8>, _ convention: DateConvention, folded: inout [UInt8],
    mark: DecimalMark
  ) {
    guard !bytes.isEmpty else {
      (value, length, rank) = (0, 0, 3)
      return
    }
    switch SortValue(decoded: bytes, mark: mark, convention) {
    case .number(let n): (value, length, rank) = (n.bitPattern, 0, 0)
    case .longNumber(_, let e):
      let text = Array(e.text.utf8)
      (value, length, rank) = (UInt64(folded.count), Int32(text.count), 0)
      folded += text
    case .date(let t): (value, length, rank) = (UInt64(bitPattern: t), 0, 1)
    case .text(let t):
      (value, length, rank) = (UInt64(folded.count), Int32(t.count), 2)
      folded += t
    case .empty: (value, length, rank) = (0, 0, 3)
    }
  }

  /// Three-way order, as `SortValue.compare`: `descending` reverses it within numbers, dates
  /// and text, never the order of the kinds (empty values stay last).
  func compare(_ other: OrderKey, text: UnsafeBufferPointer<UInt8>, descending: Bool) -> Int {
    guard rank == other.rank else { return rank < other.rank ? -1 : 1 }
    let c = compareSameKind(other, text: text)
    return descending ? -c : c
  }

  private func compareSameKind(_ other: OrderKey, text: UnsafeBufferPointer<UInt8>) -> Int {
    switch rank {
    case 0:
      guard length > 0 || other.length > 0 else {
        let (x, y) = (Double(bitPattern: value), Double(bitPattern: other.value))
        return x < y ? -1 : (x > y ? 1 : 0)
      }
      return ExactNumber.compare(exactNumber(text), other.exactNumber(text))
    case 1:
      let (x, y) = (Int64(bitPattern: value), Int64(bitPattern: other.value))
      return x < y ? -1 : (x > y ? 1 : 0)
    case 2:
      let a = UnsafeBufferPointer(rebasing: text[Int(value)..<(Int(value) + Int(length))])
      let b = UnsafeBufferPointer(rebasing: text[Int(other.value)..<(Int(other.value) + Int(other.length))])
      let n = min(a.count, b.count)
      for i in 0..<n where a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
      return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    default: return 0
    }
  }

  /// A number key exactly: its text in the buffer, or the decimal its double was read from.
  private func exactNumber(_ text: UnsafeBufferPointer<UInt8>) -> ExactNumber {
    guard length > 0 else { return ExactNumber(Double(bitPattern: value)) }
    let bytes = UnsafeBufferPointer(rebasing: text[Int(value)..<(Int(value) + Int(length))])
    return ExactNumber(accepted: bytes, mark: .point)
  }
}
