/// Aggregates (Docs/Aggregates.md): the matches are summarized per group, each part of a file
/// on its own worker, and the parts' summaries merge in input order; at the end the summary
/// rows are ordered (`sort:` over their columns, else group order), cut at `limit:` and
/// written as records.
struct SummarySink: MatchSink {
  struct Part: PartCollector {
    var table: SummaryTable

    mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess) {
      batch.withRows { cursor in
        for r in rows {
          table.add(cursor.row(Int(r)), access: access)
        }
      }
    }
  }

  let plan: Plan
  let writer: RecordWriter?
  var all: Part

  init(plan: Plan, writer: RecordWriter?) {
    self.plan = plan
    self.writer = writer
    all = Part(table: SummaryTable(plan: plan))
  }

  func partMaker() -> () -> Part {
    let plan = plan
    return { Part(table: SummaryTable(plan: plan)) }
  }

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: SourceAccess,
    summary: inout RunSummary
  ) {
    all.collect(batch, rows: rows, source: source, access: compiled)
  }

  mutating func merge(_ part: Part, compiled: [Int: SourceAccess], summary: inout RunSummary) {
    all.table.merge(part.table)
  }

  mutating func finish(compiled: [Int: SourceAccess], summary: inout RunSummary) throws(SiftError) {
    let table = all.table
    summary.valuesLeftOut = table.leftOut
    summary.groups = plan.group.isEmpty ? 0 : table.groupCount
    summary.summaryRows = table.groupCount
    let withTotal = !plan.group.isEmpty && writer?.writesTotals == true
    let groupOrder = table.groupOrder()
    let rows = SummaryRows(table: table, order: groupOrder, plan: plan, withTotal: withTotal)
    var order: [Int]
    if let perGroup = plan.limitPerGroup {
      // The first N rows of each outer group, in outer group order (Docs/Aggregates.md).
      let outer = table.outerGroups(groupOrder)
      order = rows.ordered(by: plan.sort, count: table.groupCount, within: outer)
      var kept = 0
      order = order.indices.filter { i in
        kept = i > 0 && outer[order[i]] == outer[order[i - 1]] ? kept + 1 : 0
        return kept < perGroup
      }.map { order[$0] }
    } else {
      order = rows.ordered(by: plan.sort, count: table.groupCount, within: nil)
      order = Array(order.prefix(plan.limit ?? Int.max))
    }
    summary.shown = order.count
    guard let writer else { return }
    if withTotal { order.append(table.groupCount) }
    let columns = plan.outputFields.map { OutputColumn.field($0.name, at: $0.index) }
    do throws(OutputError) {
      try rows.batch.withRows { cursor throws(OutputError) in
        for r in order { try writer.write(cursor.row(r), columns: columns, verbatim: false) }
      }
      try writer.end()
    } catch {
      throw .output(error)
    }
  }
}

/// A summary's rows as a batch of JSON values, one field per summary column, in group order.
struct SummaryRows {
  let batch: RecordBatch

  /// The rows of the groups of `order` (group order), then with `withTotal` the `Total` row.
  init(table: SummaryTable, order: [Int], plan: Plan, withTotal: Bool) {
    let width = plan.summaryColumns.count
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
    for g in order { row { table.appendRow(g, to: &$0, next: next) } }
    if withTotal { row { table.appendTotalRow(to: &$0, next: next) } }
    batch = RecordBatch(
      bytes: bytes, encoding: .json, width: width, spans: spans, extents: extents, lines: lines)
  }

  /// The first `count` rows (the groups) in output order: by `outer` (each row's outer group,
  /// with `limit:N/group`), then by the sort keys (over the summary's columns), else as they
  /// are; stable.
  func ordered(by keys: [SortOrder], count n: Int, within outer: [Int]?) -> [Int] {
    guard !keys.isEmpty else { return Array(0..<n) }
    var values: [[SortValue]] = []
    batch.withRows { rows in
      values = (0..<n).map { r in keys.map { SortValue(rows.row(r).field($0.field.index)) } }
    }
    return (0..<n).sorted { i, j in
      if let outer, outer[i] != outer[j] { return outer[i] < outer[j] }
      for (k, key) in keys.enumerated() {
        let c = SortValue.compare(values[i][k], values[j][k], descending: key.descending)
        if c != 0 { return c < 0 }
      }
      return i < j
    }
  }
}
