/// The rules that say when a CSV row's text is exactly what `CSVWriter` writes for its fields
/// (Docs/Performance.md, Pass-through without fields): the writer copies such a row whole, and
/// a reader asked for rows as written (`RecordReader.readAsWritten`) hands it over without
/// its fields. Both ask here, so the two never disagree.
enum CSVRowText {
  /// Whether each of the `width` fields (span pairs at `spans` into `base`) of a row holding a
  /// quote is written as it stands: a quoted field whose value needs its quotes (it holds the
  /// delimiter, a quote, CR or LF; its quotes are doubled already, as the reader read them), or
  /// an unquoted field without a quote.
  @inline(never)
  static func fieldsAreQuotedAsWritten(
    base: UnsafePointer<UInt8>, spans: UnsafePointer<Int32>, width: Int, delimiter: UInt8
  ) -> Bool {
    for f in 0..<width {
      let start = Int(spans[2 &* f])
      let field = UnsafeBufferPointer(
        start: base + start, count: Int(spans[2 &* f &+ 1]) &- start)
      guard field.first == .quote else {
        if field.contains(.quote) { return false }
        continue
      }
      guard field.count >= 2, field.last == .quote,
        field[1..<(field.count &- 1)].contains(where: {
          $0 == delimiter || $0 == .quote || $0 == .lineFeed || $0 == .carriageReturn
        })
      else { return false }
    }
    return true
  }

  /// Whether `text` starts with the bytes of a UTF-8, UTF-16LE or UTF-16BE byte order mark: the
  /// first field written is then quoted, or reading the output back would take them for one
  /// (Docs/Formats.md, Output).
  static func startsWithByteOrderMark(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    text.starts(with: [0xEF, 0xBB, 0xBF]) || text.starts(with: [0xFF, 0xFE])
      || text.starts(with: [0xFE, 0xFF])
  }
}
