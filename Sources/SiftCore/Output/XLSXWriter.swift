/// Writes records as one worksheet of an `XLSXWorkbook` (Docs/Formats.md, Writing workbooks):
/// a bold header row, frozen, with an autofilter over the records; each value a typed cell
/// (`XLSXCell`, read in its column's `ColumnReading`); column widths from the header and the first 1,000 records, which are held until
/// the widths are known (a sheet's `<cols>` come before its rows), the rest streamed. Text is an
/// inline string: the sheet is written as the records come, with no table of every distinct
/// string kept to the end. A sheet holds 1,048,576 rows: the record that would pass them ends the
/// workbook with the rows before it and is an error.
public final class XLSXWriter: RecordWriter {
  /// Excel's last row and column.
  public static let maxRows = 1_048_576
  public static let maxColumns = 16_384
  /// Records held to size the columns.
  static let sizingRows = 1000
  /// The widest and narrowest a column is made, in characters.
  static let widest = 60
  static let narrowest = 4

  private let workbook: XLSXWorkbook
  private let sheet: Int
  private let columns: [ColumnReading]
  /// The rows the sheet may hold (`maxRows`; tests give fewer).
  private let rowLimit: Int
  private var columnCount = 0
  /// Rows written, the header included.
  private var rows = 0 {
    didSet { rowDigits = Array("\(rows)".utf8) }
  }
  /// `rows` in decimal digits, made once per row for its cells' references.
  private var rowDigits: [UInt8] = []
  /// Per column, the widest value seen while sizing.
  private var widths: [Int] = []
  /// The rows held while sizing, then the row being written.
  private var held: [UInt8] = []
  private var sizing = true
  private var scratch: [UInt8] = []
  private var ended = false

  init(workbook: XLSXWorkbook, sheet: Int, columns: [ColumnReading], rowLimit: Int = maxRows) {
    self.rowLimit = rowLimit
    self.workbook = workbook
    self.sheet = sheet
    self.columns = columns
  }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    guard headers.count <= Self.maxColumns else {
      throw .failed(
        "a sheet holds \(groupedDigits(Self.maxColumns)) columns, and the output has \(groupedDigits(headers.count)); choose fewer with fields:")
    }
    columnCount = headers.count
    widths = headers.map { header in
      header.withUnsafeBufferPointer { DisplayWidth.of($0) } + 2  // room for the filter's button
    }
    rows = 1
    held.append(contentsOf: "<row r=\"1\">".utf8)
    for (column, header) in headers.enumerated() where !header.isEmpty {
      appendReference(column: column, to: &held)
      held.append(literal: " s=\"1\" t=\"inlineStr\"><is><t xml:space=\"preserve\">")
      header.withUnsafeBufferPointer { XLSXText.append($0, to: &held) }
      held.append(literal: "</t></is></c>")
    }
    held.append(literal: "</row>")
  }

  /// Sheets have no group headings: a grouped query's records follow each other.
  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {}

  public func write(_ row: RowView, columns: [OutputColumn], verbatim: Bool) throws(OutputError) {
    guard !ended else { return }
    if rows >= rowLimit {
      try end()
      throw .failed(
        "a sheet ends at row \(groupedDigits(rowLimit)): the workbook holds the header and the first \(groupedDigits(rowLimit - 1)) records; narrow the query, or add limit:")
    }
    rows += 1
    var out = [UInt8].take(&held)
    var decoded = [UInt8].take(&scratch)
    defer { scratch = decoded }
    out.append(literal: "<row r=\"")
    out.append(contentsOf: rowDigits)
    out.append(literal: "\">")
    for (column, accessor) in columns.enumerated() {
      let value = accessor.value(row)
      let reading = column < self.columns.count ? self.columns[column] : ColumnReading(type: .text)
      value.withText(scratch: &decoded) { text in
        appendCell(value, text: text, reading: reading, column: column, to: &out)
      }
    }
    out.append(literal: "</row>")
    held = out
    if sizing {
      if rows > Self.sizingRows { try startSheet() }
    } else {
      try flushHeld()
    }
  }

  /// A workbook of the records before the record that stopped the run is whole: its sheet and
  /// central directory are written (Docs/Formats.md, Writing workbooks).
  public func endStopped() { try? end() }

  public func end() throws(OutputError) {
    guard !ended else { return }
    ended = true
    if sizing { try startSheet() }
    held.append(literal: "</sheetData>")
    if columnCount > 0 {
      held.append(literal: "<autoFilter ref=\"A1:")
      appendColumnName(columnCount - 1, to: &held)
      held.append(contentsOf: "\(rows)\"/>".utf8)
    }
    held.append(literal: "<pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" header=\"0.3\" footer=\"0.3\"/></worksheet>")
    try flushHeld()
    try workbook.endSheet()
  }

  /// Starts the sheet's part: the frozen header, the column widths, then the rows held.
  private func startSheet() throws(OutputError) {
    sizing = false
    try workbook.beginSheet(sheet)
    var out: [UInt8] = []
    out.append(literal: XLSXWorkbook.declaration)
    out.append(literal: """
      <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
      xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
      """)
    out.append(literal: sheet == 0 ? "<sheetViews><sheetView tabSelected=\"1\" workbookViewId=\"0\">" : "<sheetViews><sheetView workbookViewId=\"0\">")
    out.append(literal: """
      <pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>\
      <selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>\
      <sheetFormatPr defaultRowHeight="15"/>
      """)
    if columnCount > 0 {
      out.append(literal: "<cols>")
      for (column, width) in widths.enumerated() {
        let characters = min(max(width, Self.narrowest), Self.widest) + 1
        out.append(contentsOf: "<col min=\"\(column + 1)\" max=\"\(column + 1)\" width=\"\(characters)\" customWidth=\"1\"/>".utf8)
      }
      out.append(literal: "</cols>")
    }
    out.append(literal: "<sheetData>")
    try out.withUnsafeBufferPointer { (b) throws(OutputError) in try workbook.appendToSheet(b) }
    try flushHeld()
  }

  private func flushHeld() throws(OutputError) {
    try held.withUnsafeBufferPointer { (b) throws(OutputError) in try workbook.appendToSheet(b) }
    held.removeAll(keepingCapacity: true)
  }

  private func appendCell(
    _ value: FieldValue, text: UnsafeBufferPointer<UInt8>, reading: ColumnReading, column: Int,
    to out: inout [UInt8]
  ) {
    let cell = XLSXCell.make(value, text: text, column: reading)
    var width = 0
    switch cell {
    case .empty: return
    case .number(let number):
      appendReference(column: column, to: &out)
      out.append(literal: "><v>")
      out.append(contentsOf: number.utf8)
      out.append(literal: "</v></c>")
      width = text.count
    case .serial(let serial, let style):
      appendReference(column: column, to: &out)
      out.append(contentsOf: " s=\"\(style.rawValue)\"><v>".utf8)
      out.append(contentsOf: serial.utf8)
      out.append(literal: "</v></c>")
      width = style.serialWidth
    case .boolean(let on):
      appendReference(column: column, to: &out)
      out.append(literal: on ? " t=\"b\"><v>1</v></c>" : " t=\"b\"><v>0</v></c>")
      width = 5
    case .text(let prefixed):
      appendReference(column: column, to: &out)
      out.append(literal: prefixed ? " s=\"5\" t=\"inlineStr\"><is><t xml:space=\"preserve\">" : " t=\"inlineStr\"><is><t xml:space=\"preserve\">")
      XLSXText.append(text, to: &out)
      out.append(literal: "</t></is></c>")
      if sizing { width = DisplayWidth.of(text) }
    }
    if sizing && column < widths.count { widths[column] = max(widths[column], width) }
  }

  /// `<c r="B7"`: the cell's start, up to its attributes.
  private func appendReference(column: Int, to out: inout [UInt8]) {
    out.append(literal: "<c r=\"")
    appendColumnName(column, to: &out)
    out.append(contentsOf: rowDigits)
    out.append(.quote)
  }

  /// A column's letters: `A` … `Z`, `AA` …, `XFD`.
  static func columnName(_ column: Int) -> String {
    var out: [UInt8] = []
    appendColumnName(column, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  private static func appendColumnName(_ column: Int, to out: inout [UInt8]) {
    if column < 26 {
      out.append(UInt8(ascii: "A") + UInt8(column))
      return
    }
    var n = column + 1
    var letters: [UInt8] = []
    while n > 0 {
      let r = (n - 1) % 26
      letters.append(UInt8(ascii: "A") + UInt8(r))
      n = (n - 1) / 26
    }
    out.append(contentsOf: letters.reversed())
  }

  private func appendColumnName(_ column: Int, to out: inout [UInt8]) {
    Self.appendColumnName(column, to: &out)
  }
}
