import SiftCore

/// A list result laid out for the screen (Docs/Interactive.md, List): the lines of the list in
/// order (group headings, a blank line between groups, rows) and each column's natural width,
/// measured once when the result arrives.
struct ListTable: Sendable {
  enum Line: Hashable, Sendable {
    case heading(Int)
    case blank
    case row(Int)
  }

  var result: ListResult
  /// The query text the result was run for (its chips belong to it).
  var query: String
  var lines: [Line] = []
  /// The line of each row.
  var lineOfRow: [Int] = []
  var naturalWidths: [Int]
  var headerWidths: [Int]
  /// Columns of text holding a space, which may be cut (as the one-shot table does).
  var cuttable: [Bool]

  init(_ result: ListResult, query: String) {
    self.result = result
    self.query = query
    headerWidths = result.columns.map { displayWidth(of: $0) }
    naturalWidths = headerWidths
    cuttable = result.columns.indices.map { _ in false }
    for row in result.rows {
      for (column, cell) in row.enumerated() where column < naturalWidths.count {
        naturalWidths[column] = max(naturalWidths[column], displayWidth(of: cell))
        if !cuttable[column], cell.utf8.contains(UInt8(ascii: " ")) { cuttable[column] = true }
      }
    }
    for column in cuttable.indices where column < result.numeric.count && result.numeric[column] {
      cuttable[column] = false
    }
    var group = 0
    for row in result.rows.indices {
      while group < result.groups.count, result.groups[group].row == row {
        if group > 0 { lines.append(.blank) }
        lines.append(.heading(group))
        group += 1
      }
      lineOfRow.append(lines.count)
      lines.append(.row(row))
    }
  }

  /// How many rows the position line counts: every shown record, even past the rows kept.
  var rowCount: Int { max(result.firstRow + result.rows.count, result.summary.shown) }

  /// The places in the result of the rows kept.
  var places: Range<Int> { result.firstRow..<result.firstRow + result.rows.count }
}
