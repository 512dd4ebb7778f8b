/// A query that cannot be used: what was expected and where (Docs/QueryLanguage.md, Errors).
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
  /// The widest query line echoed whole; a longer one is cut around the caret.
  static let echoWidth = 100

  public func rendered(against query: String) -> String {
    let bytes = Array(query.utf8)
    let caret = Swift.min(Swift.max(offset, 0), bytes.count)
    var lineStart = caret
    while lineStart > 0 && bytes[lineStart - 1] != .lineFeed { lineStart -= 1 }
    var lineEnd = caret
    while lineEnd < bytes.count && bytes[lineEnd] != .lineFeed { lineEnd += 1 }
    // Tabs and carriage returns are echoed as spaces, so the caret counts them as one column;
    // other controls as their pictures (`␛`), never raw (Docs/Formats.md, Terminal output).
    func echo(_ range: Range<Int>) -> String {
      VisibleText.of(
        String(String(decoding: bytes[range], as: UTF8.self).map { $0 == "\t" || $0 == "\r" ? " " : $0 }),
        ascii: false)
    }
    var echoed = echo(lineStart..<lineEnd)
    var column = displayWidth(of: echo(lineStart..<caret))
    // A very long query is shown as a window around the caret.
    if displayWidth(of: echoed) > QueryError.echoWidth {
      let before = String(echo(lineStart..<caret).suffix(QueryError.echoWidth / 2))
      let after = String(echo(caret..<lineEnd).prefix(QueryError.echoWidth / 2))
      let cutBefore = before.count < echo(lineStart..<caret).count
      echoed = (cutBefore ? "…" : "") + before + after
        + (after.count < echo(caret..<lineEnd).count ? "…" : "")
      column = (cutBefore ? 1 : 0) + displayWidth(of: before)
    }
    var text = "sift: query error: \(message)\n  \(echoed)\n  "
    text += String(repeating: " ", count: column) + "^\n"
    for note in notes { text += note + "\n" }
    return text
  }
}
