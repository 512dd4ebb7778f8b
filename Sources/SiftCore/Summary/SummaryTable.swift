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
  /// Every group's running values: its sums' and means' in `totals` (`totalWidth` a group), its
  /// other columns' in `states` (`stateWidth` a group), group `g`'s at `g * width ..< (g + 1) *
  /// width` of each. Sums, the commonest, are kept apart so that adding to one copies no state.
  private var totals: [NumberTotal] = []
  private var states: [AggregateState] = []
  /// Per aggregate column, where in its group's running values it is.
  private let slots: [Slot]
  private let totalWidth: Int
  private let stateWidth: Int
  private var width: Int { aggregates.count }
  /// Non-empty record values left out of a column for not being numbers (or dates, for
  /// `min:`/`max:` of a date field); a value is counted once however many columns left it out.
  private(set) var leftOut = 0
  /// Per aggregate column, the first column of the same field (whose value it shares).
  private let firstOfField: [Int]
  /// A new group's states.
  private let initialStates: [AggregateState]

  /// Where an aggregate column's running value is kept: its place among its group's totals or
  /// states.
  private enum Slot {
    case total(Int)
    case state(Int)
  }

  init(plan: Plan) {
    aggregates = plan.aggregates
    columns = aggregates.map {
      AggregateColumn(
        function: $0.function!, fieldType: plan.type(of: $0.field!),
        convention: plan.convention(of: $0.field!))
    }
    arity = plan.group.count
    groups = GroupTally(
      arity: max(arity, 1), decimalMark: plan.decimalMark,
      conventions: plan.groupConventions, descending: plan.groupDescending)
    let fields = aggregates.map { $0.field! }
    firstOfField = fields.map { f in fields.firstIndex(of: f)! }
    var totalWidth = 0
    var initialStates: [AggregateState] = []
    slots = columns.map { column in
      switch column.function {
      case .sum, .avg:
        totalWidth += 1
        return .total(totalWidth - 1)
      default:
        initialStates.append(AggregateState(column.function))
        return .state(initialStates.count - 1)
      }
    }
    self.totalWidth = totalWidth
    self.initialStates = initialStates
    stateWidth = initialStates.count
    if arity == 0 { _ = slot(for: UnsafeBufferPointer(start: nil, count: 0), json: [], count: 0) }
  }

  /// How many groups there are.
  var groupCount: Int { groups.count }

  /// The bytes of every group's key, together.
  var keyBytes: Int { groups.keyBytes }

  /// Counts `count` records in the group of `key`; returns the group.
  private mutating func slot(
    for key: UnsafeBufferPointer<UInt8>, json: @autoclosure () -> ArraySlice<[UInt8]?>, count: Int = 1
  ) -> Int {
    let before = groups.count
    let g = groups.add(key, count: count)
    if groups.count > before {
      jsonKeys.append(contentsOf: json())
      totals.append(contentsOf: repeatElement(NumberTotal(), count: totalWidth))
      states.append(contentsOf: initialStates)
    }
    return g
  }

  /// Adds the matching `rows` of a batch: each one's group, of the values of `group` (ignored
  /// without `group:`), then each aggregate column's values, of `values`, a column at a time;
  /// numbers are read with the input's decimal `mark` (Docs/Formats.md, Decimal commas).
  mutating func add(
    _ rows: [Int32], of cursor: RowCursor, group: [FieldAccessor], values: [FieldAccessor],
    mark: DecimalMark
  ) {
    var ids: [Int] = []
    ids.reserveCapacity(rows.count)
    // One field's value is mostly read in place; a quoted one, or several, are joined here.
    var key = [UInt8].take(&scratch)
    for r in rows {
      let row = cursor.row(Int(r))
      if arity > 0 {
        ids.append(
          GroupKey.withKey(of: row, fields: group, scratch: &key) {
            slot(for: $0, json: SummaryTable.jsonTexts(of: row, fields: group))
          })
      } else {
        ids.append(groups.add(UnsafeBufferPointer(start: nil, count: 0)))
      }
    }
    scratch = key
    // Records and fields whose value was left out: a value counts once however many columns of
    // its field leave it out.
    var rejected: Set<Int> = []
    for k in values.indices {
      var leftOutRows: [Int] = []
      let column = columns[k]
      switch slots[k] {
      case .total(let i):
        Self.addColumn(
          rows, groups: ids, of: cursor, values[k], to: &totals, at: i, width: totalWidth,
          leftOut: &leftOutRows
        ) { total, value in
          // The commonest value, a plain number, is added as it stands.
          if value.form == .plain || value.form == .jsonNumber,
            total.addPlainDecimal(value.raw, mark: mark)
          {
            return true
          }
          return value.isNullLike || withValueBytes(value) { total.add($0, mark: mark) }
        }
      case .state(let i):
        Self.addColumn(
          rows, groups: ids, of: cursor, values[k], to: &states, at: i, width: stateWidth,
          leftOut: &leftOutRows
        ) { state, value in
          value.isNullLike || withValueBytes(value) { state.add($0, column, mark: mark) }
        }
      }
      for n in leftOutRows { rejected.insert(n * values.count + firstOfField[k]) }
    }
    leftOut += rejected.count
  }

  /// Adds the value `accessor` reads from each of `rows` (of groups `groups`) to its group's
  /// running value in `running` (`width` a group, this column's at `place`) with `add`, which
  /// returns false for a value left out; their positions in `rows` go to `leftOut`. A column at
  /// a time, the running values are reached through one pointer, checked once.
  private static func addColumn<State>(
    _ rows: [Int32], groups: [Int], of cursor: RowCursor, _ accessor: FieldAccessor,
    to running: inout [State], at place: Int, width: Int, leftOut: inout [Int],
    add: (inout State, FieldValue) -> Bool
  ) {
    running.withUnsafeMutableBufferPointer { states in
      for (n, r) in rows.enumerated()
      where !add(&states[groups[n] &* width &+ place], accessor(cursor.row(Int(r)))) {
        leftOut.append(n)
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
      for i in 0..<totalWidth { totals[g * totalWidth + i].merge(other.totals[o * totalWidth + i]) }
      for k in 0..<width {
        guard case .state(let i) = slots[k] else { continue }
        states[g * stateWidth + i].merge(other.states[o * stateWidth + i], columns[k])
      }
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
            JSONText.appendTextValue(value, keepingIllFormed: true, to: &out)
          }
          next(&out)
        }
      }
    }
    out += String(groups.count(g)).utf8
    next(&out)
    appendAggregates(
      totals: totals[(g * totalWidth)..<((g + 1) * totalWidth)],
      states: states[(g * stateWidth)..<((g + 1) * stateWidth)], to: &out, next: next)
  }

  /// Appends the row over every matching record, for the `Total` row of a report
  /// (Docs/Aggregates.md): `Total` in the group column, the count, and every aggregate over
  /// all groups. `label` (`Total`, `Total (all 40 groups)`) is plain text, without quotes.
  func appendTotalRow(label: String, to out: inout [UInt8], next: (inout [UInt8]) -> Void) {
    var allTotals = Array(repeating: NumberTotal(), count: totalWidth)
    var allStates = initialStates
    for g in 0..<groupCount {
      for i in 0..<totalWidth { allTotals[i].merge(totals[g * totalWidth + i]) }
      for k in 0..<width {
        guard case .state(let i) = slots[k] else { continue }
        allStates[i].merge(states[g * stateWidth + i], columns[k])
      }
    }
    out.append(.quote)
    out += Array(label.utf8)
    out.append(.quote)
    next(&out)
    for _ in 1..<max(arity, 1) {
      out += SummaryTable.null
      next(&out)
    }
    out += String((0..<groupCount).reduce(0) { $0 + groups.count($1) }).utf8
    next(&out)
    appendAggregates(totals: allTotals[...], states: allStates[...], to: &out, next: next)
  }

  /// Appends each aggregate column's value, of one group's `totals` and `states`, calling `next`
  /// after each value.
  private func appendAggregates(
    totals: ArraySlice<NumberTotal>, states: ArraySlice<AggregateState>, to out: inout [UInt8],
    next: (inout [UInt8]) -> Void
  ) {
    for k in 0..<width {
      switch slots[k] {
      case .total(let i):
        totals[totals.startIndex + i].appendResult(mean: columns[k].function == .avg, to: &out)
      case .state(let i):
        states[states.startIndex + i].appendResult(columns[k], to: &out)
      }
      next(&out)
    }
  }

  static let null = Array("null".utf8)

  /// A JSON input's group values keep their JSON text; `nil` for text input, for empty and
  /// null values and for a time bucket (its label is text).
  private static func jsonTexts(
    of row: RowView, fields: [FieldAccessor]
  ) -> ArraySlice<[UInt8]?> {
    ArraySlice(fields.map { field in
      let v = field(row)
      return v.isNullLike || field.bucketing != nil ? nil : jsonText(v)
    })
  }

  private static func jsonText(_ v: FieldValue) -> [UInt8]? {
    switch v.form {
    case .jsonString, .jsonNumber, .jsonBool, .jsonNested: return Array(v.raw)
    default: return nil
    }
  }
}
