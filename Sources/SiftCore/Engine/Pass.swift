/// One pass over the records: filters each batch, writes or keeps the matches, and at the end
/// orders, groups and limits what was kept.
struct Pass {
  let plan: Plan
  let writer: RecordWriter?
  let readers: [RecordReader]
  let ordered: Bool
  let limit: Int
  var summary = RunSummary()
  /// Per reader: its compiled filter and columns, for the field count they were made for.
  var compiled: [Int: Compiled] = [:]
  /// Kept matches when ordering: their batches and (batch, row, reader) triples.
  var keptBatches: [RecordBatch] = []
  var kept: [Match] = []

  struct Compiled {
    let fieldCount: Int
    let layout: SourceLayout
    let predicate: RowPredicate?
    let columns: [OutputColumn]
  }

  struct Match {
    var batch: Int32
    var row: Int32
    var reader: Int32
  }

  init(plan: Plan, writer: RecordWriter?, readers: [RecordReader]) {
    self.plan = plan
    self.writer = writer
    self.readers = readers
    self.ordered = !plan.sort.isEmpty || plan.group != nil
    self.limit = plan.query.limit ?? Int.max
  }

  private mutating func compiledFor(_ reader: Int, encoding: FieldEncoding) throws(SiftError) -> Compiled {
    let names = readers[reader].fieldNames
    if let c = compiled[reader], c.fieldCount == names.count { return c }
    let layout = SourceLayout(names: names, schema: plan.schema, encoding: encoding)
    let predicate: RowPredicate?
    do throws(PlanError) { predicate = try plan.predicate(for: layout) } catch { throw .plan(error) }
    let c = Compiled(
      fieldCount: names.count, layout: layout, predicate: predicate,
      columns: plan.outputColumns(layout: layout))
    compiled[reader] = c
    return c
  }

  var verbatim: Bool { plan.projection == nil }

  mutating func process(_ batch: RecordBatch, from reader: Int) throws(SiftError) {
    let c = try compiledFor(reader, encoding: batch.encoding)
    let verbatimJSON = batch.encoding == .json && verbatim
    let batchIndex = Int32(keptBatches.count)
    var keptAny = false
    var failure: OutputError?
    batch.withRows { rows in
      let n = rows.count
      summary.total += n
      for r in 0..<n {
        let row = rows.row(r)
        if let p = c.predicate, !p(row) { continue }
        summary.matched += 1
        if ordered {
          kept.append(Match(batch: batchIndex, row: Int32(r), reader: Int32(reader)))
          keptAny = true
        } else if let writer, summary.shown < limit {
          do throws(OutputError) {
            try writer.write(row, columns: c.columns, verbatimJSON: verbatimJSON)
          } catch {
            failure = error
            return
          }
          summary.shown += 1
        }
      }
    }
    if let failure { throw .output(failure) }
    if keptAny { keptBatches.append(batch) }
  }

  mutating func finish() throws(SiftError) -> RunSummary {
    summary.skipped = readers.reduce(0) { $0 + $1.skipped }
    summary.shortRows = readers.reduce(0) { $0 + $1.shortRows }
    if !ordered {
      if writer == nil { summary.shown = min(summary.matched, limit) }
      try end()
      return summary
    }
    let (order, groupValues) = orderKept()
    let shownCount = min(order.count, limit)
    summary.shown = shownCount
    let runs = groupRuns(groupValues, upTo: shownCount)
    if plan.group != nil {
      summary.groups = runs.count
      summary.groupCounts = runs.map { ($0.label, $0.range.count) }
    }
    guard let writer else { return summary }
    var failure: OutputError?
    for run in runs {
      if plan.group != nil {
        do throws(OutputError) { try writer.beginGroup(label: run.label, count: run.range.count) } catch {
          throw .output(error)
        }
      }
      for i in run.range {
        let m = order[i]
        let batch = keptBatches[Int(m.batch)]
        guard let c = compiled[Int(m.reader)] else { continue }
        let verbatimJSON = batch.encoding == .json && verbatim
        batch.withRows { rows in
          do throws(OutputError) {
            try writer.write(rows.row(Int(m.row)), columns: c.columns, verbatimJSON: verbatimJSON)
          } catch { failure = error }
        }
        if let failure { throw .output(failure) }
      }
    }
    try end()
    return summary
  }

  private func end() throws(SiftError) {
    do throws(OutputError) { try writer?.end() } catch { throw .output(error) }
  }
}
