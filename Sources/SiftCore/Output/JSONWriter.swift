/// Writes records as JSON objects: a JSON array (one object per line inside `[` and `]`) or
/// NDJSON (one object per line).
public final class JSONWriter: RecordWriter {
  /// How the objects are laid out.
  public enum Layout: Sendable, Equatable {
    /// `[`, objects separated by `,` and a line end, `]`; `[]` when there are none.
    case array
    /// One object per line (NDJSON / JSON Lines).
    case lines
  }

  private let output: OutputBuffer
  private let layout: Layout
  /// Each column's key, encoded with its colon: `"name":`.
  private var keys: [[UInt8]] = []
  private var records = 0
  /// The line being written, and CSV values decoded when they need it (`""`).
  private var line: [UInt8] = []
  private var scratch: [UInt8] = []

  public init(output: OutputBuffer, layout: Layout) {
    self.output = output
    self.layout = layout
  }

  public func begin(columns: [String]) throws(OutputError) {
    keys = columns.map { name in
      var key: [UInt8] = []
      var name = name
      name.withUTF8 { JSONText.appendString($0, to: &key) }
      key.append(UInt8(ascii: ":"))
      return key
    }
  }

  /// JSON has no group headers: the records come in group order.
  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {}

  /// Writes the record as one object. With `verbatim` (and JSON input) the record's own text
  /// is written, keeping duplicate keys and key order; any text is minified when it holds a line
  /// break. Otherwise the object has the output columns as keys, a missing field left out.
  public func write(
    _ row: RowView, columns: [OutputColumn], verbatim: Bool
  ) throws(OutputError) {
    precondition(columns.count == keys.count, "write's columns must match begin's")
    var out = [UInt8].take(&line)
    var decoded = [UInt8].take(&scratch)
    defer {
      line = out
      scratch = decoded
    }
    if layout == .array { out.append(literal: records == 0 ? "[\n" : ",\n") }
    if verbatim && row.encoding == .json {
      Self.appendJSON(row.text, to: &out)
    } else {
      let keys = self.keys
      out.append(UInt8(ascii: "{"))
      var first = true
      for (index, column) in columns.enumerated() {
        let value = column.value(row)
        if value.form == .missing { continue }
        if !first { out.append(.comma) }
        first = false
        out.append(contentsOf: keys[index])
        Self.appendValue(value, to: &out, scratch: &decoded)
      }
      out.append(UInt8(ascii: "}"))
    }
    if layout == .lines { out.append(.lineFeed) }
    records += 1
    try output.append(line: &out)
  }

  /// Records go out as they are written: JSON and NDJSON stream (Docs/Formats.md, Streaming input).
  public func flush() throws(OutputError) { try output.flush() }

  public func end() throws(OutputError) {
    var out = output
    if layout == .array { out.append(literal: records == 0 ? "[]\n" : "\n]\n") }
    try output.flush()
  }

  /// JSON input keeps its text (a string's ill-formed UTF-8 as U+FFFD, as for CSV text); CSV and
  /// TSV text becomes a string, or a bare number when it is one in canonical form.
  private static func appendValue(
    _ value: FieldValue, to out: inout [UInt8], scratch: inout [UInt8]
  ) {
    switch value.form {
    case .jsonString:
      JSONText.appendWellFormed(value.raw, to: &out)
    case .jsonNumber, .jsonBool, .jsonNull, .jsonNested, .missing:
      appendJSON(value.raw, to: &out)
    case .plain, .csvQuoted:
      value.withText(scratch: &scratch) { JSONText.appendTextValue($0, to: &out) }
    }
  }

  /// Appends JSON text as it is, minified when it spans lines.
  private static func appendJSON(_ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if JSONText.containsLineBreak(text) {
      JSONText.appendMinified(text, to: &out)
    } else {
      out.append(text)
    }
  }
}

extension JSONWriter: PartWritable {
  /// NDJSON only: a JSON array's separators depend on the records before.
  public func partWriter(into output: OutputBuffer) -> RecordWriter? {
    guard layout == .lines, !self.output.lineBuffered else { return nil }
    let writer = JSONWriter(output: output, layout: .lines)
    writer.keys = keys
    return writer
  }

  public func appendPart(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    try output.write(through: bytes)
  }
}
