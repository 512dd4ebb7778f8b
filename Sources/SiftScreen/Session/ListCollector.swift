import SiftCore

/// Keeps a list run's records as the screen shows them (Docs/Interactive.md, Runs): each cell's
/// text made visible (`VisibleText`), the first `ListResult.rowLimit` rows, and the group
/// headings. A cancelled run stops at its next record, as a closed pipe stops one.
public final class ListCollector: RecordWriter {
  public private(set) var columns: [String] = []
  public private(set) var rows: [[String]] = []
  public private(set) var groups: [(row: Int, heading: GroupHeading)] = []
  /// Every record written, kept or not.
  public private(set) var written = 0
  private let ascii: Bool
  private let cancellation: RunCancellation
  private let progress: (Int) -> Void
  private var lastProgress: Int64
  private var scratch: [UInt8] = []

  /// Calls `progress` with the records written so far, at most every 100 ms.
  public init(ascii: Bool, cancellation: RunCancellation, progress: @escaping (Int) -> Void) {
    self.ascii = ascii
    self.cancellation = cancellation
    self.progress = progress
    self.lastProgress = MonotonicClock.now()
  }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    self.columns = headers.map { header in
      header.withUnsafeBufferPointer { VisibleText.of($0, ascii: ascii) }
    }
  }

  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    if rows.count < ListResult.rowLimit { groups.append((rows.count, heading)) }
  }

  public func write(_ row: RowView, columns: [OutputColumn], verbatim: Bool) throws(OutputError) {
    if cancellation.isCancelled { throw .closed }
    written += 1
    if rows.count < ListResult.rowLimit {
      rows.append(columns.map { column in
        column.value(row).withText(scratch: &scratch) { VisibleText.of($0, ascii: ascii) }
      })
    }
    if written & 0xFFF == 0 {
      let now = MonotonicClock.now()
      if now - lastProgress >= 100 {
        lastProgress = now
        progress(written)
      }
    }
  }

  public func end() throws(OutputError) {}

  /// A summary ends with its `Total` row, as in a table (Docs/Aggregates.md).
  public var writesTotals: Bool { true }
}
