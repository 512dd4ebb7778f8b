/// Writes aligned columns for a terminal: a header row underlined, then one line per record,
/// columns two spaces apart, numeric columns right-aligned, widths measured in display columns
/// (`DisplayWidth`). Rows are buffered until `end`, since every row decides the widths.
///
/// Nothing a value holds can reach the terminal as a control (`VisibleText`). With `ascii`,
/// `...` stands for `…`.
public final class TableWriter: RecordWriter {
  private struct Group {
    var row: Int
    var heading: GroupHeading
  }

  private let output: OutputBuffer
  private let numericColumns: [Bool]
  private let maxWidth: Int?
  private let ascii: Bool
  private var columnCount = 0
  /// The shown text of every cell, header cells first, then each record's, back to back.
  private var cells: [UInt8] = []
  private var cellEnds: [Int] = []
  private var cellWidths: [Int] = []
  /// Whether a column's values hold a space: free text, which may be cut. Columns without one
  /// (numbers, dates, identifiers such as `GRN-000001`) are never cut (Docs/Output.md).
  private var textColumns: [Bool] = []
  private var records = 0
  private var groups: [Group] = []
  private var scratch: [UInt8] = []

  /// `numericColumns[i]` right-aligns column `i`; `maxWidth` (the terminal width) cuts the widest
  /// text columns with `…`, never below 8 columns or their header, and leaves out from the right
  /// the columns that still do not fit, naming them on a last line.
  public init(output: OutputBuffer, numericColumns: [Bool], maxWidth: Int?, ascii: Bool) {
    self.output = output
    self.numericColumns = numericColumns
    self.maxWidth = maxWidth
    self.ascii = ascii
  }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    columnCount = headers.count
    textColumns = [Bool](repeating: false, count: headers.count)
    for name in headers {
      name.withUnsafeBufferPointer {
        appendCell($0, to: &cells, ends: &cellEnds, widths: &cellWidths)
      }
    }
  }

  /// Starts a group: its rows follow a line `key (count)` (digits grouped: `Acme (1,203)`;
  /// with `group:a,b`, `Acme · received (12)`).
  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    groups.append(Group(row: records, heading: heading))
  }

  public func write(
    _ row: RowView, columns: [OutputColumn], verbatim: Bool
  ) throws(OutputError) {
    precondition(columns.count == columnCount, "write's columns must match begin's")
    // Taken out of the properties for the record: appends to locals skip exclusivity checks.
    var text = [UInt8].take(&cells)
    var ends = [Int].take(&cellEnds)
    var widths = [Int].take(&cellWidths)
    var decoded = [UInt8].take(&scratch)
    defer {
      cells = text
      cellEnds = ends
      cellWidths = widths
      scratch = decoded
    }
    for (index, column) in columns.enumerated() {
      column.value(row).withText(scratch: &decoded) {
        if !textColumns[index], $0.contains(.space) { textColumns[index] = true }
        appendCell($0, to: &text, ends: &ends, widths: &widths)
      }
    }
    records += 1
  }

  /// Writes one row of plain texts, one per column (the `-c` table: a value and its count).
  public func write(texts: [String]) {
    precondition(texts.count == columnCount, "write's texts must match begin's columns")
    for (index, text) in texts.enumerated() {
      var text = text
      text.withUTF8 {
        if !textColumns[index], $0.contains(.space) { textColumns[index] = true }
        appendCell($0, to: &cells, ends: &cellEnds, widths: &cellWidths)
      }
    }
    records += 1
  }

  /// Writes the whole table.
  /// A summary in a table ends with its `Total` row (Docs/Aggregates.md).
  public var writesTotals: Bool { true }

  public func end() throws(OutputError) {
    defer {
      cells = []
      cellEnds = []
      cellWidths = []
    }
    guard columnCount > 0 else { return try output.flush() }
    let layout = Self.layout(
      naturalWidths(), headerWidths: Array(cellWidths.prefix(columnCount)),
      cuttable: (0..<columnCount).map { textColumns[$0] && !isNumeric($0) }, into: maxWidth)
    let widths = layout.widths
    var out = output
    try writeLine(row: 0, widths: widths, to: &out)
    for (column, width) in widths.enumerated() {
      if column > 0 { out.appendSpaces(2) }
      for _ in 0..<width { out.append(literal: ascii ? "-" : "─") }
    }
    out.append(.lineFeed)
    try output.endRecord()
    var nextGroup = 0
    for record in 0..<records {
      while nextGroup < groups.count, groups[nextGroup].row == record {
        if nextGroup > 0 { out.append(.lineFeed) }
        try writeGroupHeader(groups[nextGroup], to: &out)
        nextGroup += 1
      }
      try writeLine(row: record + 1, widths: widths, to: &out)
    }
    if widths.count < columnCount { try writeHiddenLine(shown: widths.count, to: &out) }
    try output.flush()
  }

  private func isNumeric(_ column: Int) -> Bool {
    column < numericColumns.count && numericColumns[column]
  }

  /// `… 3 more fields: unit_price, amount, updated; use fields: to choose`, cut to the width.
  private func writeHiddenLine(shown: Int, to out: inout OutputBuffer) throws(OutputError) {
    var names: [String] = []
    for column in shown..<columnCount {
      let start = column == 0 ? 0 : cellEnds[column - 1]
      names.append(String(decoding: cells[start..<cellEnds[column]], as: UTF8.self))
    }
    let hidden = columnCount - shown
    let dots = ascii ? "..." : "…"
    let head = "\(dots) \(hidden) more \(hidden == 1 ? "field" : "fields"): "
    let tail = "; use fields: to choose"
    var list = names.joined(separator: ", ")
    if let maxWidth {
      // The names are cut first, so the line keeps saying how to choose.
      let room = maxWidth - displayWidth(of: head) - displayWidth(of: tail)
      if room >= 8 { list = truncate(list, toWidth: room, ellipsis: dots) }
    }
    var line = head + list + tail
    if let maxWidth { line = truncate(line, toWidth: maxWidth, ellipsis: dots) }
    line.withUTF8 { out.append($0) }
    out.append(.lineFeed)
    try output.endRecord()
  }

  private var ellipsis: StaticString { ascii ? "..." : "…" }
  private var ellipsisWidth: Int { ascii ? 3 : 1 }

  /// Each column's widest cell, header included.
  private func naturalWidths() -> [Int] {
    var widths = [Int](repeating: 0, count: columnCount)
    for (index, width) in cellWidths.enumerated() {
      widths[index % columnCount] = max(widths[index % columnCount], width)
    }
    return widths
  }

  /// The narrowest a text column is cut to, unless its header is wider.
  public static let shortestTextColumn = 8

  /// Column widths that fit `maxWidth` with two-space gaps. Only `cuttable` (text) columns are
  /// cut, the widest first to a common cap, none below 8 columns or its header; when that is not
  /// enough, columns are left out from the right (`widths.count` says how many are shown). The
  /// first column is always shown, cut to the width if it must be.
  public static func layout(
    _ natural: [Int], headerWidths: [Int], cuttable: [Bool], into maxWidth: Int?
  ) -> (widths: [Int], shown: Int) {
    guard let maxWidth, !natural.isEmpty else { return (natural, natural.count) }
    func floor(_ column: Int) -> Int {
      cuttable[column]
        ? min(natural[column], max(shortestTextColumn, headerWidths[column])) : natural[column]
    }
    var shown = natural.count
    func narrowest(_ count: Int) -> Int {
      (0..<count).reduce(2 * (count - 1)) { $0 + floor($1) }
    }
    while shown > 1, narrowest(shown) > maxWidth { shown -= 1 }
    if shown == 1, narrowest(1) > maxWidth { return ([maxWidth], 1) }
    let fixed = (0..<shown).filter { !cuttable[$0] }.reduce(0) { $0 + natural[$1] }
    let budget = maxWidth - 2 * (shown - 1) - fixed
    let columns = (0..<shown).filter { cuttable[$0] }
    func total(cappedAt cap: Int) -> Int {
      columns.reduce(0) { $0 + max(floor($1), min(natural[$1], cap)) }
    }
    var widths = Array(natural.prefix(shown))
    guard total(cappedAt: .max) > budget else { return (widths, shown) }
    // The largest cap that fits: total(low) <= budget < total(high).
    var low = 0
    var high = natural.max() ?? 0
    while high - low > 1 {
      let mid = (low + high) / 2
      if total(cappedAt: mid) <= budget { low = mid } else { high = mid }
    }
    for column in columns { widths[column] = max(floor(column), min(natural[column], low)) }
    var spare = budget - total(cappedAt: low)
    for column in columns where spare > 0 && natural[column] > widths[column] {
      widths[column] += 1
      spare -= 1
    }
    return (widths, shown)
  }

  /// Writes row `row` of the buffered cells (0 is the header), cutting cells wider than their
  /// column. Padding is written only before text, so lines carry no trailing spaces.
  private func writeLine(row: Int, widths: [Int], to out: inout OutputBuffer) throws(OutputError) {
    var pending = 0
    for column in widths.indices {
      let index = row * columnCount + column
      let start = index == 0 ? 0 : cellEnds[index - 1]
      var shown = cellWidths[index]
      var count = cellEnds[index] - start
      let cut = shown > widths[column]
      if cut {
        let kept = cells.withUnsafeBufferPointer {
          DisplayWidth.prefix(
            of: UnsafeBufferPointer(rebasing: $0[start..<start + count]),
            fitting: max(widths[column] - ellipsisWidth, 0))
        }
        count = kept.byteCount
        shown = kept.width + ellipsisWidth
      }
      if column > 0 { pending += 2 }
      let rightAligned = column < numericColumns.count && numericColumns[column]
      if rightAligned { pending += widths[column] - shown }
      if count > 0 || cut {
        out.appendSpaces(pending)
        pending = 0
        cells.withUnsafeBufferPointer {
          out.append(UnsafeBufferPointer(rebasing: $0[start..<start + count]))
        }
        if cut { out.append(literal: ellipsis) }
      }
      if !rightAligned { pending += widths[column] - shown }
    }
    out.append(.lineFeed)
    try output.endRecord()
  }

  /// Writes `key (count)` (`Acme · received (12)` with `group:a,b`), cut to `maxWidth`; an
  /// empty value shows as `(empty)`.
  private func writeGroupHeader(_ group: Group, to out: inout OutputBuffer) throws(OutputError) {
    var line: [UInt8] = []
    var key = group.heading.keyText(ascii: ascii)
    key.withUTF8 { _ = VisibleText.append($0, to: &line, ascii: ascii) }
    line.append(contentsOf: " (\(group.heading.summaryText))".utf8)
    line.withUnsafeBufferPointer { text in
      let width = DisplayWidth.of(text)
      if let maxWidth, width > maxWidth {
        let kept = DisplayWidth.prefix(of: text, fitting: max(maxWidth - ellipsisWidth, 0))
        out.append(UnsafeBufferPointer(rebasing: text[..<kept.byteCount]))
        out.append(literal: ellipsis)
      } else {
        out.append(text)
      }
    }
    out.append(.lineFeed)
    try output.endRecord()
  }

  /// Buffers one cell's shown text and width.
  private func appendCell(
    _ text: UnsafeBufferPointer<UInt8>, to cells: inout [UInt8], ends: inout [Int],
    widths: inout [Int]
  ) {
    widths.append(VisibleText.append(text, to: &cells, ascii: ascii))
    ends.append(cells.count)
  }
}
