/// A views file that cannot be used (Docs/Views.md, The views file): the message names the file, the view and the
/// key, with the position in the JSON where known, and a caret under a query error.
///
///     sift: sift.json:7:16: view 'grn', key 'query': expected a value after 'status:'
///       status:
///              ^
public struct ViewsFileError: Error, Sendable, Equatable {
  /// The views file's path.
  public var file: String
  /// 1-based line and byte column in the file; 0 when unknown.
  public var line: Int
  public var column: Int
  public var view: String?
  public var key: String?
  public var message: String
  /// Lines printed after the message: the text in error with a caret, candidates, notes.
  public var details: [String]

  public init(
    file: String, line: Int = 0, column: Int = 0, view: String? = nil, key: String? = nil,
    message: String, details: [String] = []
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.view = view
    self.key = key
    self.message = message
    self.details = details
  }

  /// An error in a query-like text of the file (`query`, `sort`, `badge`, a fast filter), with
  /// the text and a caret under `span`.
  public init(
    file: String, line: Int = 0, column: Int = 0, view: String, key: String, text: String,
    message: String, span: Span?, notes: [String] = []
  ) {
    var details = notes
    if let span {
      // The caret lines of a query error, under our own headline.
      let rendered = QueryError(message, at: span, notes: notes).rendered(against: text)
      details = rendered.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        .dropLast().map(String.init)
    }
    self.init(
      file: file, line: line, column: column, view: view, key: key, message: message,
      details: details)
  }

  /// The error as printed on standard error, ending in a newline.
  public var rendered: String {
    var head = "sift: " + file
    if line > 0 { head += ":\(line):\(column)" }
    var place: [String] = []
    if let view { place.append("view '\(view)'") }
    if let key { place.append("key '\(key)'") }
    if !place.isEmpty { head += ": " + place.joined(separator: ", ") }
    return ([head + ": " + message] + details).joined(separator: "\n") + "\n"
  }
}
