/// The order keys of kept records, column by column: each record's group (an id into `groups`,
/// the distinct groups with their counts) and its `sort:` values. Groups compare by their
/// rank in `groupRanks`, set for the records of one run (`rankGroupsAmongThemselves`) or for
/// runs being merged (`rankGroups(by:)`, the same ranking for every run); record `i` of one list
/// is compared with record `j` of another by `compare`.
struct SortKeys {
  let hasGroup: Bool
  let descending: [Bool]
  /// How each sort key reads its dates.
  let conventions: [DateConvention]
  var groupIDs: [Int32] = []
  var groups: GroupTally
  var groupRanks: [Int32] = []
  var values: [[SortValue]]
  /// Where a record's group key is built.
  private var scratch: [UInt8] = []

  init(plan: Plan) {
    hasGroup = !plan.group.isEmpty
    groups = GroupTally(
      arity: plan.group.count, decimalMark: plan.decimalMark,
      conventions: plan.groupConventions, descending: plan.groupDescending)
    descending = plan.sort.map(\.descending)
    // Each part's own zone rules: read for every record (Docs/Performance.md, Sixteen cores).
    conventions = plan.sort.map {
      var convention = plan.convention(of: $0.field)
      convention.zone = convention.zone.unshared()
      return convention
    }
    values = Array(repeating: [], count: descending.count)
  }

  var count: Int { hasGroup ? groupIDs.count : (values.first?.count ?? 0) }

  /// Appends the keys of `row`.
  mutating func append(_ row: RowView, access: SourceAccess) {
    if hasGroup {
      let group = access.group
      let id = GroupKey.withKey(of: row, fields: group, scratch: &scratch) { groups.add($0) }
      groupIDs.append(Int32(id))
    }
    for k in 0..<access.sortKeys.count {
      values[k].append(SortValue(access.sortKeys[k](row), mark: access.layout.decimalMark, conventions[k]))
    }
  }

  /// Whether `row` comes strictly before a record whose sort values are `bar`, by the sort keys
  /// alone (for records without groups); a tie goes to the `bar` record, read earlier.
  func precedes(_ row: RowView, access: SourceAccess, bar: [SortValue]) -> Bool {
    for k in 0..<descending.count {
      let value = SortValue(access.sortKeys[k](row), mark: access.layout.decimalMark, conventions[k])
      let c = SortValue.compare(value, bar[k], descending: descending[k])
      if c != 0 { return c < 0 }
    }
    return false
  }

  /// Record `i`'s sort values.
  func sortValues(of i: Int) -> [SortValue] { values.map { $0[i] } }

  /// The rank of record `i`'s group.
  func groupRank(_ i: Int) -> Int32 { groupRanks[Int(groupIDs[i])] }

  /// Order of record `i` here and record `j` of `other`: by group (as `group:` orders them:
  /// each field's value as `sort:` does, then by bytes), then the sort keys; 0 when they tie.
  /// Inlined, so that a caller holding the keys in a copy (a run of a merge) copies nothing.
  @inline(__always)
  func compare(_ i: Int, _ other: SortKeys, _ j: Int) -> Int {
    if hasGroup {
      let a = groupRank(i)
      let b = other.groupRank(j)
      if a != b { return a < b ? -1 : 1 }
    }
    for k in 0..<descending.count {
      let c = SortValue.compare(values[k][i], other.values[k][j], descending: descending[k])
      if c != 0 { return c }
    }
    return 0
  }

  /// Ranks the groups of these records among themselves.
  mutating func rankGroupsAmongThemselves() {
    groupRanks = groups.ranks()
  }

  /// Ranks the groups by `ranking`, a tally whose ids are ranks, holding every group here.
  mutating func rankGroups(by ranking: GroupTally) {
    groupRanks = (0..<groups.count).map { id in
      Int32(groups.withKey(id) { ranking.id(of: $0) ?? 0 })
    }
  }

  /// The indices of the records in order, ties in index order (a stable sort).
  mutating func sortedIndices() -> [Int32] {
    if hasGroup { rankGroupsAmongThemselves() }
    // A constant, so that no comparison copies the keys (an inout `self` would be).
    let keys = self
    var order = Array(0..<Int32(count))
    order.sort { a, b in
      let c = keys.compare(Int(a), keys, Int(b))
      return c != 0 ? c < 0 : a < b
    }
    return order
  }

  /// The indices of the first `n` records in order (ties in index order), without sorting the
  /// rest: a heap holds the first `n` seen so far with the last of them on top, so each record
  /// costs one comparison unless it displaces that one.
  mutating func firstIndices(_ n: Int) -> [Int32] {
    if hasGroup { rankGroupsAmongThemselves() }
    let keys = self
    func before(_ a: Int32, _ b: Int32) -> Bool {
      let c = keys.compare(Int(a), keys, Int(b))
      return c != 0 ? c < 0 : a < b
    }
    var heap: [Int32] = []
    heap.reserveCapacity(min(n, count))
    for i in 0..<Int32(count) {
      if heap.count < n {
        heap.append(i)
        var j = heap.count - 1
        while j > 0, before(heap[(j - 1) / 2], heap[j]) {
          heap.swapAt(j, (j - 1) / 2)
          j = (j - 1) / 2
        }
      } else if n > 0, before(i, heap[0]) {
        heap[0] = i
        var j = 0
        while true {
          var last = j
          let left = 2 * j + 1
          if left < n, before(heap[last], heap[left]) { last = left }
          if left + 1 < n, before(heap[last], heap[left + 1]) { last = left + 1 }
          if last == j { break }
          heap.swapAt(j, last)
          j = last
        }
      }
    }
    return heap.sorted(by: before)
  }

  /// The memory record `i`'s keys hold, for a budget.
  func heldBytes(_ i: Int) -> Int {
    var n = 16 * values.count + (hasGroup ? 4 : 0)
    for k in 0..<values.count { n += values[k][i].heldBytes }
    return n
  }

  /// Keeps records `indices` (ascending) alone; the groups keep their counts of every record.
  mutating func keepRecords(_ indices: [Int32]) {
    if hasGroup { groupIDs = indices.map { groupIDs[Int($0)] } }
    for k in 0..<values.count { values[k] = indices.map { values[k][Int($0)] } }
  }

  /// Empties the record lists, keeping their storage and the groups (a spilled run's reader
  /// holds one record at a time).
  mutating func removeRecords() {
    groupIDs.removeAll(keepingCapacity: true)
    for k in 0..<values.count { values[k].removeAll(keepingCapacity: true) }
  }
}

extension SortValue {
  /// Heap bytes the value holds beyond its own size.
  var heldBytes: Int {
    switch self {
    case .text(let t): return t.count + 32
    case .longNumber(_, let e): return e.digits.count + 64
    case .number, .date, .empty: return 0
    }
  }
}
