import SiftCore

extension ScreenModel {
  /// The record's page's keys (Docs/Interactive.md, The record's page): ↑/↓ scroll, ←/→ (or
  /// `[`/`]`) the previous and next record of the result, Esc/Backspace back to the list at the
  /// record shown; `y` copies the record to the terminal's clipboard.
  mutating func handleRecord(_ key: Key, top: Int) -> [ScreenEffect] {
    let height = recordHeight(rows: size.rows)
    let bottom = max(0, recordBody(width: size.columns).count - height)
    var top = top
    switch key {
    case .escape, .backspace, .text("q"):
      overlay = nil
      keepRowInView()
      return []
    case .text("y"):
      guard let table = page.table, table.result.rows.indices.contains(page.row) else { return [] }
      let result = table.result
      let text = RecordCopy.text(
        columns: result.columns, cells: result.rows[page.row], numeric: result.numeric,
        format: setup.copyFormat)
      let format = RecordCopy.clipboardFormat(setup.copyFormat).rawValue
      notice = Notice(text: "Copied record \(groupedDigits(page.place + 1)) as \(format.uppercased()) to the terminal's clipboard")
      return [.copy(text: text)]
    case .up: top -= 1
    case .down: top += 1
    case .pageUp: top -= height
    case .pageDown: top += height
    case .home, .text("g"): top = 0
    case .end, .text("G"): top = bottom
    case .left, .text("["), .right, .text("]"):
      // Along the whole result: past the rows kept, the window there is asked for (List).
      guard let table = page.table else { return [] }
      let step = key == .left || key == .text("[") ? -1 : 1
      let place = page.place + step
      guard place >= 0, place < table.rowCount else { return [] }
      overlay = .record(top: 0)
      return move(to: place, in: table)
    default: return []
    }
    let newBottom = max(0, recordBody(width: size.columns).count - height)
    overlay = .record(top: min(max(0, top), newBottom))
    return []
  }
}
