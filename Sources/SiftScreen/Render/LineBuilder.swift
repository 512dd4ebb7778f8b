import SiftCore

/// Builds a `StyledLine` no wider than `width` columns: text past the width is cut, the last
/// visible character replaced by `…` when something was cut.
struct LineBuilder {
  let width: Int
  let ellipsis: String
  private(set) var spans: [StyledSpan] = []
  /// Columns used so far.
  private(set) var used = 0
  private var cut = false

  init(width: Int, ascii: Bool) {
    self.width = max(0, width)
    ellipsis = ascii ? "..." : "…"
  }

  var room: Int { width - used }

  /// Appends `text` in `style`, cut with `…` when it does not fit.
  mutating func append(_ text: String, _ style: TextStyle = .plain) {
    guard !cut, !text.isEmpty else { return }
    let textWidth = displayWidth(of: text)
    var shown = text
    if textWidth > room {
      shown = truncate(text, toWidth: room, ellipsis: ellipsis)
      cut = true
    }
    guard !shown.isEmpty else { return }
    used += displayWidth(of: shown)
    if let last = spans.last, last.style == style {
      spans[spans.count - 1].text += shown
    } else {
      spans.append(StyledSpan(shown, style))
    }
  }

  /// Appends spaces up to column `column` (no-op when already past it).
  mutating func pad(to column: Int, _ style: TextStyle = .plain) {
    let count = min(column, width) - used
    if count > 0 { append(String(repeating: " ", count: count), style) }
  }

  var line: StyledLine { StyledLine(spans) }
}
