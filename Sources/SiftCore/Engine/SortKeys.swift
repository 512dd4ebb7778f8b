/// The order keys of kept records, column by column: each record's group value (as `group:`
/// orders it, and its bytes) and its `sort:` values. Record `i` of one list is compared with
/// record `j` of another by `compare`.
struct SortKeys {
  let hasGroup: Bool
  let descending: [Bool]
  var group: [SortValue] = []
  var groupBytes: [[UInt8]] = []
  var values: [[SortValue]]

  init(plan: Plan) {
    hasGroup = plan.group != nil
    descending = plan.sort.map(\.descending)
    values = Array(repeating: [], count: descending.count)
  }

  var count: Int { hasGroup ? group.count : (values.first?.count ?? 0) }

  /// Appends the keys of `row`.
  mutating func append(_ row: RowView, access: SourceAccess) {
    if let g = access.group {
      let v = g(row)
      group.append(SortValue(v))
      groupBytes.append(v.isNullLike ? [] : v.decodedBytes())
    }
    for k in 0..<access.sortKeys.count { values[k].append(SortValue(access.sortKeys[k](row))) }
  }

  /// Order of record `i` here and record `j` of `other`: by group value, then its bytes, then
  /// the sort keys; 0 when they tie.
  func compare(_ i: Int, _ other: SortKeys, _ j: Int) -> Int {
    if hasGroup {
      let c = SortValue.compare(group[i], other.group[j], descending: false)
      if c != 0 { return c }
      if groupBytes[i] != other.groupBytes[j] {
        return groupBytes[i].lexicographicallyPrecedes(other.groupBytes[j]) ? -1 : 1
      }
    }
    for k in 0..<descending.count {
      let c = SortValue.compare(values[k][i], other.values[k][j], descending: descending[k])
      if c != 0 { return c }
    }
    return 0
  }

  /// The indices of the records in order, ties in index order (a stable sort).
  func sortedIndices() -> [Int32] {
    var order = Array(0..<Int32(count))
    order.sort { a, b in
      let c = compare(Int(a), self, Int(b))
      return c != 0 ? c < 0 : a < b
    }
    return order
  }

  /// The memory record `i`'s keys hold, for a budget.
  func heldBytes(_ i: Int) -> Int {
    var n = 16 * (values.count + (hasGroup ? 2 : 0))
    if hasGroup { n += groupBytes[i].count + group[i].heldBytes }
    for k in 0..<values.count { n += values[k][i].heldBytes }
    return n
  }

  /// Empties the lists, keeping their storage (a spilled run's reader holds one record).
  mutating func removeAll() {
    group.removeAll(keepingCapacity: true)
    groupBytes.removeAll(keepingCapacity: true)
    for k in 0..<values.count { values[k].removeAll(keepingCapacity: true) }
  }
}

extension SortValue {
  /// Heap bytes the value holds beyond its own size.
  var heldBytes: Int {
    if case .text(let t) = self { return t.count + 32 }
    return 0
  }
}
