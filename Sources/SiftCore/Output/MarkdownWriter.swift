/// Writes a GitHub-flavoured Markdown table: a header row, a `---` row (`---:` for numeric
/// columns, which right-aligns them), then one row per record. A cell's text is escaped so that
/// no value becomes markup (`appendCell`); each line break is `<br>`. With groups, each group is
/// its own table under a bold `label (count)` line.
public final class MarkdownWriter: RecordWriter {
  private let output: OutputBuffer
  private let numericColumns: [Bool]
  private var header: [String] = []
  /// Whether the header rows of the current table are written yet (they wait for a group label).
  private var headerWritten = false
  private var groups = 0
  /// The line being written, and values decoded when they need it (`""`, JSON escapes).
  private var line: [UInt8] = []
  private var scratch: [UInt8] = []

  public init(output: OutputBuffer, numericColumns: [Bool]) {
    self.output = output
    self.numericColumns = numericColumns
  }

  public func begin(columns: [String]) throws(OutputError) {
    header = columns
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    header = headers.map { String(decoding: $0, as: UTF8.self) }
  }

  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    var out = output
    if groups > 0 { out.append(.lineFeed) }
    groups += 1
    out.append(literal: "**")
    var text = "\(heading.keyText()) (\(heading.summaryText))"
    text.withUTF8 { appendEscapedInline($0, to: &out) }
    out.append(literal: "**\n\n")
    headerWritten = false
    try writeHeaderIfNeeded(to: &out)
  }

  public func write(
    _ row: RowView, columns: [OutputColumn], verbatim: Bool
  ) throws(OutputError) {
    var buffer = output
    try writeHeaderIfNeeded(to: &buffer)
    var out = [UInt8].take(&line)
    var decoded = [UInt8].take(&scratch)
    defer {
      line = out
      scratch = decoded
    }
    out.append(.pipe)
    for column in columns {
      out.append(.space)
      column.value(row).withText(scratch: &decoded) { Self.appendCell($0, to: &out) }
      out.append(literal: " |")
    }
    out.append(.lineFeed)
    try output.append(line: &out)
  }

  /// A summary in a table ends with its `Total` row (Docs/Aggregates.md).
  public var writesTotals: Bool { true }

  public func end() throws(OutputError) {
    var out = output
    try writeHeaderIfNeeded(to: &out)
    try output.flush()
  }

  private func writeHeaderIfNeeded(to out: inout OutputBuffer) throws(OutputError) {
    guard !headerWritten, !header.isEmpty else { return }
    headerWritten = true
    out.append(.pipe)
    for var name in header {
      out.append(.space)
      name.withUTF8 { Self.appendCell($0, to: &out) }
      out.append(literal: " |")
    }
    out.append(literal: "\n|")
    for column in header.indices {
      let numeric = column < numericColumns.count && numericColumns[column]
      out.append(literal: numeric ? " ---: |" : " --- |")
    }
    out.append(.lineFeed)
    try output.endRecord()
  }

  /// Appends a cell's text so that a Markdown-to-HTML step shows it as it is, never as markup
  /// (Docs/Formats.md, Markdown): `<`, `>` and `&` as HTML character references; `|`, `\\`, `` ` ``,
  /// `*` and `~` backslash-escaped, `_` too unless it stands between two letters or digits
  /// (`grn_no` stays as it is), and `]` before `(` or `[` (a link); CRLF, CR and LF as `<br>`.
  private static func appendCell<Output: ByteOutput>(
    _ text: UnsafeBufferPointer<UInt8>, to out: inout Output
  ) {
    var runStart = 0
    var i = 0
    while i < text.count {
      let b = text[i]
      switch b {
      case .pipe, .backslash, UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "~"):
        out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
        out.append(.backslash)
        runStart = i
      case .closeBracket:
        // A link or image needs `](` or `][`; brackets alone (`[1,2]`) are text.
        if i + 1 < text.count, text[i + 1] == UInt8(ascii: "(") || text[i + 1] == .openBracket {
          out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
          out.append(.backslash)
          runStart = i
        }
      case UInt8(ascii: "_"):
        let inWord = i > 0 && i + 1 < text.count && isWordByte(text[i - 1])
          && isWordByte(text[i + 1])
        if !inWord {
          out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
          out.append(.backslash)
          runStart = i
        }
      case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
        out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
        out.append(literal: b == UInt8(ascii: "<") ? "&lt;" : b == UInt8(ascii: ">") ? "&gt;" : "&amp;")
        runStart = i + 1
      case .lineFeed, .carriageReturn:
        out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
        out.append(literal: "<br>")
        if b == .carriageReturn, i + 1 < text.count, text[i + 1] == .lineFeed { i += 1 }
        runStart = i + 1
      default:
        let (length, isControl) = VisibleText.character(in: text, at: i)
        if isControl {
          out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
          appendVisible(UnsafeBufferPointer(rebasing: text[i..<(i + length)]), to: &out)
          runStart = i + length
        }
        i += length - 1
      }
      i += 1
    }
    out.append(UnsafeBufferPointer(rebasing: text[runStart...]))
  }

  /// Appends control bytes as a table shows them (`␛`, `�`): Markdown goes to terminals too,
  /// where an escape sequence from the data must not act (Docs/Formats.md, Markdown).
  private static func appendVisible<Output: ByteOutput>(
    _ control: UnsafeBufferPointer<UInt8>, to out: inout Output
  ) {
    var shown: [UInt8] = []
    _ = VisibleText.append(control, to: &shown, ascii: false)
    shown.withUnsafeBufferPointer { out.append($0) }
  }

  /// A byte of a word for emphasis rules: an ASCII letter or digit, or part of a non-ASCII
  /// character.
  private static func isWordByte(_ b: UInt8) -> Bool {
    b.isDigit || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) || b >= 0x80
  }

  /// Appends text for a paragraph: Markdown punctuation backslash-escaped, line breaks as spaces.
  private func appendEscapedInline(_ text: UnsafeBufferPointer<UInt8>, to out: inout OutputBuffer) {
    var i = 0
    while i < text.count {
      let b = text[i]
      var length = 1
      defer { i += length }
      switch b {
      case .lineFeed, .carriageReturn:
        out.append(.space)
      case .backslash, .pipe, UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"),
        UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"),
        UInt8(ascii: "#"), UInt8(ascii: "~"), UInt8(ascii: "&"):
        out.append(.backslash)
        out.append(b)
      default:
        let character = VisibleText.character(in: text, at: i)
        length = character.length
        let bytes = UnsafeBufferPointer(rebasing: text[i..<(i + length)])
        if character.isControl { Self.appendVisible(bytes, to: &out) } else { out.append(bytes) }
      }
    }
  }
}
