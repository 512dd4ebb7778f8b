import SiftCore

/// The columns of the list on screen (Docs/Interactive.md, List): the first column frozen on
/// the left, then the columns from `start` that fit, laid out as the one-shot table lays out
/// its columns (free text cut down to 8 columns or its header, never below the header).
struct ColumnWindow: Equatable {
  /// The indices of the columns drawn, in order, and their widths.
  var columns: [Int]
  var widths: [Int]
  /// The first scrolled column (1 when the list is not scrolled).
  var start: Int
  /// Whether columns are scrolled out on the left (between the frozen column and `start`), and
  /// left out on the right.
  var hiddenLeft: Bool
  var hiddenRight: Bool
  /// Every column of the result.
  var count: Int

  /// The window from `start` at `width`. A `start` past what scrolling needs (after the
  /// terminal grew) comes back to the last one that still shows every column on the right.
  init(_ table: ListTable, start wanted: Int, width: Int) {
    let count = table.result.columns.count
    guard count >= 2 else {
      let layout = Self.layout(table, Array(0..<count), width: width)
      self.init(columns: Array(0..<min(count, layout.shown)), widths: layout.widths, start: 1, count: count)
      return
    }
    var start = min(max(1, wanted), count - 1)
    var window = Self.window(table, start: start, width: width)
    while start > 1 {
      let earlier = Self.window(table, start: start - 1, width: width)
      guard !earlier.hiddenRight else { break }
      start -= 1
      window = earlier
    }
    self = window
  }

  private init(columns: [Int], widths: [Int], start: Int, count: Int) {
    self.columns = columns
    self.widths = widths
    self.start = start
    self.count = count
    hiddenLeft = start > 1
    hiddenRight = (columns.last ?? -1) < count - 1
  }

  private static func window(_ table: ListTable, start: Int, width: Int) -> ColumnWindow {
    let candidates = [0] + Array(start..<table.result.columns.count)
    // The `‹` after the frozen column takes one more column; the `›` at the end two.
    let left = start > 1 ? 1 : 0
    var layout = Self.layout(table, candidates, width: width - left)
    if layout.shown < candidates.count {
      layout = Self.layout(table, candidates, width: width - left - 2)
    }
    return ColumnWindow(
      columns: Array(candidates.prefix(layout.shown)), widths: layout.widths, start: start,
      count: table.result.columns.count)
  }

  private static func layout(_ table: ListTable, _ columns: [Int], width: Int) -> (widths: [Int], shown: Int) {
    TableWriter.layout(
      columns.map { table.naturalWidths[$0] }, headerWidths: columns.map { table.headerWidths[$0] },
      cuttable: columns.map { table.cuttable[$0] }, into: max(1, width))
  }

  /// The 1-based numbers of the columns shown, for the position line: the scrolled run
  /// (`4–9`), or from the first column when the list is not scrolled (`1–5`).
  var shownRange: ClosedRange<Int> {
    let first = hiddenLeft ? start + 1 : 1
    return first...max(first, (columns.last ?? 0) + 1)
  }
}
