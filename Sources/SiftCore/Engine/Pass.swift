/// One pass over the records: filters each batch and hands the matches to the run's sink, which
/// writes, keeps or counts them (Docs/Architecture.md, Filter, order, write).
struct Pass<Sink: MatchSink> {
  let plan: Plan
  var sink: Sink
  var summary = RunSummary()
  /// Per source (a reader, or a part of a file read in parallel): its compiled filter and
  /// columns, for the field count they were made for.
  var compiled: [Int: SourceAccess] = [:]
  /// Short rows counted by part readers the engine no longer holds.
  var shortRowsElsewhere = 0
  /// The matching rows of the batch being filtered.
  private var matches: [Int32] = []

  init(plan: Plan, sink: Sink) {
    self.plan = plan
    self.sink = sink
  }

  mutating func compiledFor(
    _ source: Int, names: [String], encoding: FieldEncoding, decimalMark: DecimalMark
  ) -> SourceAccess {
    if let c = compiled[source], c.fieldCount == names.count { return c }
    let c = SourceAccess(plan: plan, names: names, encoding: encoding, decimalMark: decimalMark)
    if encoding == .json {
      // Keys first seen after the sample, on an input that could not be scanned for them.
      for n in c.layout.fieldsOutsideSchema(names) where !summary.keysAfterSample.contains(n) {
        summary.keysAfterSample.append(n)
      }
    }
    compiled[source] = c
    return c
  }

  /// Filters `batch`, read by `source` whose fields are `names`, and hands the matches to the
  /// sink.
  mutating func process(
    _ batch: RecordBatch, from source: Int, names: [String]
  ) throws(SiftError) {
    let c = compiledFor(
      source, names: names, encoding: batch.encoding, decimalMark: batch.decimalMark)
    summary.total += batch.count
    batch.filter(by: c.predicate, into: &matches)
    summary.matched += matches.count
    try sink.take(batch, rows: matches, source: source, compiled: c, summary: &summary)
  }

  /// Takes the result of a part filtered on a worker, read by `source`.
  mutating func merge(_ part: PartResult<Sink.Part>, source: Int) throws(SiftError) {
    summary.total += part.total
    summary.matched += part.matched
    shortRowsElsewhere += part.shortRows
    if let (names, encoding, decimalMark) = part.fields {
      _ = compiledFor(source, names: names, encoding: encoding, decimalMark: decimalMark)
    }
    try sink.merge(part.collector, compiled: compiled, summary: &summary)
  }

  /// Writes what the sink holds; `readers` give their skip and short-row counts.
  mutating func finish(readers: [RecordReader]) throws(SiftError) -> RunSummary {
    summary.skipped = readers.reduce(0) { $0 + $1.skipped }
    summary.shortRows = readers.reduce(shortRowsElsewhere) { $0 + $1.shortRows }
    try sink.finish(compiled: compiled, summary: &summary)
    return summary
  }
}

extension RecordBatch {
  /// Sets `rows` to the indices of the records `predicate` accepts (all without one).
  func filter(by predicate: RowPredicate?, into rows: inout [Int32]) {
    guard let predicate else {
      // Every row, written in one loop the compiler vectorizes (appending a range goes an
      // element at a time: 13 instructions a record of a count, Docs/Performance.md).
      let n = count
      rows = [Int32](unsafeUninitializedCapacity: n) { all, initialized in
        for r in 0..<n { all[r] = Int32(truncatingIfNeeded: r) }
        initialized = n
      }
      return
    }
    rows.removeAll(keepingCapacity: true)
    withRows { cursor in
      for r in 0..<cursor.count where predicate(cursor.row(r)) { rows.append(Int32(r)) }
    }
  }
}
