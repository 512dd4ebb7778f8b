/// Where a run's matches go (Docs/Architecture.md, Filter, order, write). The engine picks one
/// sink per run from the plan and whether anything is written: a `StreamSink` writes matches as
/// they are found, an `OrderSink` keeps, orders and groups them, a `TallySink` counts them per
/// group (`-c` with `group:`), a `CountSink` only counts them (`-c`).
///
/// The calling thread hands a sink the matches of each batch it filters itself (`take`). A
/// part of a file filtered on a worker thread collects its matches in the sink's `Part`, which
/// the calling thread then merges in input order (`merge`), so every thread count gives the
/// same result.
protocol MatchSink {
  associatedtype Part: PartCollector
  /// Takes the matching `rows` of `batch`, read by `source`, on the calling thread.
  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: Pass<Self>.Compiled,
    summary: inout RunSummary
  ) throws(SiftError)
  /// Takes a part collected on a worker, after every match before it; `compiled` holds every
  /// source's columns (the part's too).
  mutating func merge(
    _ part: Part, compiled: [Int: Pass<Self>.Compiled], summary: inout RunSummary
  ) throws(SiftError)
  /// Writes what is left and sets `summary.shown` and the group counts.
  mutating func finish(
    compiled: [Int: Pass<Self>.Compiled], summary: inout RunSummary
  ) throws(SiftError)
}

/// Collects the matches of one part of a file on a worker thread.
protocol PartCollector {
  init(plan: Plan)
  /// Takes the matching `rows` of `batch`, read by `source` with `access`.
  mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess)
  /// The part is read to its end: finish what can be done on the worker.
  mutating func close()
}

extension PartCollector {
  mutating func close() {}
}

/// What the plan compiles to for one input layout: the filter and the accessors of the group
/// and sort fields.
struct SourceAccess {
  let predicate: RowPredicate?
  let group: (@Sendable (RowView) -> FieldValue)?
  let sortKeys: [@Sendable (RowView) -> FieldValue]

  init(plan: Plan, layout: SourceLayout) throws(PlanError) {
    predicate = try plan.predicate(for: layout)
    group = plan.group.map { plan.accessor(for: $0, layout: layout) }
    sortKeys = plan.sort.map { plan.accessor(for: $0.field, layout: layout) }
  }
}

/// `-c`: the pass counts the matches; nothing else is done with them.
struct CountSink: MatchSink {
  struct Part: PartCollector {
    init(plan: Plan) {}
    mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess) {}
  }

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: Pass<Self>.Compiled,
    summary: inout RunSummary
  ) {}

  mutating func merge(_ part: Part, compiled: [Int: Pass<Self>.Compiled], summary: inout RunSummary) {}

  mutating func finish(compiled: [Int: Pass<Self>.Compiled], summary: inout RunSummary) {
    // `-c` counts every match: `limit:` only cuts what is written (Docs/QueryLanguage.md, Directives).
    summary.shown = summary.matched
  }
}

/// `-c` with `group:`: each group's value is tallied; no record is kept.
struct TallySink: MatchSink {
  struct Part: PartCollector {
    var tally = GroupTally()
    init(plan: Plan) {}
    mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess) {
      guard let group = access.group else { return }
      batch.withRows { cursor in
        for r in rows { tally.add(group(cursor.row(Int(r)))) }
      }
    }
  }

  var all: Part

  init(plan: Plan) { all = Part(plan: plan) }

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: Pass<Self>.Compiled,
    summary: inout RunSummary
  ) {
    all.collect(batch, rows: rows, source: source, access: compiled.access)
  }

  mutating func merge(_ part: Part, compiled: [Int: Pass<Self>.Compiled], summary: inout RunSummary) {
    all.tally.merge(part.tally)
  }

  mutating func finish(compiled: [Int: Pass<Self>.Compiled], summary: inout RunSummary) {
    summary.shown = summary.matched
    summary.groupCounts = all.tally.ordered().map { (String(decoding: $0.value, as: UTF8.self), $0.count) }
    summary.groups = summary.groupCounts.count
  }
}

/// No `sort:` or `group:`: matches are written as they are found, up to `limit:`.
struct StreamSink: MatchSink {
  /// A part's matches: its batches, each with the rows that matched (`nil`: every row).
  struct Part: PartCollector {
    var source = 0
    var kept: [(batch: RecordBatch, rows: [Int32]?)] = []
    init(plan: Plan) {}
    mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess) {
      self.source = source
      if let keep = batch.keeping(rows) { kept.append(keep) }
    }
  }

  let writer: RecordWriter
  let limit: Int

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: Pass<Self>.Compiled,
    summary: inout RunSummary
  ) throws(SiftError) {
    try write(batch, rows: rows, compiled: compiled, summary: &summary)
  }

  mutating func merge(
    _ part: Part, compiled: [Int: Pass<Self>.Compiled], summary: inout RunSummary
  ) throws(SiftError) {
    guard let c = compiled[part.source] else { return }
    for (batch, rows) in part.kept where summary.shown < limit {
      try write(batch, rows: rows ?? Array(0..<Int32(batch.count)), compiled: c, summary: &summary)
    }
  }

  private func write(
    _ batch: RecordBatch, rows: [Int32], compiled c: Pass<Self>.Compiled, summary: inout RunSummary
  ) throws(SiftError) {
    var failure: OutputError?
    batch.withRows { cursor in
      for r in rows where summary.shown < limit {
        do throws(OutputError) {
          try writer.write(cursor.row(Int(r)), columns: c.columns, verbatim: c.verbatim)
        } catch {
          failure = error
          return
        }
        summary.shown += 1
      }
    }
    if let failure { throw .output(failure) }
  }

  mutating func finish(
    compiled: [Int: Pass<Self>.Compiled], summary: inout RunSummary
  ) throws(SiftError) {
    do throws(OutputError) { try writer.end() } catch { throw .output(error) }
  }
}

extension RecordBatch {
  /// What to keep of this batch for its matching `rows`: the batch itself while at least a
  /// quarter of its records match (`nil` rows: all of them), else a copy of the matches alone,
  /// so that kept memory follows the matches; `nil` when nothing matched.
  func keeping(_ rows: [Int32]) -> (batch: RecordBatch, rows: [Int32]?)? {
    if rows.isEmpty { return nil }
    if rows.count == count { return (self, nil) }
    if rows.count * 4 >= count { return (self, rows) }
    return (copying(rows: rows), nil)
  }

  /// The bytes this batch holds, for a memory budget.
  var heldBytes: Int { bytes.count + 4 * (spans.count + extents.count + lines.count) + 64 }
}
