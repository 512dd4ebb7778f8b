extension Engine {
  /// Runs a plan with aggregate directives (Docs/Aggregates.md): summarizes the matching records
  /// per group, then orders the summary rows (`sort:` over their columns, else group order),
  /// cuts them at `limit:` and writes them as records.
  func summarize(_ plan: Plan, writer: RecordWriter?) throws(SiftError) -> RunSummary {
    var table = SummaryTable(plan: plan)
    var summary = RunSummary()
    var compiled: [Int: SummaryInputs] = [:]
    try forEachBatch { (batch, reader) throws(SiftError) in
      let names = readers[reader].fieldNames
      let inputs: SummaryInputs
      if let known = compiled[reader], known.fieldCount == names.count {
        inputs = known
      } else {
        inputs = SummaryInputs(plan: plan, layout: SourceLayout(names: names, schema: plan.schema, encoding: batch.encoding), fieldCount: names.count)
        compiled[reader] = inputs
      }
      summary.total += batch.count
      batch.withRows { rows in
        for r in 0..<rows.count {
          let row = rows.row(r)
          if let predicate = inputs.predicate, !predicate(row) { continue }
          summary.matched += 1
          table.add(group: inputs.group?(row), values: inputs.values, of: row)
        }
      }
    }
    summary.skipped = readers.reduce(0) { $0 + $1.skipped }
    summary.shortRows = readers.reduce(0) { $0 + $1.shortRows }
    summary.valuesLeftOut = table.leftOut
    let withTotal = plan.group != nil && writer?.writesTotals == true
    let rows = SummaryRows(table: table, plan: plan, withTotal: withTotal)
    summary.groups = plan.group == nil ? 0 : table.groupCount
    var order = rows.ordered(by: plan.sort, count: table.groupCount)
    let shown = min(order.count, plan.limit ?? Int.max)
    order = Array(order.prefix(shown))
    if withTotal { order.append(table.groupCount) }
    summary.shown = shown
    guard let writer else { return summary }
    let columns = plan.outputFields.map { OutputColumn.field($0.name, at: $0.index) }
    do throws(OutputError) {
      try writer.begin(columns: plan.outputNames, headers: plan.outputHeaders)
      var failure: OutputError?
      rows.batch.withRows { cursor in
        for r in order where failure == nil {
          do throws(OutputError) {
            try writer.write(cursor.row(r), columns: columns, verbatim: false)
          } catch { failure = error }
        }
      }
      if let failure { throw failure }
      try writer.end()
    } catch .closed {
      summary.outputClosed = true
    } catch {
      throw .output(error)
    }
    return summary
  }
}

/// What a summary reads from the records of one input layout: the compiled filter, the group
/// field and each aggregate column's field.
struct SummaryInputs {
  let fieldCount: Int
  let predicate: RowPredicate?
  let group: (@Sendable (RowView) -> FieldValue)?
  let values: [@Sendable (RowView) -> FieldValue]

  init(plan: Plan, layout: SourceLayout, fieldCount: Int) {
    self.fieldCount = fieldCount
    predicate = plan.predicate(for: layout)
    group = plan.group.map { plan.accessor(for: $0, layout: layout) }
    values = plan.aggregates.map { plan.accessor(for: $0.field!, layout: layout) }
  }
}

/// A summary's rows as a batch of JSON values, one field per summary column, in group order.
struct SummaryRows {
  let batch: RecordBatch

  /// The groups' rows in group order, then with `withTotal` the `Total` row.
  init(table: SummaryTable, plan: Plan, withTotal: Bool) {
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
    for g in table.groupOrder() { row { table.appendRow(g, to: &$0, next: next) } }
    if withTotal { row { table.appendTotalRow(to: &$0, next: next) } }
    batch = RecordBatch(
      bytes: bytes, encoding: .json, width: width, spans: spans, extents: extents, lines: lines)
  }

  /// The first `count` rows (the groups) in output order: by the sort keys (over the summary's
  /// columns), else as they are; stable.
  func ordered(by keys: [SortOrder], count n: Int) -> [Int] {
    guard !keys.isEmpty else { return Array(0..<n) }
    var values: [[SortValue]] = []
    batch.withRows { rows in
      values = (0..<n).map { r in keys.map { SortValue(rows.row(r).field($0.field.index)) } }
    }
    return (0..<n).sorted { i, j in
      for (k, key) in keys.enumerated() {
        let c = SortValue.compare(values[i][k], values[j][k], descending: key.descending)
        if c != 0 { return c < 0 }
      }
      return i < j
    }
  }
}
