/// Writes the records of an HTML report as one `<table>` (Docs/Reports.md, The table): a header
/// row of labels, a row per record (every other one shaded), numbers right-aligned in tabular
/// figures with grouped digits and their column's decimals, nested values as readable text, every
/// value escaped, line breaks as `<br>`; with groups, a header row `label (count)` before each
/// group's rows; a summary's `Total` row last and bold; with `--changes`, a changed value's
/// earlier one struck through before it, and `(earlier values not kept)` after the `change` of a
/// record whose earlier values the baseline did not keep. The table's styles are inline, for e-mail clients, and
/// set once on the table and its rows where they can, so that a few hundred rows stay about
/// 100 KB; the document around the table is `HTMLReport`'s.
///
/// The rows are kept until `end`, as a column's decimals are known only when all its numbers
/// are (a report's body is laid out whole anyway: `OutputFormat.laysOutWhole`).
public final class HTMLWriter: RecordWriter, EarlierValuesShowing {
  private let output: OutputBuffer
  private let numericColumns: [Bool]
  /// Whether the last row written is a summary's `Total` row (Docs/Aggregates.md).
  private let endsWithTotal: Bool
  /// The header's labels (a view's, else the names in Title Case); `nil`: the names as written.
  private let labels: Labels?
  /// Per column, the decimal mark its numbers are written with (`.` when not given).
  private let decimalMarks: [UInt8]
  private var columnCount = 0
  /// The most decimals of a number in each column.
  private var decimals: [Int] = []

  /// A row kept until `end`: a group's heading, or a record's cells (ranges of `texts`), the
  /// earlier values of its changed cells, and the cell that says its earlier values were not
  /// kept.
  private enum Row {
    case group(GroupHeading)
    case cells(Range<Int>, earlier: [(column: Int, text: Range<Int>)], notKept: Int?)
  }
  private var kept: [Row] = []
  /// Every kept cell's text (and earlier value), one after another; `starts` and `ends` mark
  /// each cell's.
  private var texts: [UInt8] = []
  private var starts: [Int] = []
  private var ends: [Int] = []
  /// The earlier values of the next record written (`showEarlier`).
  private var earlier: [(column: Int, text: [UInt8])] = []
  /// The cell of the next record written that says its earlier values were not kept
  /// (`sayEarlierValuesNotKept`).
  private var notKept: Int?
  /// Whether the records end with a `was` column this table leaves out (`leaveOutWasColumn`).
  private var leavesOutWas = false
  private var scratch: [UInt8] = []

  public init(
    output: OutputBuffer, numericColumns: [Bool], endsWithTotal: Bool = false,
    labels: Labels? = nil, decimalMarks: [DecimalMark] = []
  ) {
    self.output = output
    self.numericColumns = numericColumns
    self.endsWithTotal = endsWithTotal
    self.labels = labels
    self.decimalMarks = decimalMarks.map { $0 == .comma ? .comma : .dot }
  }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    let columns = leavesOutWas ? Array(columns.dropLast()) : columns
    let headers = leavesOutWas ? Array(headers.dropLast()) : headers
    columnCount = headers.count
    decimals = Array(repeating: 0, count: columnCount)
    var out = output
    out.append(literal: "<div style=\"")
    out.append(literal: HTMLStyle.tableScroll)
    out.append(literal: "\">\n")
    out.append(
      literal: "<table cellpadding=\"6\" cellspacing=\"0\" border=\"0\" width=\"100%\" style=\"")
    out.append(literal: HTMLStyle.table)
    out.append(literal: "\">\n<tr>")
    for (column, name) in headers.enumerated() {
      out.append(
        literal: isNumeric(column) ? "<th align=\"right\" style=\"" : "<th align=\"left\" style=\"")
      out.append(literal: HTMLStyle.headerCell)
      out.append(.quote)
      if let labels, column < columns.count {
        // The label, and the field's name on hover: the name is what a query types.
        out.append(literal: " title=\"")
        name.withUnsafeBufferPointer { HTMLText.append($0, to: &out) }
        out.append(literal: "\">")
        var label = labels.label(columns[column])
        label.withUTF8 { HTMLText.append($0, to: &out) }
      } else {
        out.append(.greaterThan)
        name.withUnsafeBufferPointer { HTMLText.append($0, to: &out) }
      }
      out.append(literal: "</th>")
    }
    out.append(literal: "</tr>\n")
    try output.endRecord()
  }

  /// A group's header row: its values (`Acme · received`, `(empty)` for an empty one) and its
  /// count, digits grouped.
  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    kept.append(.group(heading))
  }

  public func leaveOutWasColumn() {
    leavesOutWas = true
  }

  public func showEarlier(_ values: [(column: Int, text: [UInt8])]) {
    earlier = values
  }

  public func sayEarlierValuesNotKept(in column: Int) {
    notKept = column
  }

  public func write(
    _ row: RowView, columns: [OutputColumn], verbatim: Bool
  ) throws(OutputError) {
    let first = ends.count
    for (column, value) in columns.prefix(leavesOutWas ? columns.count - 1 : columns.count)
      .enumerated()
    {
      let field = value.value(row)
      starts.append(texts.count)
      if field.form == .jsonNested {
        ReadableNested.append(field, to: &texts)
      } else {
        field.withText(scratch: &scratch) { texts.append(contentsOf: $0) }
      }
      ends.append(texts.count)
      noteDecimals(column: column, cell: ends.count - 1)
    }
    var olds: [(column: Int, text: Range<Int>)] = []
    for (column, text) in earlier {
      let start = texts.count
      texts.append(contentsOf: text)
      olds.append((column, start..<texts.count))
    }
    earlier = []
    kept.append(.cells(first..<ends.count, earlier: olds, notKept: notKept))
    notKept = nil
  }

  /// Writes one row of plain texts, one per column (the `-c` report: a value and its count).
  public func write(texts row: [String]) throws(OutputError) {
    let first = ends.count
    for (column, text) in row.enumerated() {
      starts.append(texts.count)
      texts.append(contentsOf: text.utf8)
      ends.append(texts.count)
      noteDecimals(column: column, cell: ends.count - 1)
    }
    kept.append(.cells(first..<ends.count, earlier: [], notKept: nil))
  }

  /// A summary in a report ends with its `Total` row (Docs/Aggregates.md).
  public var writesTotals: Bool { true }

  public func end() throws(OutputError) {
    let lastCells = kept.lastIndex {
      if case .cells = $0 { return true } else { return false }
    }
    var shown = 0
    for (index, row) in kept.enumerated() {
      switch row {
      case .group(let heading):
        try writeGroup(heading)
      case .cells(let cells, let olds, let notKept):
        try writeRow(cells, earlier: olds, notKept: notKept, shade: shown % 2 == 1,
          total: endsWithTotal && index == lastCells)
        shown += 1
      }
    }
    var out = output
    if shown == 0 {
      out.append(literal: "<tr><td colspan=\"")
      out.append("\(max(columnCount, 1))")
      out.append(literal: "\">No records match.</td></tr>\n")
    }
    out.append(literal: "</table>\n</div>\n")
    try output.flush()
  }

  private func writeGroup(_ heading: GroupHeading) throws(OutputError) {
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

  /// Writes one record's row: every other row shaded, the total bold.
  private func writeRow(
    _ cells: Range<Int>, earlier olds: [(column: Int, text: Range<Int>)], notKept: Int?,
    shade: Bool, total: Bool
  ) throws(OutputError) {
    var line: [UInt8] = []
    if total {
      line.append(literal: "<tr style=\"")
      line.append(literal: HTMLStyle.totalRow)
      line.append(literal: "\">")
    } else if shade {
      line.append(literal: "<tr style=\"")
      line.append(literal: HTMLStyle.shadedRow)
      line.append(literal: "\">")
    } else {
      line.append(literal: "<tr>")
    }
    var shown: [UInt8] = []
    for (column, cell) in cells.enumerated() {
      shown.removeAll(keepingCapacity: true)
      texts.withUnsafeBufferPointer { all in
        let text = UnsafeBufferPointer(rebasing: all[starts[cell]..<ends[cell]])
        if isNumeric(column) {
          ReportNumber.append(
            text, decimals: decimals[column], mark: mark(column), to: &shown)
        } else {
          shown.append(contentsOf: text)
        }
        let old = olds.first { $0.column == column }.map {
          UnsafeBufferPointer(rebasing: all[$0.text])
        }
        shown.withUnsafeBufferPointer {
          appendCell($0, earlier: old, notKept: notKept == column, column: column, to: &line)
        }
      }
    }
    line.append(literal: "</tr>\n")
    try output.append(line: &line)
  }

  private func appendCell(
    _ text: UnsafeBufferPointer<UInt8>, earlier old: UnsafeBufferPointer<UInt8>?, notKept: Bool,
    column: Int, to out: inout [UInt8]
  ) {
    out.append(literal: isNumeric(column) ? "<td align=\"right\"" : "<td")
    switch Self.wrapping(text) {
    case .never: out.append(literal: " nowrap")
    case .atSpaces: break
    case .anywhere: out.append(literal: " style=\"word-break:break-all\"")
    }
    out.append(.greaterThan)
    if let old {
      // The earlier value struck through, then the new one (Docs/Reports.md, Changes since the
      // last run).
      out.append(literal: "<del style=\"")
      out.append(literal: HTMLStyle.earlierValue)
      out.append(literal: "\">")
      HTMLText.append(old, lineBreaks: true, to: &out)
      out.append(literal: "</del> ")
    }
    HTMLText.append(text, lineBreaks: true, to: &out)
    if notKept {
      // What the `was` column says in the other formats (Docs/Reports.md, The state).
      out.append(literal: " <span style=\"")
      out.append(literal: HTMLStyle.earlierNotKept)
      out.append(literal: "\">")
      out.append(literal: ChangeTracker.earlierValuesNotKept)
      out.append(literal: "</span>")
    }
    out.append(literal: "</td>")
  }

  private func noteDecimals(column: Int, cell: Int) {
    guard isNumeric(column), column < decimals.count else { return }
    let own = texts.withUnsafeBufferPointer { all in
      ReportNumber.parts(
        UnsafeBufferPointer(rebasing: all[starts[cell]..<ends[cell]]), mark: mark(column)
      )?.decimals ?? 0
    }
    decimals[column] = max(decimals[column], own)
  }

  private func mark(_ column: Int) -> UInt8 {
    column < decimalMarks.count ? decimalMarks[column] : .dot
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

/// A writer that shows a changed record's earlier values its own way rather than in a `was`
/// column (Docs/Reports.md, Changes since the last run): the HTML report strikes each through
/// next to the new value.
public protocol EarlierValuesShowing: AnyObject {
  /// Called before `begin`: the records will end with a `was` column, which this writer leaves
  /// out (the other parts of an e-mail report keep theirs).
  func leaveOutWasColumn()
  /// The earlier values of the record written next, by output column.
  func showEarlier(_ values: [(column: Int, text: [UInt8])])
  /// The record written next changed or is gone, but its earlier values were not kept (past
  /// the values a baseline keeps): the writer says `(earlier values not kept)` in output column
  /// `column` (the `change` column), as the `was` column does in the other formats.
  func sayEarlierValuesNotKept(in column: Int)
}
