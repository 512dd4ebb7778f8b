/// The summary of a run's matching records (Docs/Aggregates.md): per group (per combination with
/// `group:a,b`), the count and each aggregate column's running state. Without `group:` there is
/// one group, which exists even when nothing matched (its count is 0).
struct SummaryTable {
  /// The aggregate columns, and the type of each one's field.
  let aggregates: [SummaryColumn]
  let columns: [AggregateColumn]
  /// How many group fields there are; 0 without `group:`.
  let arity: Int
  /// The groups' keys, numbered in first-seen order, and their counts.
  private var groups: GroupTally
  /// Per group and group field (`arity` per group): the first value's JSON text when the input
  /// was JSON (text input's values are written from their decoded bytes).
  private var jsonKeys: [[UInt8]?] = []
  /// Where a record's group key is built.
  private var scratch: [UInt8] = []
  /// Every group's states, one per aggregate column: group `g`'s are at `g * width ..< (g + 1) * width`.
  private var states: [AggregateState] = []
  private var width: Int { aggregates.count }
  /// Non-empty record values left out of a column for not being numbers (or dates, for
  /// `min:`/`max:` of a date field); a value is counted once however many columns left it out.
  private(set) var leftOut = 0
  /// Per aggregate column, the first column of the same field (whose value it shares).
  private let firstOfField: [Int]
  /// A new group's states.
  private let initial: [AggregateState]

  init(plan: Plan) {
    aggregates = plan.aggregates
    columns = aggregates.map { AggregateColumn(function: $0.function!, fieldType: plan.type(of: $0.field!)) }
    arity = plan.group.count
    groups = GroupTally(arity: max(arity, 1))
    let fields = aggregates.map { $0.field! }
    firstOfField = fields.map { f in fields.firstIndex(of: f)! }
    initial = columns.map { AggregateState($0.function) }
    if arity == 0 { _ = slot(for: UnsafeBufferPointer(start: nil, count: 0), json: [], count: 0) }
  }

  /// How many groups there are.
  var groupCount: Int { groups.count }

  /// Counts `count` records in the group of `key`; returns the group.
  private mutating func slot(
    for key: UnsafeBufferPointer<UInt8>, json: @autoclosure () -> ArraySlice<[UInt8]?>, count: Int = 1
  ) -> Int {
    let before = groups.count
    let g = groups.add(key, count: count)
    if groups.count > before {
      jsonKeys.append(contentsOf: json())
      states.append(contentsOf: initial)
    }
    return g
  }

  /// Adds one matching record: its group, the values of `group` (ignored without `group:`), and
  /// each aggregate column's value, of `values`.
  mutating func add(
    _ row: RowView, group: [@Sendable (RowView) -> FieldValue],
    values: [@Sendable (RowView) -> FieldValue]
  ) {
    var g = 0
    if arity > 0 {
      // One field's value is mostly read in place; several are joined in the scratch buffer.
      var key = arity > 1 ? [UInt8].take(&scratch) : []
      g = GroupKey.withKey(of: row, fields: group, scratch: &key) {
        slot(for: $0, json: SummaryTable.jsonTexts(of: row, fields: group))
      }
      if arity > 1 { scratch = key }
    } else {
      groups.add(UnsafeBufferPointer(start: nil, count: 0))
    }
    var rejected: [Int] = []  // fields whose value was left out (allocates only when one is)
    let base = g * width
    for k in values.indices {
      let value = values[k](row)
      if value.isNullLike { continue }
      let kept = withValueBytes(value) { states[base + k].add($0, columns[k]) }
      if !kept && !rejected.contains(firstOfField[k]) {
        rejected.append(firstOfField[k])
        leftOut += 1
      }
    }
  }

  /// Adds a later part's summary of the same plan.
  mutating func merge(_ other: SummaryTable) {
    leftOut += other.leftOut
    let arity = arity
    for o in 0..<other.groupCount {
      let g = other.groups.withKey(o) {
        slot(for: $0, json: other.jsonKeys[(o * arity)..<((o + 1) * arity)], count: other.groups.count(o))
      }
      for k in 0..<width { states[g * width + k].merge(other.states[o * width + k], columns[k]) }
    }
  }

  /// The groups in `group:` order (by value as `sort:` orders it, then by bytes, field by field).
  func groupOrder() -> [Int] { groups.order() }

  /// For `groups` in group order, the number of each one's outer group (the values of every
  /// group field but the last), counting from 0: `limit:N/group` keeps N rows of each.
  func outerGroups(_ order: [Int]) -> [Int] {
    var outer: [Int] = []
    outer.reserveCapacity(order.count)
    var previous: [UInt8] = []
    for g in order {
      let prefix = groups.withKey(g) { key in
        Array(GroupKey.parts(of: key, arity: arity).dropLast().joined())
      }
      outer.append((outer.last ?? -1) + (outer.isEmpty || prefix != previous ? 1 : 0))
      previous = prefix
    }
    return outer
  }

  /// Appends group `g`'s summary row as JSON values, column by column (the group values with
  /// `group:`, the count, then each aggregate), calling `next` after each value.
  func appendRow(_ g: Int, to out: inout [UInt8], next: (inout [UInt8]) -> Void) {
    if arity > 0 {
      groups.withKey(g) { key in
        for (f, value) in GroupKey.parts(of: key, arity: arity).enumerated() {
          if let json = jsonKeys[g * arity + f] {
            out += json
          } else if value.isEmpty {
            out += SummaryTable.null
          } else {
            JSONText.appendTextValue(value, to: &out)
          }
          next(&out)
        }
      }
    }
    out += String(groups.count(g)).utf8
    next(&out)
    for k in 0..<width {
      states[g * width + k].appendResult(columns[k], to: &out)
      next(&out)
    }
  }

  /// Appends the row over every matching record, for the `Total` row of a report
  /// (Docs/Aggregates.md): `Total` in the group column, the count, and every aggregate over
  /// all groups.
  func appendTotalRow(to out: inout [UInt8], next: (inout [UInt8]) -> Void) {
    var all = initial
    for g in 0..<groupCount {
      for k in 0..<width { all[k].merge(states[g * width + k], columns[k]) }
    }
    out += Array("\"Total\"".utf8)
    next(&out)
    for _ in 1..<max(arity, 1) {
      out += SummaryTable.null
      next(&out)
    }
    out += String((0..<groupCount).reduce(0) { $0 + groups.count($1) }).utf8
    next(&out)
    for (k, state) in all.enumerated() {
      state.appendResult(columns[k], to: &out)
      next(&out)
    }
  }

  static let null = Array("null".utf8)

  /// A JSON input's group values keep their JSON text; `nil` for text input and for empty and
  /// null values.
  private static func jsonTexts(
    of row: RowView, fields: [@Sendable (RowView) -> FieldValue]
  ) -> ArraySlice<[UInt8]?> {
    ArraySlice(fields.map { field in
      let v = field(row)
      return v.isNullLike ? nil : jsonText(v)
    })
  }

  private static func jsonText(_ v: FieldValue) -> [UInt8]? {
    switch v.form {
    case .jsonString, .jsonNumber, .jsonBool, .jsonNested: return Array(v.raw)
    default: return nil
    }
  }
}
