import SiftCore

/// Keeps a list run's records as the screen shows them (Docs/Interactive.md, Runs): each cell's
/// text made visible (`VisibleText`), `ListResult.rowLimit` rows from the row `firstRow` on, and
/// the group headings (the heading of the group the window starts in before its first row).
public final class ListCollector: RecordWriter {
  public private(set) var columns: [String] = []
  public private(set) var rows: [[String]] = []
  public private(set) var groups: [(row: Int, heading: GroupHeading)] = []
  /// Every record written, kept or not.
  public private(set) var written = 0
  /// The place in the result of the first row kept.
  public let firstRow: Int
  private let ascii: Bool
  private var scratch: [UInt8] = []
  /// The heading of the group written last before the window.
  private var headingBefore: GroupHeading?

  public init(ascii: Bool, firstRow: Int = 0) {
    self.ascii = ascii
    self.firstRow = firstRow
  }

  /// Whether the next record written is kept.
  private var keepsNext: Bool { written >= firstRow && rows.count < ListResult.rowLimit }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    self.columns = headers.map { header in
      header.withUnsafeBufferPointer { VisibleText.of($0, ascii: ascii) }
    }
  }

  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    if keepsNext {
      groups.append((rows.count, heading))
      headingBefore = nil
    } else if written < firstRow {
      headingBefore = heading
    }
  }

  public func write(_ row: RowView, columns: [OutputColumn], verbatim: Bool) throws(OutputError) {
    defer { written += 1 }
    guard keepsNext else { return }
    if let heading = headingBefore {
      groups.append((0, heading))
      headingBefore = nil
    }
    rows.append(columns.map { column in
      column.value(row).withText(scratch: &scratch) { VisibleText.of($0, ascii: ascii) }
    })
  }

  public func end() throws(OutputError) {}

  /// A summary ends with its `Total` row, as in a table (Docs/Aggregates.md).
  public var writesTotals: Bool { true }
}
