/// One workbook sheet as CSV text, made as its XML inflates (Docs/Formats.md, Workbooks): each
/// row with cells a record, cells placed by their `r` reference, values as text (shared and
/// inline strings, cached formula values, numbers in their shortest decimal, date serials as
/// dates), title rows above the table skipped. The CSV reader reads it like any CSV, so a
/// workbook's records are typed, filtered and written like every other input's.
final class SheetStream: ByteStage {
  private let workbook: Workbook
  private let sheet: Workbook.Sheet
  private let xml: XMLScanner
  private let noHeader: Bool
  /// Each row starts with the sheet's name, the header with `sheet`.
  private let sheetColumn: Bool
  @exclusivity(unchecked) private var rowsMade = 0
  /// Notes met while reading (an error cell, serial 60), said once each.
  private let onNote: NoteSink?
  @exclusivity(unchecked) private var saidErrorCell = false
  @exclusivity(unchecked) private var saidLeapDay = false

  /// Notes known once the header is found (title rows skipped).
  private(set) var notes: [String] = []

  /// CSV made and not yet read: `out[outRead...]`.
  @exclusivity(unchecked) private var out: [UInt8] = []
  @exclusivity(unchecked) private var outRead = 0
  @exclusivity(unchecked) private var finished = false
  @exclusivity(unchecked) private var heldError: InputError?

  // The row being read: its number and its cells' columns and value bytes.
  @exclusivity(unchecked) private var rowNumber = 0
  @exclusivity(unchecked) private var cellColumns: [Int] = []
  @exclusivity(unchecked) private var cellBounds: [Int] = []
  @exclusivity(unchecked) private var rowBytes: [UInt8] = []

  /// Single-cell rows before the first row with several: title rows, unless the table has one
  /// column (Docs/Formats.md, Workbooks).
  @exclusivity(unchecked) private var pendingRows: [(number: Int, column: Int, value: [UInt8])] = []
  static let mostTitleRows = 10
  /// The table's columns (0-based), from its header row; `nil` before it.
  @exclusivity(unchecked) private var columns: ClosedRange<Int>?

  init(
    workbook: Workbook, sheet: Workbook.Sheet, noHeader: Bool, sheetColumn: Bool = false,
    onNote: NoteSink?
  ) throws(InputError) {
    self.workbook = workbook
    self.sheet = sheet
    self.noHeader = noHeader
    self.sheetColumn = sheetColumn
    self.onNote = onNote
    xml = try workbook.scanner(sheet.part)
  }

  /// Reads until the header row is made (or the sheet ends), so the notes about it are known
  /// when the input is opened; an error is kept for the first read.
  func findHeader() {
    while columns == nil && !finished && heldError == nil { produce() }
  }

  func read(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) throws(InputError) -> Int {
    while outRead == out.count {
      if let heldError { throw heldError }
      if finished { return 0 }
      out.removeAll(keepingCapacity: true)
      outRead = 0
      produce()
    }
    let n = min(maxCount, out.count - outRead)
    out.withUnsafeBufferPointer { b in target.update(from: b.baseAddress! + outRead, count: n) }
    outRead += n
    return n
  }

  /// Makes CSV rows until 64 KiB are waiting, the sheet ends, or an error (kept for after the
  /// rows before it).
  private func produce() {
    do throws(InputError) {
      while out.count - outRead < 1 << 16 && !finished { try step() }
    } catch {
      heldError = error
    }
  }

  private func cellName(_ column: Int, _ row: Int) -> String {
    "\(workbook.name):\(sheet.name)!\(Self.columnLetters(column))\(row)"
  }

  private func fail(_ column: Int, _ row: Int, _ message: String) -> InputError {
    InputError(name: cellName(column, row), line: 0, column: 0, message: message)
  }

  /// `A`, `Z`, `AA`, … for 0-based column `column`.
  static func columnLetters(_ column: Int) -> String {
    var n = column + 1
    var letters: [UInt8] = []
    while n > 0 {
      letters.insert(UInt8(ascii: "A") + UInt8((n - 1) % 26), at: 0)
      n = (n - 1) / 26
    }
    return String(decoding: letters, as: UTF8.self)
  }

  /// Reads one token of the sheet and acts on it.
  private func step() throws(InputError) {
    switch try xml.next() {
    case .endOfInput:
      try endOfSheet()
    case .start where xml.isNamed("row"):
      let number = xml.withAttribute("r") { $0.flatMap { Self.integer($0) } }
      rowNumber = number ?? rowNumber + 1
      cellColumns.removeAll(keepingCapacity: true)
      cellBounds.removeAll(keepingCapacity: true)
      rowBytes.removeAll(keepingCapacity: true)
    case .start where xml.isNamed("c"):
      try readCell()
    case .end where xml.isNamed("row"):
      try endOfRow()
    case .end where xml.isNamed("sheetData"):
      try endOfSheet()
    case .start, .end, .text:
      return
    }
  }

  private enum CellType { case number, shared, formulaText, inline, boolean, error, isoDate }

  private func readCell() throws(InputError) {
    var column = (cellColumns.last ?? -1) + 1
    if let reference = xml.withAttribute("r", { $0.map { Self.reference($0) } }) {
      guard let reference else {
        throw fail(column, rowNumber, "cell reference '\(try xml.attribute("r") ?? "")' is not a cell")
      }
      column = reference.column
      if reference.row != rowNumber { rowNumber = reference.row }
    }
    let type: CellType = xml.withAttribute("t") { raw in
      switch raw.map({ String(decoding: $0, as: UTF8.self) }) {
      case "s": return .shared
      case "str": return .formulaText
      case "inlineStr": return .inline
      case "b": return .boolean
      case "e": return .error
      case "d": return .isoDate
      default: return .number
      }
    }
    let style = xml.withAttribute("s") { $0.flatMap { Self.integer($0) } } ?? 0
    let start = rowBytes.count
    var value: [UInt8] = []
    var hasValue = false
    if !xml.selfClosing {
      var depth = 1
      while depth > 0 {
        switch try xml.next() {
        case .start where xml.isNamed("v"):
          value = try xml.elementText()
          hasValue = true
        case .start where xml.isNamed("is"):
          try Workbook.appendRichText(xml, to: &value)
          hasValue = true
        case .start where xml.isNamed("f"):
          try xml.skipElement()
        case .start: depth += 1
        case .end: depth -= 1
        case .text: continue
        case .endOfInput: throw xml.fail("the part ends inside cell \(cellName(column, rowNumber)) (truncated)")
        }
      }
    } else {
      _ = try xml.next()
    }
    // No value, or an empty one (`<v/>`): an empty cell, like one that is not there.
    guard hasValue, !value.isEmpty || type == .inline || type == .formulaText else { return }
    switch type {
    case .shared:
      guard let index = Self.integer(value[...]), index < workbook.sharedCount else {
        throw fail(
          column, rowNumber,
          "shared string \(String(decoding: value, as: UTF8.self)) does not exist (the workbook has \(workbook.sharedCount))")
      }
      rowBytes.append(contentsOf: workbook.sharedBytes[workbook.sharedOffsets[index]..<workbook.sharedOffsets[index + 1]])
    case .formulaText:
      Workbook.appendUnescaped(value, to: &rowBytes)
    case .inline:
      rowBytes.append(contentsOf: value)
    case .boolean:
      rowBytes.append(contentsOf: value == [.digitZero] ? Array("false".utf8) : value == [.digitZero + 1] ? Array("true".utf8) : value)
    case .error:
      rowBytes.append(contentsOf: value)
      if !saidErrorCell {
        saidErrorCell = true
        onNote?(
          "note: \(cellName(column, rowNumber)) holds the error \(String(decoding: value, as: UTF8.self)),"
            + " read as that text (so are any other error cells)")
      }
    case .isoDate:
      var text = value
      if text.count > 10, text[10...].elementsEqual("T00:00:00".utf8) || text[10...].elementsEqual("T00:00:00Z".utf8) {
        text.removeLast(text.count - 10)
      }
      rowBytes.append(contentsOf: text)
    case .number:
      try appendNumber(value, style: style, column: column)
    }
    if rowBytes.count == start && value.isEmpty { return }
    cellColumns.append(column)
    cellBounds.append(start)
    cellBounds.append(rowBytes.count)
  }

  private func appendNumber(_ value: [UInt8], style: Int, column: Int) throws(InputError) {
    let text = String(decoding: value, as: UTF8.self)
    guard let number = Double(text), number.isFinite else {
      throw fail(column, rowNumber, "'\(text)' is not a number")
    }
    let format = style < workbook.formats.count ? workbook.formats[style] : .number
    switch format {
    case .number:
      rowBytes.append(contentsOf: CellText.decimal(number).utf8)
    case .date, .time:
      switch CellText.serial(number, format: format, date1904: workbook.date1904) {
      case .text(let date): rowBytes.append(contentsOf: date.utf8)
      case .fictitiousLeapDay:
        rowBytes.append(contentsOf: CellText.decimal(number).utf8)
        if !saidLeapDay {
          saidLeapDay = true
          onNote?(
            "note: \(cellName(column, rowNumber)) is date serial 60, Excel's 1900-02-29 (a day"
              + " that never was): read as the number \(CellText.decimal(number))")
        }
      case .outOfRange:
        throw fail(
          column, rowNumber,
          "date serial \(CellText.decimal(number)) is out of range (dates run from serial 0 to"
            + " \(CellText.decimal(workbook.date1904 ? CellText.lastSerial1900 - 1462 : CellText.lastSerial1900)), 9999-12-31)")
      }
    }
  }

  private func endOfRow() throws(InputError) {
    guard !cellColumns.isEmpty else { return }
    if columns == nil {
      try findColumns()
      return
    }
    try emitRow(cellColumns, cellBounds, rowBytes, number: rowNumber)
  }

  /// Before the header: a row with several cells is the header (single-cell rows before it are
  /// titles); after `mostTitleRows` single-cell rows, or at the end, the table has one column.
  private func findColumns() throws(InputError) {
    if cellColumns.count == 1 && !noHeader && pendingRows.count < Self.mostTitleRows {
      pendingRows.append((rowNumber, cellColumns[0], Array(rowBytes[cellBounds[0]..<cellBounds[1]])))
      return
    }
    if cellColumns.count > 1 && !pendingRows.isEmpty {
      let titles = pendingRows.map { "row \($0.number) (\"\(String(decoding: $0.value.prefix(40), as: UTF8.self))\")" }
      notes.append(
        "note: \(workbook.name):\(sheet.name): skipped the title "
          + titles.joined(separator: ", ")
          + " above the table; its header is row \(rowNumber)")
      pendingRows = []
    }
    try startTable(with: cellColumns, cellBounds, rowBytes, number: rowNumber)
  }

  private func startTable(with columnsOfRow: [Int], _ bounds: [Int], _ bytes: [UInt8], number: Int)
    throws(InputError)
  {
    let sorted = columnsOfRow.sorted()
    columns = (sorted.first ?? 0)...(sorted.last ?? 0)
    if !pendingRows.isEmpty {
      // A one-column table: its rows were held as possible titles.
      let held = pendingRows
      pendingRows = []
      columns = (held.map(\.column).min() ?? 0)...(held.map(\.column).max() ?? 0)
      for row in held {
        try emitRow([row.column], [0, row.value.count], row.value, number: row.number)
      }
      if !columnsOfRow.isEmpty { try emitRow(columnsOfRow, bounds, bytes, number: number) }
      return
    }
    try emitRow(columnsOfRow, bounds, bytes, number: number)
  }

  private func endOfSheet() throws(InputError) {
    if finished { return }
    if columns == nil && !pendingRows.isEmpty { try startTable(with: [], [], [], number: 0) }
    finished = true
    // The rest of the part is read so its CRC-32 is checked.
    try xml.drain()
  }

  /// Writes one row as a CSV line over the table's columns.
  private func emitRow(_ rowColumns: [Int], _ bounds: [Int], _ bytes: [UInt8], number: Int) throws(InputError) {
    guard let columns else { return }
    var order = Array(rowColumns.indices)
    if !zip(rowColumns, rowColumns.dropFirst()).allSatisfy({ $0 < $1 }) {
      order.sort { rowColumns[$0] < rowColumns[$1] }
    }
    if sheetColumn {
      appendField((rowsMade == 0 && !noHeader ? "sheet" : sheet.name).utf8[...])
      out.append(.comma)
    }
    rowsMade += 1
    // A field at column c follows c - lowerBound commas on the line.
    var commas = 0
    var last = -1
    for i in order {
      let column = rowColumns[i]
      guard columns.contains(column) else {
        throw fail(
          column, number,
          "a value outside the table's columns \(Self.columnLetters(columns.lowerBound)):"
            + "\(Self.columnLetters(columns.upperBound)) (the header row's first and last cells)")
      }
      guard column > last else { throw fail(column, number, "a second value for the same cell") }
      last = column
      out.append(contentsOf: repeatElement(.comma, count: column - columns.lowerBound - commas))
      commas = column - columns.lowerBound
      appendField(bytes[bounds[2 * i]..<bounds[2 * i + 1]])
    }
    out.append(contentsOf: repeatElement(.comma, count: columns.upperBound - columns.lowerBound - commas))
    out.append(.lineFeed)
  }

  private func appendField(_ value: some Collection<UInt8>) {
    if value.contains(where: { $0 == .comma || $0 == .quote || $0 == .lineFeed || $0 == .carriageReturn }) {
      out.append(.quote)
      for b in value {
        if b == .quote { out.append(.quote) }
        out.append(b)
      }
      out.append(.quote)
    } else {
      out.append(contentsOf: value)
    }
  }

  static func integer(_ bytes: some Collection<UInt8>) -> Int? {
    guard !bytes.isEmpty, bytes.count < 10 else { return nil }
    var n = 0
    for b in bytes {
      guard b.isDigit else { return nil }
      n = n * 10 + Int(b - .digitZero)
    }
    return n
  }

  /// The 0-based column and 1-based row of a reference such as `B7`, within Excel's 16,384
  /// columns and 1,048,576 rows.
  static func reference(_ bytes: UnsafeBufferPointer<UInt8>) -> (column: Int, row: Int)? {
    var column = 0
    var i = 0
    while i < bytes.count, bytes[i] >= UInt8(ascii: "A"), bytes[i] <= UInt8(ascii: "Z") {
      column = column * 26 + Int(bytes[i] - UInt8(ascii: "A")) + 1
      i += 1
    }
    guard i > 0, i <= 3, column <= 16_384, let row = integer(bytes[i...]), row >= 1, row <= 1_048_576
    else { return nil }
    return (column - 1, row)
  }
}
