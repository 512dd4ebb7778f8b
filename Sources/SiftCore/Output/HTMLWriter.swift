/// Writes the records of an HTML report as one `<table>` (Docs/Reports.md, The table): a header
/// row, a row per record (every other one shaded), numbers right-aligned in tabular figures,
/// every value escaped, line breaks as `<br>`; with groups, a header row `label (count)` before
/// each group's rows; a summary's `Total` row last and bold. The table's styles are inline, for
/// e-mail clients, and set once on the table and its rows where they can, so that a few hundred
/// rows stay about 100 KB; the document around the table is `HTMLReport`'s.
public final class HTMLWriter: RecordWriter {
  private let output: OutputBuffer
  private let numericColumns: [Bool]
  /// Whether the last row written is a summary's `Total` row (Docs/Aggregates.md).
  private let endsWithTotal: Bool
  private var columnCount = 0
  private var rows = 0
  /// The cells of the row being written.
  private var cells: [UInt8] = []
  /// When the last row is the total: the latest row's cells, until it is known whether it is the
  /// last.
  private var held: [UInt8]?
  private var scratch: [UInt8] = []

  public init(output: OutputBuffer, numericColumns: [Bool], endsWithTotal: Bool = false) {
    self.output = output
    self.numericColumns = numericColumns
    self.endsWithTotal = endsWithTotal
  }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    columnCount = headers.count
    var out = output
    out.append(literal: "<table cellpadding=\"6\" cellspacing=\"0\" border=\"0\" width=\"100%\" style=\"")
    out.append(literal: HTMLStyle.table)
    out.append(literal: "\">\n<tr>")
    for (column, name) in headers.enumerated() {
      out.append(literal: isNumeric(column) ? "<th align=\"right\" style=\"" : "<th align=\"left\" style=\"")
      out.append(literal: HTMLStyle.headerCell)
      out.append(literal: "\">")
      name.withUnsafeBufferPointer { HTMLText.append($0, to: &out) }
      out.append(literal: "</th>")
    }
    out.append(literal: "</tr>\n")
    try output.endRecord()
  }

  /// A group's header row: its values (`Acme · received`, `(empty)` for an empty one) and its
  /// count, digits grouped.
  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    var out = output
    out.append(literal: "<tr style=\"")
    out.append(literal: HTMLStyle.groupRow)
    out.append(literal: "\"><td colspan=\"")
    out.append("\(max(columnCount, 1))")
    out.append(literal: "\" style=\"")
    out.append(literal: HTMLStyle.groupCell)
    out.append(literal: "\">")
    var text = heading.keyText()
    text.withUTF8 { HTMLText.append($0, to: &out) }
    out.append(literal: " <span style=\"")
    out.append(literal: HTMLStyle.groupCount)
    out.append(literal: "\">(")
    out.append(heading.summaryText)
    out.append(literal: ")</span></td></tr>\n")
    try output.endRecord()
  }

  public func write(
    _ row: RowView, columns: [OutputColumn], verbatim: Bool
  ) throws(OutputError) {
    var out = [UInt8].take(&cells)
    var decoded = [UInt8].take(&scratch)
    defer {
      cells = out
      scratch = decoded
    }
    for (column, value) in columns.enumerated() {
      value.value(row).withText(scratch: &decoded) { appendCell($0, column: column, to: &out) }
    }
    if endsWithTotal {
      // Summary rows are few: each waits until the next shows it is not the last.
      try writeHeld(total: false)
      held = out
      out.removeAll(keepingCapacity: true)
    } else {
      try writeRow(&out, total: false)
    }
  }

  /// Writes one row of plain texts, one per column (the `-c` report: a value and its count).
  public func write(texts: [String]) throws(OutputError) {
    var out = [UInt8].take(&cells)
    defer { cells = out }
    for (column, text) in texts.enumerated() {
      var text = text
      text.withUTF8 { appendCell($0, column: column, to: &out) }
    }
    try writeRow(&out, total: false)
  }

  /// A summary in a report ends with its `Total` row (Docs/Aggregates.md).
  public var writesTotals: Bool { true }

  public func end() throws(OutputError) {
    try writeHeld(total: true)
    var out = output
    if rows == 0 {
      out.append(literal: "<tr><td colspan=\"")
      out.append("\(max(columnCount, 1))")
      out.append(literal: "\">No records match.</td></tr>\n")
    }
    out.append(literal: "</table>\n")
    try output.flush()
  }

  private func appendCell(
    _ text: UnsafeBufferPointer<UInt8>, column: Int, to out: inout [UInt8]
  ) {
    out.append(literal: isNumeric(column) ? "<td align=\"right\"" : "<td")
    switch Self.wrapping(text) {
    case .never: out.append(literal: " nowrap")
    case .atSpaces: break
    case .anywhere: out.append(literal: " style=\"word-break:break-all\"")
    }
    out.append(.greaterThan)
    HTMLText.append(text, lineBreaks: true, to: &out)
    out.append(literal: "</td>")
  }

  private func writeHeld(total: Bool) throws(OutputError) {
    guard var row = held else { return }
    held = nil
    try writeRow(&row, total: total)
  }

  /// Writes a row of `rowCells` (and empties it): every other row shaded, the total bold.
  private func writeRow(_ rowCells: inout [UInt8], total: Bool) throws(OutputError) {
    var out = output
    if total {
      out.append(literal: "<tr style=\"")
      out.append(literal: HTMLStyle.totalRow)
      out.append(literal: "\">")
    } else if rows % 2 == 1 {
      out.append(literal: "<tr style=\"")
      out.append(literal: HTMLStyle.shadedRow)
      out.append(literal: "\">")
    } else {
      out.append(literal: "<tr>")
    }
    rows += 1
    rowCells.append(literal: "</tr>\n")
    try output.append(line: &rowCells)
  }

  /// Where a value may wrap (Docs/Reports.md, The table). A short value without spaces (a
  /// number, date or identifier such as `GRN-000001`) never, as the terminal's table never cuts
  /// those, and the browser would break it at a hyphen; text at its spaces; a value with a word
  /// too long to keep the page narrow (nested JSON, a link) anywhere.
  private enum Wrapping { case never, atSpaces, anywhere }

  /// The longest word that is kept whole.
  private static let longestWord = 24

  private static func wrapping(_ text: UnsafeBufferPointer<UInt8>) -> Wrapping {
    var word = 0
    var spaced = false
    for b in text {
      if b == .space || b == .lineFeed || b == .carriageReturn {
        spaced = true
        word = 0
      } else {
        word += 1
        if word > longestWord { return .anywhere }
      }
    }
    return spaced ? .atSpaces : .never
  }

  private func isNumeric(_ column: Int) -> Bool {
    column < numericColumns.count && numericColumns[column]
  }
}
