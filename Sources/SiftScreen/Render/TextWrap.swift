import SiftCore

/// Long text broken into lines of at most `width` display columns (Docs/Interactive.md, The
/// record's page): at the last space that fits, or inside a word longer than the line.
enum TextWrap {
  static func lines(_ text: String, width: Int) -> [String] {
    let width = max(1, width)
    var lines: [String] = []
    var line: [Character] = []
    var lineWidth = 0
    var lastSpace: Int?
    for character in text {
      let characterWidth = displayWidth(of: String(character))
      if lineWidth + characterWidth > width, !line.isEmpty {
        if let space = lastSpace, space > 0 {
          lines.append(String(line[..<space]))
          line = Array(line[(space + 1)...])
        } else {
          lines.append(String(line))
          line = []
        }
        lineWidth = displayWidth(of: String(line))
        lastSpace = nil
      }
      if character == " " { lastSpace = line.count }
      line.append(character)
      lineWidth += characterWidth
    }
    if !line.isEmpty || lines.isEmpty { lines.append(String(line)) }
    return lines
  }
}
