import SiftCore

/// The columns of the list on screen (Docs/Interactive.md, List): the first column (or the
/// view's `key` column) frozen on the left, then the other columns from `start` that fit, laid out as the one-shot table lays out
/// its columns (free text cut down to 8 columns or its header, never below the header).
struct ColumnWindow: Equatable {
  /// The indices of the columns drawn, in order, and their widths.
  var columns: [Int]
  var widths: [Int]
  /// The place of the first scrolled column in `order` (1 when the list is not scrolled).
  var start: Int
  /// The columns in scrolling order: the frozen one, then every other in the result's order.
  var order: [Int]
  /// Whether columns are scrolled out on the left (between the frozen column and `start`), and
  /// left out on the right.
  var hiddenLeft: Bool
  var hiddenRight: Bool
  /// Every column of the result.
  var count: Int

  /// The window from `start` at `width`. A `start` past what scrolling needs (after the
  /// terminal grew) comes back to the last one that still shows every column on the right.
  /// `frozen` is the column kept on the left (0, or the view's key column).
  init(_ table: ListTable, start wanted: Int, width: Int, frozen: Int = 0) {
    let count = table.result.columns.count
    let frozen = (0..<count).contains(frozen) ? frozen : 0
    let order = count == 0 ? [] : [frozen] + (0..<count).filter { $0 != frozen }
    guard count >= 2 else {
      let layout = Self.layout(table, order, width: width)
      self.init(
        columns: Array(order.prefix(layout.shown)), widths: layout.widths, start: 1, order: order)
      return
    }
    var start = min(max(1, wanted), count - 1)
    var window = Self.window(table, order, start: start, width: width)
    while start > 1 {
      let earlier = Self.window(table, order, start: start - 1, width: width)
      guard !earlier.hiddenRight else { break }
      start -= 1
      window = earlier
    }
    self = window
  }

  private init(columns: [Int], widths: [Int], start: Int, order: [Int]) {
    self.columns = columns
    self.widths = widths
    self.start = start
    self.order = order
    count = order.count
    hiddenLeft = start > 1
    hiddenRight = columns.count > 1 ? start + columns.count - 1 < count : columns.count < count
  }

  private static func window(_ table: ListTable, _ order: [Int], start: Int, width: Int) -> ColumnWindow {
    let candidates = [order[0]] + Array(order[start...])
    // The `‹` after the frozen column takes one more column; the `›` at the end two.
    let left = start > 1 ? 1 : 0
    var layout = Self.layout(table, candidates, width: width - left)
    if layout.shown < candidates.count {
      layout = Self.layout(table, candidates, width: width - left - 2)
    }
    return ColumnWindow(
      columns: Array(candidates.prefix(layout.shown)), widths: layout.widths, start: start,
      order: order)
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
    let last = columns.count > 1 ? start + columns.count - 1 : columns.count
    return first...max(first, last)
  }

  /// The `start` that shows `column` first after the frozen one.
  func start(showing column: Int) -> Int {
    max(1, order.firstIndex(of: column) ?? 1)
  }
}
