/// The summary of a run's matching records (Docs/Aggregates.md): per group value, the count and
/// each aggregate column's running state. Without `group:` there is one group, which exists even
/// when nothing matched (its count is 0).
struct SummaryTable {
  /// The aggregate columns, and the type of each one's field.
  let aggregates: [SummaryColumn]
  let fieldTypes: [ColumnType]
  let grouped: Bool
  /// The groups' decoded values, numbered in first-seen order; per group, the first value's
  /// JSON text, its count and its states.
  private var groups = GroupIndex()
  private var jsonKeys: [[UInt8]] = []
  private var counts: [Int] = []
  private var states: [[AggregateState]] = []
  /// Non-empty record values left out of a column for not being numbers (or dates, for
  /// `min:`/`max:` of a date field); a value is counted once however many columns left it out.
  private(set) var leftOut = 0
  /// Per aggregate column, the first column of the same field (whose value it shares).
  private let firstOfField: [Int]

  init(plan: Plan) {
    aggregates = plan.aggregates
    fieldTypes = aggregates.map { plan.type(of: $0.field!) }
    grouped = plan.group != nil
    let fields = aggregates.map { $0.field! }
    firstOfField = fields.map { f in fields.firstIndex(of: f)! }
    if !grouped { _ = slot(for: UnsafeBufferPointer(start: nil, count: 0)) { Array("null".utf8) } }
  }

  /// How many groups there are.
  var groupCount: Int { groups.count }

  private mutating func slot(for key: UnsafeBufferPointer<UInt8>, json: () -> [UInt8]) -> Int {
    let (g, new) = groups.number(of: key)
    if new {
      jsonKeys.append(json())
      counts.append(0)
      states.append(zip(aggregates, fieldTypes).map { AggregateState($0.function!, fieldType: $1) })
    }
    return g
  }

  /// Adds one matching record: its group value (ignored without `group:`) and each aggregate
  /// column's value.
  mutating func add(group: FieldValue?, values: [@Sendable (RowView) -> FieldValue], of row: RowView) {
    var g = 0
    if grouped, let group {
      if group.isNullLike {
        g = slot(for: UnsafeBufferPointer(start: nil, count: 0)) { Array("null".utf8) }
      } else {
        g = withValueBytes(group) { key in
          slot(for: key) { SummaryTable.json(group, decoded: Array(key)) }
        }
      }
    }
    counts[g] += 1
    var states = self.states[g]
    self.states[g] = []
    var rejected: [Int] = []  // fields whose value was left out (allocates only when one is)
    for k in values.indices {
      let value = values[k](row)
      if value.isNullLike { continue }
      let kept = withValueBytes(value) { states[k].add($0) }
      if !kept && !rejected.contains(firstOfField[k]) {
        rejected.append(firstOfField[k])
        leftOut += 1
      }
    }
    self.states[g] = states
  }

  /// Adds a later part's summary of the same plan.
  mutating func merge(_ other: SummaryTable) {
    leftOut += other.leftOut
    for o in 0..<other.groupCount {
      let g = Array(other.groups.key(o)).withUnsafeBufferPointer { key in
        slot(for: key) { other.jsonKeys[o] }
      }
      counts[g] += other.counts[o]
      for k in states[g].indices { states[g][k].merge(other.states[o][k]) }
    }
  }

  /// The groups in `group:` order (by value as `sort:` orders it, then by bytes).
  func groupOrder() -> [Int] {
    let keys = (0..<groupCount).map { Array(groups.key($0)) }
    let order = keys.map { $0.isEmpty ? SortValue.empty : $0.withUnsafeBufferPointer { SortValue(decoded: $0) } }
    return keys.indices.sorted { i, j in
      let c = SortValue.compare(order[i], order[j], descending: false)
      if c != 0 { return c < 0 }
      return keys[i].lexicographicallyPrecedes(keys[j])
    }
  }

  /// One group's summary row as JSON texts, column by column: the group value (with
  /// `group:`), the count, then each aggregate.
  func row(_ g: Int) -> [[UInt8]] {
    var out: [[UInt8]] = grouped ? [jsonKeys[g]] : []
    out.append(Array(String(counts[g]).utf8))
    for state in states[g] { out.append(state.result(count: counts[g])) }
    return out
  }

  /// The row over every matching record, for the `Total` row of a report (Docs/Aggregates.md):
  /// `Total` in the group column, the count, and every aggregate over all groups.
  func totalRow() -> [[UInt8]] {
    var all = states.first ?? []
    for g in states.indices.dropFirst() {
      for k in all.indices { all[k].merge(states[g][k]) }
    }
    let count = counts.reduce(0, +)
    return [Array("\"Total\"".utf8), Array(String(count).utf8)] + all.map { $0.result(count: count) }
  }

  /// A group value as the summary writes it: JSON input keeps its JSON text; text that is a
  /// number in canonical form becomes a number, other text a string; empty is `null`.
  private static func json(_ v: FieldValue, decoded: [UInt8]) -> [UInt8] {
    if v.isNullLike { return Array("null".utf8) }
    switch v.form {
    case .jsonString, .jsonNumber, .jsonBool, .jsonNested: return Array(v.raw)
    default: return SummaryValue.json(text: decoded)
    }
  }
}
