/// Aggregates (Docs/Aggregates.md): the matches are summarized per group, each part of a file
/// on its own worker, and the parts' summaries merge in input order; at the end the summary
/// rows are ordered (`sort:` over their columns, else group order), cut at `limit:` and
/// written as records.
struct SummarySink: MatchSink {
  struct Part: PartCollector {
    var table: SummaryTable

    mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess) {
      batch.withRows {
        table.add(
          rows, of: $0, group: access.group, values: access.aggregateValues,
          mark: access.layout.decimalMark)
      }
    }
  }

  let plan: Plan
  let writer: RecordWriter?
  var all: Part
  private let budget: GroupBudget

  init(plan: Plan, writer: RecordWriter?, memoryBudget: Int = .max) {
    self.plan = plan
    self.writer = writer
    budget = GroupBudget(budget: memoryBudget, aggregates: plan.aggregates.count)
    all = Part(table: SummaryTable(plan: plan))
  }

  func partMaker() -> () -> Part {
    let plan = plan
    return { Part(table: SummaryTable(plan: plan)) }
  }

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: SourceAccess,
    summary: inout RunSummary
  ) throws(SiftError) {
    all.collect(batch, rows: rows, source: source, access: compiled)
    try budget.check(groups: all.table.groupCount, keyBytes: all.table.keyBytes)
  }

  mutating func merge(
    _ part: Part, compiled: [Int: SourceAccess], summary: inout RunSummary
  ) throws(SiftError) {
    all.table.merge(part.table)
    try budget.check(groups: all.table.groupCount, keyBytes: all.table.keyBytes)
  }

  mutating func finish(compiled: [Int: SourceAccess], summary: inout RunSummary) throws(SiftError) {
    let table = all.table
    summary.valuesLeftOut = table.leftOut
    summary.groups = plan.group.isEmpty ? 0 : table.groupCount
    summary.summaryRows = table.groupCount
    let groups = table.groupOrder()
    // Positions in `groups`, in output order.
    var order: [Int]
    if let perGroup = plan.limitPerGroup {
      // The first N rows of each outer group, in outer group order (Docs/Aggregates.md).
      let outer = table.outerGroups(groups)
      order = SummaryRows.ordered(groups, of: table, plan: plan, within: outer)
      var kept = 0
      order = order.indices.filter { i in
        kept = i > 0 && outer[order[i]] == outer[order[i - 1]] ? kept + 1 : 0
        return kept < perGroup
      }.map { order[$0] }
    } else {
      order = SummaryRows.ordered(groups, of: table, plan: plan, within: nil)
      order.removeSubrange(min(order.count, plan.limit ?? Int.max)...)
    }
    summary.shown = order.count
    guard let writer else { return }
    let columns = plan.outputFields.map { OutputColumn.field($0.name, at: $0.index) }
    do throws(OutputError) {
      // The rows are laid out a slice at a time, so a million groups never stand as text at once.
      for start in stride(from: 0, to: order.count, by: SummaryRows.slice) {
        let slice = order[start..<min(start + SummaryRows.slice, order.count)].map { groups[$0] }
        try SummaryRows(table, groups: slice, width: plan.summaryColumns.count, total: false)
          .write(to: writer, columns: columns)
      }
      if plan.endsWithTotal && writer.writesTotals {
        let label = SummaryRows.totalLabel(shown: order.count, of: table.groupCount)
        try SummaryRows(
          table, groups: [], width: plan.summaryColumns.count, total: true, totalLabel: label
        ).write(to: writer, columns: columns)
      }
      try writer.end()
    } catch {
      throw .output(error)
    }
  }
}

/// Summary rows as a batch of JSON values, one field per summary column.
public struct SummaryRows {
  let batch: RecordBatch

  /// How many rows are laid out at once.
  static let slice = 16_384

  /// The first column of the `Total` row (Docs/Aggregates.md, Output): `Total` when every group
  /// is shown; when `limit:` left some out, the row still totals every group and says so:
  /// `Total (all 40 groups)`.
  public static func totalLabel(shown: Int, of groups: Int) -> String {
    shown < groups ? "Total (all \(groupedDigits(groups)) groups)" : "Total"
  }

  /// The rows of `groups`, in that order, then with `total` the `Total` row, `totalLabel` in
  /// its first group column.
  init(
    _ table: SummaryTable, groups: [Int], width: Int, total: Bool, totalLabel: String = "Total"
  ) {
    var bytes: [UInt8] = []
    var spans: [Int32] = []
    var extents: [Int32] = []
    var lines: [Int32] = []
    func next(_ out: inout [UInt8]) {
      spans.append(Int32(out.count))
      out.append(.comma)
      spans.append(Int32(out.count))
    }
    func row(_ append: (inout [UInt8]) -> Void) {
      extents.append(Int32(bytes.count))
      spans.append(Int32(bytes.count))
      append(&bytes)
      spans.removeLast()
      extents.append(Int32(bytes.count))
      lines.append(Int32(lines.count + 1))
    }
    for g in groups { row { table.appendRow(g, to: &$0, next: next) } }
    if total { row { table.appendTotalRow(label: totalLabel, to: &$0, next: next) } }
    batch = RecordBatch(
      bytes: bytes, encoding: .json, width: width, spans: spans, extents: extents, lines: lines)
  }

  func write(to writer: RecordWriter, columns: [OutputColumn]) throws(OutputError) {
    try batch.withRows { cursor throws(OutputError) in
      for r in 0..<batch.count { try writer.write(cursor.row(r), columns: columns, verbatim: false) }
    }
  }

  /// The positions of `groups` (in group order) in output order: by `outer` (each one's outer
  /// group, with `limit:N/group`), then by the sort keys (over the summary's columns), else as
  /// they are; stable. Only the sort columns' values are kept, laid out a slice at a time.
  static func ordered(_ groups: [Int], of table: SummaryTable, plan: Plan, within outer: [Int]?) -> [Int] {
    let keys = plan.sort
    guard !keys.isEmpty else { return Array(groups.indices) }
    let conventions = keys.map { plan.summaryColumnConvention($0.field.index) }
    var values: [SortValue] = []
    values.reserveCapacity(groups.count * keys.count)
    for start in stride(from: 0, to: groups.count, by: slice) {
      let rows = SummaryRows(
        table, groups: Array(groups[start..<min(start + slice, groups.count)]),
        width: plan.summaryColumns.count, total: false)
      rows.batch.withRows { cursor in
        for r in 0..<rows.batch.count {
          for (key, convention) in zip(keys, conventions) {
            values.append(SortValue(cursor.row(r).field(key.field.index), convention))
          }
        }
      }
    }
    let width = keys.count
    return groups.indices.sorted { i, j in
      if let outer, outer[i] != outer[j] { return outer[i] < outer[j] }
      for (k, key) in keys.enumerated() {
        let c = SortValue.compare(values[i * width + k], values[j * width + k], descending: key.descending)
        if c != 0 { return c < 0 }
      }
      return i < j
    }
  }
}
