/// A query that cannot be used: what was expected and where (SPEC §2.8).
///
/// The parser makes these for syntax errors; the planner makes them for unknown or ambiguous
/// fields. `rendered(against:)` prints the message, the query and a caret under `span.start`.
public struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was expected, e.g. `expected a value after 'status:'`.
  public var message: String
  /// The bytes of the query the error points at; the caret stands under `span.start`.
  public var span: Span
  /// Extra lines printed after the caret, e.g. the list of known fields.
  public var notes: [String]

  public init(_ message: String, at span: Span, notes: [String] = []) {
    self.message = message
    self.span = span
    self.notes = notes
  }

  /// An error pointing at one byte offset.
  public init(_ message: String, at offset: Int, notes: [String] = []) {
    self.init(message, at: Span(offset, offset), notes: notes)
  }

  /// The byte offset of the caret.
  public var offset: Int { span.start }

  public var description: String { "\(message) (at byte \(offset))" }

  /// The error as printed on standard error, ending in a newline:
  ///
  ///     sift: query error: expected a value after 'status:'
  ///       status: customer:"Acme"
  ///              ^
  ///
  /// Only the line of the query holding the caret is echoed (tabs shown as spaces); the caret is
  /// placed by the display width of the text before it, so wide and non-ASCII characters line up.
  public func rendered(against query: String) -> String {
    let bytes = Array(query.utf8)
    let caret = Swift.min(Swift.max(offset, 0), bytes.count)
    var lineStart = caret
    while lineStart > 0 && bytes[lineStart - 1] != .newline { lineStart -= 1 }
    var lineEnd = caret
    while lineEnd < bytes.count && bytes[lineEnd] != .newline { lineEnd += 1 }
    let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
    let before = String(decoding: bytes[lineStart..<caret], as: UTF8.self)
    let column = before.unicodeScalars.reduce(0) { $0 + $1.displayWidth }
    let echoed = String(line.unicodeScalars.map { $0 == "\t" || $0 == "\r" ? " " : Character($0) })
    var text = "sift: query error: \(message)\n  \(echoed)\n  "
    text += String(repeating: " ", count: column) + "^\n"
    for note in notes { text += note + "\n" }
    return text
  }
}

extension Unicode.Scalar {
  /// Terminal columns this scalar takes: 0 for combining marks and joiners, 2 for East Asian wide
  /// characters and emoji, else 1.
  var displayWidth: Int {
    let v = value
    switch v {
    case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F, 0x20D0...0x20FF: return 0
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1F680...0x1F6FF,
      0x20000...0x3FFFD:
      return 2
    default: return 1
    }
  }
}
