import SiftCore

extension ScreenModel {
  /// Ctrl-F (Docs/Interactive.md, Find): asks on the bottom line for the text to find, the last
  /// one offered again.
  mutating func openFind() {
    guard page.table != nil else { return }
    prompt = .find(TextField(findText))
  }

  /// Moves the highlight to the next (or previous) listed record holding the find text in a
  /// cell, case ignored, past the end round to the start; the first find of a text starts at
  /// the highlighted record itself. Scrolls the cell's column into view. It moves the
  /// highlight only: the query and the result stay.
  mutating func findAgain(forward: Bool, fromHighlighted: Bool = false) {
    guard !findText.isEmpty, let table = page.table, !table.result.rows.isEmpty else { return }
    let rows = table.result.rows
    let needle = findText.lowercased()
    let count = rows.count
    let from = page.row
    for step in (fromHighlighted ? 0 : 1)...count {
      let row = ((from + (forward ? step : -step)) % count + count) % count
      guard let column = rows[row].firstIndex(where: { $0.lowercased().contains(needle) }) else {
        continue
      }
      page.row = row
      page.onHeading = false
      let window = columnWindow(table, width: size.columns)
      if !window.columns.contains(column) { page.firstColumn = window.start(showing: column) }
      keepRowInView()
      if row == from && step > 0 {
        notice = Notice(text: "Only this record holds “\(findText)”")
      } else if forward ? row < from : row > from {
        notice = Notice(text: "Found “\(findText)” again from the \(forward ? "top" : "bottom")")
      }
      return
    }
    let places = table.places
    let listed =
      table.rowCount > count
      ? " of rows \(groupedDigits(places.lowerBound + 1))\(setup.ascii ? "-" : "–")"
        + "\(groupedDigits(places.upperBound)) kept" : ""
    notice = Notice(text: "No record\(listed) holds “\(findText)”", isError: true)
  }

  /// The characters of `text` with case folded, one string per character.
  static func foldedCharacters(_ text: String) -> [String] { text.map { $0.lowercased() } }

  /// Where `needle` (folded) first stands in `text`, in characters; `nil` when it does not.
  static func match(_ needle: [String], in text: String) -> Range<Int>? {
    guard !needle.isEmpty else { return nil }
    let characters = foldedCharacters(text)
    guard characters.count >= needle.count else { return nil }
    for start in 0...(characters.count - needle.count)
    where characters[start] == needle[0] && Array(characters[start..<start + needle.count]) == needle {
      return start..<start + needle.count
    }
    return nil
  }
}
