/// Compares a run's matching records with a baseline by their key fields and writes only what
/// changed (Docs/Reports.md, "Changes since the last run"): each record `new` or `changed` as it
/// comes, with a first column `change` and a last column `was` (`status=pending; qty=5`), then the
/// baseline's records no longer there as `gone`, with their last values. It sits between the
/// engine and the format's writer, and builds the next baseline as the records pass.
public final class ChangeTracker: RecordWriter, RecordPlaceTaking, RecordDigesting {
  private var comparison: ChangeComparison

  /// The baseline the next run compares with: this run's matching records.
  public var next: ChangeBaseline { comparison.next }
  public var counts: ChangeCounts { comparison.counts }
  /// Set when two records share a key; the writer then stops the run.
  public var failure: ChangeError? { comparison.failure }
  /// The size of the inputs in bytes, when known (regular files): with the first records' mean
  /// length it tells how many records to make room for up front.
  public var inputBytes: Int? {
    get { comparison.inputBytes }
    set { comparison.inputBytes = newValue }
  }
  /// Whether the gone rows may be made on a thread of their own beside the calling thread (not
  /// with `-j 1`).
  public var goneRowsAside: Bool {
    get { comparison.goneRowsAside }
    set { comparison.goneRowsAside = newValue }
  }

  /// What the `was` column says of a changed or gone record whose earlier values the baseline
  /// did not keep (Docs/Reports.md, The state).
  public static let earlierValuesNotKept: StaticString = "(earlier values not kept)"

  /// - Parameters:
  ///   - inner: the format's writer, or `nil` to only build `next` (an earlier export read
  ///     for `--against`).
  ///   - keys: the key fields, as output column names.
  ///   - baseline: the records to compare with; `nil` on a first run (every record is new).
  ///   - since: when this run is made, for `next`.
  ///   - budget: the most bytes of values `next` keeps (`ChangeBaseline.valueBudget`).
  ///   - nextIsWritten: whether `next` is written as the next run's baseline; `false` for
  ///     `--peek` and `--against`, where it keeps only what finds the keys that repeat.
  public init(
    inner: RecordWriter?, keys: [String], keyLabel: String, baseline: ChangeBaseline?,
    since: String, budget: Int = ChangeBaseline.valueBudget, nextIsWritten: Bool = true
  ) {
    comparison = ChangeComparison(
      inner: inner, keys: keys, keyLabel: keyLabel, baseline: baseline, since: since,
      budget: budget, nextIsWritten: nextIsWritten)
  }

  /// Takes the key table of `earlier`, the run that read this one's baseline (an earlier export,
  /// for `--against`), as the baseline's: its keys are not hashed and put into a table again.
  /// `earlier` is not used after.
  public func takeKeyTable(of earlier: ChangeTracker) {
    comparison.baselineTable = earlier.comparison.tableOfNext
  }

  public func takePlace(source: Int, line: Int) {
    comparison.place = (Int32(truncatingIfNeeded: source), Int32(truncatingIfNeeded: line))
  }

  public func takeOrigin(source: Int, input: Int, lineOffset: Int) {
    comparison.origins[source] = (input, lineOffset)
  }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    try comparison.begin(columns: columns, headers: headers)
  }

  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    try comparison.beginGroup(heading)
  }

  public var writesTotals: Bool { false }

  public func write(_ row: RowView, columns cs: [OutputColumn], verbatim: Bool) throws(OutputError) {
    try comparison.write(row, columns: cs, verbatim: verbatim)
  }

  var digestKeyColumns: [Int]? { comparison.digestKeyColumns }
  var digestedDelimiter: UInt8 { RecordDigests.delimiter }

  var rowsAheadFormat: PartWritable? { comparison.rowsAheadFormat }
  var valuesAhead: ValuesPackedAhead? { comparison.valuesAhead }

  func write(
    rows: ArraySlice<Int32>, of batch: RecordBatch, source: Int, columns cs: [OutputColumn],
    verbatim: Bool, digests: RecordDigests, ahead: RowsWrittenAhead?, first: Int
  ) throws(OutputError) {
    try comparison.write(
      rows: rows, of: batch, source: source, columns: cs, verbatim: verbatim, digests: digests,
      ahead: ahead, first: first)
  }

  public func end() throws(OutputError) {
    try comparison.end()
  }

  /// The rows held back behind a record whose key was not yet settled go out (the records
  /// before the failure), then the format's writer ends as it does when stopped.
  public func endStopped() {
    comparison.sendHeld()
    comparison.inner?.endStopped()
  }
}
