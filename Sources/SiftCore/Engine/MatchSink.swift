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
  /// Makes an empty part collector; called on the worker thread that fills it.
  func partMaker() -> () -> Part
  /// Takes the matching `rows` of `batch`, read by `source`, on the calling thread.
  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: SourceAccess,
    summary: inout RunSummary
  ) throws(SiftError)
  /// Takes a part collected on a worker, after every match before it; `compiled` holds every
  /// source's columns (the part's too).
  mutating func merge(
    _ part: Part, compiled: [Int: SourceAccess], summary: inout RunSummary
  ) throws(SiftError)
  /// Writes what is left and sets `summary.shown` and the group counts.
  mutating func finish(
    compiled: [Int: SourceAccess], summary: inout RunSummary
  ) throws(SiftError)
}

/// Collects the matches of one part of a file on a worker thread.
protocol PartCollector {
  /// Takes the matching `rows` of `batch`, read by `source` with `access`.
  mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess)
  /// The part is read to its end: finish what can be done on the worker.
  mutating func close()
}

extension PartCollector {
  mutating func close() {}
}

/// What the plan compiles to for an input whose fields are `names`: the filter, the accessors
/// of the group and sort fields, and the output columns.
struct SourceAccess {
  /// How many fields the input had.
  let fieldCount: Int
  let layout: SourceLayout
  let predicate: RowPredicate?
  /// The group fields' values, outermost first; empty without `group:`.
  let group: [FieldAccessor]
  let sortKeys: [FieldAccessor]
  /// The field of each aggregate column, in order (Docs/Aggregates.md).
  let aggregateValues: [FieldAccessor]
  let columns: [OutputColumn]
  /// The record's text stands for the output (see `RecordWriter.write`).
  let verbatim: Bool

  init(plan: Plan, names: [String], encoding: FieldEncoding, decimalMark: DecimalMark) {
    let layout = SourceLayout(
      names: names, schema: plan.schema, encoding: encoding, decimalMark: decimalMark)
    fieldCount = names.count
    self.layout = layout
    predicate = plan.predicate(for: layout)
    group = plan.groupAccessors(layout: layout)
    let summarizing = !plan.aggregates.isEmpty
    // A summary's sort keys and columns are its own (SummarySink), not the records'.
    sortKeys = summarizing ? [] : plan.sort.map { plan.accessor(for: $0.field, layout: layout) }
    aggregateValues = plan.aggregates.map { plan.accessor(for: $0.field!, layout: layout) }
    columns = summarizing ? [] : plan.outputColumns(layout: layout)
    let identity = names.count == plan.schema.names.count
      && layout.local.elementsEqual(0..<names.count)
    verbatim = plan.projection == nil && (encoding == .json || identity)
  }

  /// The access of a batch's input.
  init(plan: Plan, names: [String], batch: RecordBatch) {
    self.init(plan: plan, names: names, encoding: batch.encoding, decimalMark: batch.decimalMark)
  }
}

/// `-c`: the pass counts the matches; nothing else is done with them.
struct CountSink: MatchSink {
  struct Part: PartCollector {
    mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess) {}
  }

  func partMaker() -> () -> Part { { Part() } }

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: SourceAccess,
    summary: inout RunSummary
  ) {}

  mutating func merge(_ part: Part, compiled: [Int: SourceAccess], summary: inout RunSummary) {}

  mutating func finish(compiled: [Int: SourceAccess], summary: inout RunSummary) {
    // `-c` counts every match: `limit:` only cuts what is written (Docs/QueryLanguage.md,
    // Directives).
    summary.shown = summary.matched
  }
}

/// `-c` with `group:`: each group (each combination with `group:a,b`) is tallied; no record is
/// kept.
struct TallySink: MatchSink {
  struct Part: PartCollector {
    var tally: GroupTally
    private var scratch: [UInt8] = []

    init(tally: GroupTally) {
      self.tally = tally
    }

    mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess) {
      let group = access.group
      batch.withRows { cursor in
        for r in rows {
          _ = GroupKey.withKey(of: cursor.row(Int(r)), fields: group, scratch: &scratch) {
            tally.add($0)
          }
        }
      }
    }
  }

  var all: Part
  /// The `sort:` keys over the tally's columns (`Plan.tallySort`) and the `limit:`.
  private let sort: [SortOrder]
  private let limit: Int?
  private let budget: GroupBudget

  init(plan: Plan, memoryBudget: Int = .max) {
    sort = plan.tallySort
    limit = plan.limit
    budget = GroupBudget(budget: memoryBudget)
    all = Part(
      tally: GroupTally(
        arity: plan.group.count, decimalMark: plan.decimalMark,
        conventions: plan.groupConventions, descending: plan.groupDescending))
  }

  func partMaker() -> () -> Part {
    let (arity, mark) = (all.tally.arity, all.tally.decimalMark)
    let (conventions, descending) = (all.tally.conventions, all.tally.descending)
    return {
      Part(
        tally: GroupTally(
          arity: arity, decimalMark: mark, conventions: conventions, descending: descending))
    }
  }

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: SourceAccess,
    summary: inout RunSummary
  ) throws(SiftError) {
    all.collect(batch, rows: rows, source: source, access: compiled)
    try budget.check(groups: all.tally.count, keyBytes: all.tally.keyBytes)
  }

  mutating func merge(
    _ part: Part, compiled: [Int: SourceAccess], summary: inout RunSummary
  ) throws(SiftError) {
    all.tally.merge(part.tally)
    try budget.check(groups: all.tally.count, keyBytes: all.tally.keyBytes)
  }

  mutating func finish(compiled: [Int: SourceAccess], summary: inout RunSummary) {
    summary.shown = summary.matched
    var groups = ordered(all.tally.ordered())
    summary.groups = groups.count
    // `limit:N` keeps the first N groups; each still counts all its records.
    groups.removeSubrange(min(groups.count, limit ?? Int.max)...)
    summary.groupCounts = groups.map { ($0.values, $0.count) }
  }

  /// The groups (in group order) in `sort:` order over the tally's columns, the group fields
  /// then `count`; stable, so ties stay in group order.
  private func ordered(_ groups: [(values: [[UInt8]], count: Int)]) -> [(values: [[UInt8]], count: Int)] {
    guard !sort.isEmpty else { return groups }
    let arity = all.tally.arity
    let mark = all.tally.decimalMark
    let conventions = all.tally.conventions
    let width = sort.count
    var values: [SortValue] = []
    values.reserveCapacity(groups.count * width)
    for group in groups {
      for key in sort {
        let column = key.field.index
        guard column < arity else {
          values.append(.number(Double(group.count)))
          continue
        }
        let convention = column < conventions.count ? conventions[column] : .iso
        let bytes = group.values[column]
        values.append(bytes.isEmpty ? .empty : bytes.withUnsafeBufferPointer {
          SortValue(decoded: $0, mark: mark, convention)
        })
      }
    }
    let order = groups.indices.sorted { i, j in
      for (k, key) in sort.enumerated() {
        let c = SortValue.compare(values[i * width + k], values[j * width + k], descending: key.descending)
        if c != 0 { return c < 0 }
      }
      return i < j
    }
    return order.map { groups[$0] }
  }
}

/// No `sort:` or `group:`: matches are written as they are found, up to `limit:`.
struct StreamSink: MatchSink {
  /// A part's matches. With a part writer they are written on the worker, into bytes of the
  /// part's own, so only the output is held until the calling thread adds it; else the part
  /// keeps its batches, each with the rows that matched (`nil`: every row), and for a writer
  /// that takes digests (`--changes`), the matches' digests made here on the worker.
  struct Part: PartCollector {
    let writer: RecordWriter?
    let written = PartBytes()
    let output: OutputBuffer
    /// Where each written record ends in the part's bytes.
    var ends: [Int] = []
    var failure: OutputError?
    var source = 0
    var kept: [(batch: RecordBatch, rows: [Int32]?)] = []
    /// The kept matches' digests, in order (`RecordDigesting`).
    var digests: RecordDigests?
    /// The kept matches' rows as new records, where every record is new unless its key repeats
    /// (`RecordDigesting.rowsAheadFormat`).
    let ahead: RowsWrittenAhead?

    init(
      writer: PartWritable?, digestKeyColumns: [Int]? = nil, valuesAhead: ValuesPackedAhead? = nil,
      rowsAheadFormat: PartWritable? = nil
    ) {
      output = OutputBuffer(sink: written)
      self.writer = writer?.partWriter(into: output)
      digests = digestKeyColumns.map { RecordDigests(keyColumns: $0, valuesAhead: valuesAhead) }
      ahead = rowsAheadFormat.flatMap { RowsWrittenAhead(format: $0) }
    }

    mutating func collect(_ batch: RecordBatch, rows: [Int32], source: Int, access: SourceAccess) {
      self.source = source
      guard let writer else {
        if let keep = batch.keeping(rows) { kept.append(keep) }
        digests?.add(batch, rows: rows[...], columns: access.columns, verbatim: access.verbatim)
        ahead?.add(batch, rows: rows)
        return
      }
      guard failure == nil else { return }
      batch.withRows { cursor in
        do throws(OutputError) {
          if let batchWriter = writer as? BatchWriting {
            try batchWriter.write(
              rows: rows[...], of: cursor, columns: access.columns, verbatim: access.verbatim,
              ends: &ends)
            return
          }
          for r in rows {
            try writer.write(cursor.row(Int(r)), columns: access.columns, verbatim: access.verbatim)
            ends.append(output.position)
          }
        } catch { failure = error }
      }
    }

    mutating func close() {
      ahead?.close()
      do throws(OutputError) { try output.flush() } catch { failure = error }
    }
  }

  let writer: RecordWriter
  let limit: Int
  /// Where the records of the batch being written end (`BatchWriting`); not used here.
  var ends: [Int] = []
  /// The digests of a batch taken on the calling thread (`RecordDigesting`).
  var digests: RecordDigests? = nil

  func partMaker() -> () -> Part {
    let writer = writer as? PartWritable
    let digesting = self.writer as? RecordDigesting
    let (keyColumns, values, ahead) = (
      digesting?.digestKeyColumns, digesting?.valuesAhead, digesting?.rowsAheadFormat
    )
    return {
      Part(writer: writer, digestKeyColumns: keyColumns, valuesAhead: values, rowsAheadFormat: ahead)
    }
  }

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: SourceAccess,
    summary: inout RunSummary
  ) throws(SiftError) {
    try write(batch, rows: rows, source: source, compiled: compiled, summary: &summary)
  }

  mutating func merge(
    _ part: Part, compiled: [Int: SourceAccess], summary: inout RunSummary
  ) throws(SiftError) {
    if let failure = part.failure { throw .output(failure) }
    if part.writer != nil, let writer = writer as? PartWritable {
      let records = min(part.ends.count, limit - summary.shown)
      guard records > 0 else { return }
      do throws(OutputError) {
        try part.written.append(0..<part.ends[records - 1], to: writer)
      } catch {
        throw .output(error)
      }
      summary.shown += records
      return
    }
    guard let c = compiled[part.source] else { return }
    var first = 0
    for (batch, rows) in part.kept where summary.shown < limit {
      let rows = rows ?? Array(0..<Int32(batch.count))
      try write(
        batch, rows: rows, source: part.source, compiled: c, digests: part.digests,
        ahead: part.ahead, first: first, summary: &summary)
      first += rows.count
    }
  }

  /// Writes the matching `rows` of `batch`; `digests` and `ahead`, from `first` on, are theirs
  /// when a part's worker made them (`RecordDigesting`), else the digests are made here.
  private mutating func write(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled c: SourceAccess,
    digests made: RecordDigests? = nil, ahead: RowsWrittenAhead? = nil, first: Int = 0,
    summary: inout RunSummary
  ) throws(SiftError) {
    if let digesting = writer as? RecordDigesting, let keyColumns = digesting.digestKeyColumns {
      let count = min(rows.count, limit - summary.shown)
      guard count > 0 else { return }
      do throws(OutputError) {
        if let made {
          try digesting.write(
            rows: rows[..<count], of: batch, source: source, columns: c.columns,
            verbatim: c.verbatim, digests: made, ahead: ahead, first: first)
        } else {
          var digests = digests ?? RecordDigests(keyColumns: keyColumns)
          self.digests = nil
          defer { self.digests = digests }
          digests.removeAll()
          digests.add(batch, rows: rows[..<count], columns: c.columns, verbatim: c.verbatim)
          try digesting.write(
            rows: rows[..<count], of: batch, source: source, columns: c.columns,
            verbatim: c.verbatim, digests: digests, ahead: nil, first: 0)
        }
      } catch {
        throw .output(error)
      }
      summary.shown += count
      return
    }
    let places = writer as? RecordPlaceTaking
    if places == nil, let batchWriter = writer as? BatchWriting {
      let count = min(rows.count, limit - summary.shown)
      guard count > 0 else { return }
      var ends = [Int].take(&self.ends)
      defer {
        ends.removeAll(keepingCapacity: true)
        self.ends = ends
      }
      do throws(OutputError) {
        try batch.withRows { cursor throws(OutputError) in
          try batchWriter.write(
            rows: rows[..<count], of: cursor, columns: c.columns, verbatim: c.verbatim,
            ends: &ends)
        }
      } catch {
        throw .output(error)
      }
      summary.shown += count
      return
    }
    do throws(OutputError) {
      try batch.withRows { cursor throws(OutputError) in
        for r in rows where summary.shown < limit {
          places?.takePlace(source: source, line: batch.line(Int(r)))
          try writer.write(cursor.row(Int(r)), columns: c.columns, verbatim: c.verbatim)
          summary.shown += 1
        }
      }
    } catch {
      throw .output(error)
    }
  }

  mutating func finish(
    compiled: [Int: SourceAccess], summary: inout RunSummary
  ) throws(SiftError) {
    do throws(OutputError) { try writer.end() } catch { throw .output(error) }
  }
}

/// The output a part writer wrote, in the blocks its buffer filled and the runs of input rows
/// it copied as they are (kept, not copied).
final class PartBytes: BlockKeeper {
  private var chunks: [ArraySlice<UInt8>] = []
  private(set) var count = 0

  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    chunks.append(Array(bytes)[...])
    count += bytes.count
  }

  func keep(_ block: inout [UInt8]) {
    count += block.count
    chunks.append([UInt8].take(&block)[...])
  }

  func keep(shared bytes: ArraySlice<UInt8>) {
    count += bytes.count
    chunks.append(bytes)
  }

  /// Hands the bytes `range` of those kept, whole records, to `writer`'s output, block by block.
  func append(_ range: Range<Int>, to writer: PartWritable) throws(OutputError) {
    var failure: OutputError?
    forEachChunk(in: range) { chunk in
      guard failure == nil else { return }
      do throws(OutputError) { try writer.appendPart(chunk) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Calls `body` with the bytes `range` of those kept, block by block.
  private func forEachChunk(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    var at = 0
    for chunk in chunks where at < range.upperBound {
      let (lower, upper) = (max(range.lowerBound, at), min(range.upperBound, at + chunk.count))
      if lower < upper {
        chunk.withUnsafeBufferPointer {
          body(UnsafeBufferPointer(rebasing: $0[(lower - at)..<(upper - at)]))
        }
      }
      at += chunk.count
    }
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
}
