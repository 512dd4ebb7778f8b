/// A nested JSON value (an object or an array, as the list shows it on one line) laid out one
/// member a line, indented two spaces a level (Docs/Interactive.md, The record's page). Text
/// that is not an object or array comes back as one line.
enum NestedValue {
  static func lines(_ text: String) -> [String] {
    guard let first = text.first, let last = text.last, (first == "{" && last == "}") || (first == "[" && last == "]")
    else { return [text] }
    var lines: [String] = []
    var line = ""
    var depth = 0
    var inString = false
    var escaped = false
    func indent() -> String { String(repeating: "  ", count: max(0, depth)) }
    func flush() {
      if !line.isEmpty { lines.append(line) }
      line = indent()
    }
    for character in text {
      if inString {
        line.append(character)
        if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
        continue
      }
      switch character {
      case "\"":
        inString = true
        line.append(character)
      case "{", "[":
        line.append(character)
        depth += 1
        flush()
      case "}", "]":
        depth -= 1
        if line.allSatisfy({ $0 == " " }) { line = "" } else { lines.append(line) }
        line = indent()
        line.append(character)
      case ",":
        line.append(character)
        flush()
      case ":":
        line.append(": ")
      case " ":
        continue
      default:
        line.append(character)
      }
    }
    if !line.allSatisfy({ $0 == " " }) { lines.append(line) }
    // `{}` and `[]` stay on one line.
    var joined: [String] = []
    for piece in lines {
      let trimmed = String(piece.drop { $0 == " " })
      if let previous = joined.last, previous.hasSuffix("{") || previous.hasSuffix("["),
        trimmed == "}" || trimmed == "]"
      {
        joined[joined.count - 1] += trimmed
      } else {
        joined.append(piece)
      }
    }
    return joined
  }
}
