import SiftCore

/// Keeps a list run's records as the screen shows them (Docs/Interactive.md, Runs): each cell's
/// text made visible (`VisibleText`), the first `ListResult.rowLimit` rows, and the group
/// headings.
public final class ListCollector: RecordWriter {
  public private(set) var columns: [String] = []
  public private(set) var rows: [[String]] = []
  public private(set) var groups: [(row: Int, heading: GroupHeading)] = []
  /// Every record written, kept or not.
  public private(set) var written = 0
  private let ascii: Bool
  private var scratch: [UInt8] = []

  public init(ascii: Bool) {
    self.ascii = ascii
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
    written += 1
    guard rows.count < ListResult.rowLimit else { return }
    rows.append(columns.map { column in
      column.value(row).withText(scratch: &scratch) { VisibleText.of($0, ascii: ascii) }
    })
  }

  public func end() throws(OutputError) {}

  /// A summary ends with its `Total` row, as in a table (Docs/Aggregates.md).
  public var writesTotals: Bool { true }
}
