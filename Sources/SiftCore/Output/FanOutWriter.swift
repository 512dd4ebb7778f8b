/// Writes the same records through several writers, each into its own output: the e-mail report
/// (Docs/Reports.md, The e-mail report) writes its HTML part, its plain-text part and its
/// attachment in one run. The first writer decides whether a summary ends with its `Total` row.
/// With `--changes`, the writers that show earlier values their own way are told so; the others
/// keep the `was` column.
public final class FanOutWriter: RecordWriter, EarlierValuesShowing {
  private let writers: [RecordWriter]

  /// - Parameter writers: at least one; the first is the main one.
  public init(_ first: RecordWriter, _ others: [RecordWriter]) {
    writers = [first] + others
  }

  public func leaveOutWasColumn() {
    for case let writer as EarlierValuesShowing in writers { writer.leaveOutWasColumn() }
  }

  public func showEarlier(_ values: [(column: Int, text: [UInt8])]) {
    for case let writer as EarlierValuesShowing in writers { writer.showEarlier(values) }
  }

  public func sayEarlierValuesNotKept(in column: Int) {
    for case let writer as EarlierValuesShowing in writers { writer.sayEarlierValuesNotKept(in: column) }
  }

  public func begin(columns: [String]) throws(OutputError) {
    for writer in writers { try writer.begin(columns: columns) }
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    for writer in writers { try writer.begin(columns: columns, headers: headers) }
  }

  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    for writer in writers { try writer.beginGroup(heading) }
  }

  public func write(_ row: RowView, columns: [OutputColumn], verbatim: Bool) throws(OutputError) {
    for writer in writers { try writer.write(row, columns: columns, verbatim: verbatim) }
  }

  public func end() throws(OutputError) {
    for writer in writers { try writer.end() }
  }

  public func flush() throws(OutputError) {
    for writer in writers { try writer.flush() }
  }

  public var writesTotals: Bool { writers[0].writesTotals }
}
