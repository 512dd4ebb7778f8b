/// One pass over the records: filters each batch, writes or keeps the matches, and at the end
/// orders, groups and limits what was kept.
struct Pass {
  let plan: Plan
  let writer: RecordWriter?
  let ordered: Bool
  /// `-c` with `group:`: only each group's count is needed, so values are tallied, not kept.
  let tallies: Bool
  let limit: Int
  var summary = RunSummary()
  /// Per source (a reader, or a part of a file read in parallel): its compiled filter and
  /// columns, for the field count they were made for.
  var compiled: [Int: Compiled] = [:]
  /// Kept matches when ordering: their batches and (batch, row, source) triples.
  var keptBatches: [RecordBatch] = []
  var kept: [Match] = []
  /// Group values and counts, when tallying.
  var tally = GroupTally()
  /// Short rows counted by part readers the engine no longer holds.
  var shortRowsElsewhere = 0

  struct Compiled {
    let fieldCount: Int
    let layout: SourceLayout
    /// The record's text stands for the output (see `RecordWriter.write`).
    let verbatim: Bool
    let predicate: RowPredicate?
    let columns: [OutputColumn]
    /// The group field's accessor, when tallying.
    let group: (@Sendable (RowView) -> FieldValue)?
  }

  struct Match {
    var batch: Int32
    var row: Int32
    var source: Int32
  }

  init(plan: Plan, writer: RecordWriter?) {
    self.plan = plan
    self.writer = writer
    self.ordered = writer != nil && (!plan.sort.isEmpty || plan.group != nil)
    self.tallies = writer == nil && plan.group != nil
    // `-c` counts every matching record, per group too: `limit:` only cuts what is written
    // (Docs/QueryLanguage.md, Directives).
    self.limit = writer == nil ? Int.max : plan.query.limit ?? Int.max
  }

  mutating func compiledFor(
    _ source: Int, names: [String], encoding: FieldEncoding
  ) throws(SiftError) -> Compiled {
    if let c = compiled[source], c.fieldCount == names.count { return c }
    let layout = SourceLayout(names: names, schema: plan.schema, encoding: encoding)
    if encoding == .json {
      // Keys first seen after the sample, on an input that could not be scanned for them.
      for n in layout.fieldsOutsideSchema(names) where !summary.keysAfterSample.contains(n) {
        summary.keysAfterSample.append(n)
      }
    }
    let predicate = plan.predicate(for: layout)
    let identity = names.count == plan.schema.names.count
      && layout.local.elementsEqual(0..<names.count)
    let c = Compiled(
      fieldCount: names.count, layout: layout,
      verbatim: plan.projection == nil && (encoding == .json || identity), predicate: predicate,
      columns: plan.outputColumns(layout: layout),
      group: tallies ? plan.group.map { plan.accessor(for: $0, layout: layout) } : nil)
    compiled[source] = c
    return c
  }

  /// Filters `batch`, read by `source` whose fields are `names`, and writes, keeps or tallies
  /// the matches. A `prefiltered` batch holds only matches, of `total` records read.
  mutating func process(
    _ batch: RecordBatch, from source: Int, names: [String], prefiltered: Bool = false,
    total: Int? = nil
  ) throws(SiftError) {
    let c = try compiledFor(source, names: names, encoding: batch.encoding)
    let batchIndex = Int32(keptBatches.count)
    let predicate = prefiltered ? nil : c.predicate
    let group = c.group
    var keptAny = false
    var failure: OutputError?
    summary.total += total ?? batch.count
    batch.withRows { rows in
      let n = rows.count
      for r in 0..<n {
        let row = rows.row(r)
        if let predicate, !predicate(row) { continue }
        summary.matched += 1
        if let group {
          tally.add(group(row))
        } else if ordered {
          kept.append(Match(batch: batchIndex, row: Int32(r), source: Int32(source)))
          keptAny = true
        } else if let writer, summary.shown < limit {
          do throws(OutputError) {
            try writer.write(row, columns: c.columns, verbatim: c.verbatim)
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

  /// Counts records filtered elsewhere when nothing is written, ordered or tallied (`-c`).
  mutating func count(total: Int, matched: Int) {
    summary.total += total
    summary.matched += matched
  }

  /// Whether matches need no more than counting: `-c` without `group:`.
  var countsOnly: Bool { writer == nil && plan.group == nil }

  /// Orders, groups, limits and writes what was kept; `readers` give their skip and short-row
  /// counts.
  mutating func finish(readers: [RecordReader]) throws(SiftError) -> RunSummary {
    summary.skipped = readers.reduce(0) { $0 + $1.skipped }
    summary.shortRows = readers.reduce(shortRowsElsewhere) { $0 + $1.shortRows }
    if tallies {
      let groups = tally.ordered()
      var left = min(summary.matched, limit)
      summary.shown = left
      summary.groupCounts = []
      for g in groups where left > 0 {
        let n = min(g.count, left)
        summary.groupCounts.append((String(decoding: g.value, as: UTF8.self), n))
        left -= n
      }
      summary.groups = summary.groupCounts.count
      return summary
    }
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
        guard let c = compiled[Int(m.source)] else { continue }
        batch.withRows { rows in
          do throws(OutputError) {
            try writer.write(rows.row(Int(m.row)), columns: c.columns, verbatim: c.verbatim)
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
