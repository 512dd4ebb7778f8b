import SiftCore

/// Turns frames into the bytes that draw them (Docs/Interactive.md, Drawing): only the lines
/// that differ from the frame drawn before are written, each style as its SGR sequence, then
/// the cursor is placed or hidden. Without colour
/// (`NO_COLOR`), the active and focused elements are in reverse video and the renderer's
/// brackets tell the rest apart.
public struct Painter {
  public let color: ColorMode
  /// The frame on the terminal now; `nil` before the first and after a resize.
  private var shown: Frame?

  public init(color: ColorMode) {
    self.color = color
  }

  /// Forgets what the terminal shows, so the next frame is drawn whole on a cleared screen
  /// (after a resize).
  public mutating func invalidate() {
    shown = nil
  }

  /// The bytes that change the terminal from the frame drawn before to `frame`; empty when
  /// nothing changed.
  public mutating func paint(_ frame: Frame) -> [UInt8] {
    var out = ""
    let previous = shown
    if previous == nil { out += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
    var drawn = false
    for (row, line) in frame.lines.enumerated() {
      if let previous, row < previous.lines.count, previous.lines[row] == line { continue }
      if !drawn { out += "\u{1B}[?25l" }
      drawn = true
      // The row is cleared before it is written, so a line as wide as the screen keeps its
      // last character.
      out += "\u{1B}[\(row + 1);1H\u{1B}[2K"
      for span in line.spans { out += styled(span) }
    }
    let cursorMoved = previous == nil || previous?.cursor != frame.cursor
    if drawn || cursorMoved {
      if let cursor = frame.cursor {
        out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h"
      } else if !drawn || previous?.cursor != nil {
        out += "\u{1B}[?25l"
      }
    }
    shown = frame
    return Array(out.utf8)
  }

  /// A span's text in its style's SGR sequence, the style reset after it.
  private func styled(_ span: StyledSpan) -> String {
    let parameters = sgr(span.style)
    return parameters.isEmpty ? span.text : "\u{1B}[\(parameters)m\(span.text)\u{1B}[0m"
  }

  /// The SGR parameters of a style: attributes always, colours only with `color`.
  func sgr(_ style: TextStyle) -> String {
    let colored = color != .none
    func with(_ attributes: String, _ fg: ColorMode.RGB?, _ bg: ColorMode.RGB? = nil) -> String {
      let colours = color.parameters(foreground: fg, background: bg)
      return [attributes, colours].filter { !$0.isEmpty }.joined(separator: ";")
    }
    switch style {
    case .plain: return ""
    case .title, .groupHeading: return "1"
    case .dim, .disabled: return "2"
    case .header: return "1;4"
    case .focused: return "7"
    case .chipActive:
      return colored ? with("", ColorMode.activeForeground, ColorMode.activeBackground) : "7"
    case .chipInactive: return with("", ColorMode.inactiveForeground, ColorMode.inactiveBackground)
    case .tabActive: return colored ? with("1", ColorMode.activeBackground) : "1;7"
    case .tab: return ""
    case .badge: return with("1", ColorMode.activeForeground, ColorMode.alert)
    case .error: return with("", ColorMode.alert)
    case .selected: return with("1", ColorMode.activeBackground)
    }
  }
}
