#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
        holdsQuotedByte(UnsafeBufferPointer(rebasing: field[1..<(field.count &- 1)]), delimiter)
      else { return false }
    }
    return true
  }

  /// Whether `text` holds a byte the CSV writer quotes a value for: the delimiter, a quote, CR
  /// or LF.
  @inline(__always)
  static func holdsQuotedByte(_ text: UnsafeBufferPointer<UInt8>, _ delimiter: UInt8) -> Bool {
    guard let base = text.baseAddress else { return false }
    return CSVWordScanner.nextSpecial(base, count: text.count, from: 0, delimiter: delimiter) != nil
  }

  /// Whether the CSV writer quotes the value `text` (not the first of its output, whose byte
  /// order mark rule the writer adds): it holds the delimiter, a quote, CR or LF, or it is the
  /// empty only field of its row (`alone`), which would otherwise be a blank line.
  @inline(__always)
  static func needsQuotes(_ text: UnsafeBufferPointer<UInt8>, delimiter: UInt8, alone: Bool) -> Bool {
    (alone && text.isEmpty) || holdsQuotedByte(text, delimiter)
  }

  /// Appends the value `text` as the CSV writer writes a field: between quotes, each quote
  /// doubled, when `quoted`, else as it is.
  @inline(__always)
  static func appendField(_ text: UnsafeBufferPointer<UInt8>, quoted: Bool, to out: inout [UInt8]) {
    guard quoted else { return out.append(contentsOf: text) }
    out.append(.quote)
    var runStart = 0
    for i in 0..<text.count where text[i] == .quote {
      // Each quote is written twice: the run up to and including it, then it again.
      out.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...i]))
      runStart = i
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
    out.append(.quote)
  }

  /// Whether a CSV row's text is exactly what the CSV writer with `delimiter` writes for its
  /// fields (a row that is not the first of its output): every field is quoted exactly when it
  /// must be (`fieldsAreQuotedAsWritten`), and every field but the last is followed, inside the
  /// row, by `delimiter` (so the input used the same one, and no field holds it). A short row,
  /// padded with empty fields, and the empty only field of a row (written `""`) are not.
  @inline(__always)
  static func isWrittenAsItIs(_ row: RowView, delimiter: UInt8) -> Bool {
    guard row.encoding == .csv else { return false }
    let text = row.text
    guard !text.isEmpty, let base = text.baseAddress else { return false }
    guard row.width > 0, Int(row.spans[0]) == row.extentStart,
      Int(row.spans[2 &* row.width &- 1]) == row.extentEnd
    else { return false }
    for f in 0..<(row.width &- 1) {
      // A padded field of a short row ends where the text ends: the row is written field by
      // field (and no byte past the text is read).
      let end = Int(row.spans[2 &* f &+ 1])
      guard row.spans[2 &* f] >= 0, end < row.extentEnd, row.base[end] == delimiter else {
        return false
      }
    }
    guard memchr(base, Int32(UInt8.quote), text.count) != nil else { return true }
    return fieldsAreQuotedAsWritten(
      base: row.base, spans: row.spans, width: row.width, delimiter: delimiter)
  }

  /// Where the field that starts at `start` of a row as the CSV writer writes it (`text`, a
  /// row read as written or one `isWrittenAsItIs`) ends: after its closing quote when it is
  /// quoted, else at the next `delimiter` or the end of the row.
  @inline(__always)
  static func fieldEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int, delimiter: UInt8) -> Int {
    let n = text.count
    guard let base = text.baseAddress, start < n else { return n }
    guard base[start] == .quote else {
      guard let found = memchr(base + start, Int32(delimiter), n &- start) else { return n }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
    var p = start &+ 1
    while p < n {
      if base[p] == .quote {
        // A doubled quote stands for one; a single one closes the field.
        guard p &+ 1 < n, base[p &+ 1] == .quote else { return p &+ 1 }
        p &+= 2
      } else {
        p &+= 1
      }
    }
    return n
  }

  /// `row`, a row read as written (`RecordBatch.asWritten`, no fields), seen with the spans of
  /// its first `count` fields, found in its text and written to `out` (room for `2 * count`;
  /// the view is valid while `out` and the row are). When `count` is all its fields and
  /// `bytes`, the batch's bytes its text lies in, are given, the row is read eight bytes at a
  /// time (`CSVWordScanner`), else (and where that scanner gives up: a line end in quotes, the
  /// file's last row) a field at a time (`fieldEnd`).
  static func fields(
    of row: RowView, count: Int, delimiter: UInt8, wholeRowIn bytes: UnsafeBufferPointer<UInt8>?,
    into out: UnsafeMutablePointer<Int32>
  ) -> RowView {
    let origin = row.extentStart
    let scanned = bytes.flatMap {
      CSVWordScanner(delimiter: delimiter, quoting: true).scanRow(
        $0, from: origin, limit: count, into: out)
    }
    if !(scanned.map { $0.fields == count && $0.end == row.extentEnd } ?? false) {
      let text = row.text
      var p = 0
      for f in 0..<count {
        let end = fieldEnd(text, from: p, delimiter: delimiter)
        out[2 &* f] = Int32(truncatingIfNeeded: origin &+ p)
        out[2 &* f &+ 1] = Int32(truncatingIfNeeded: origin &+ end)
        // Past the last field the rest are empty at the row's end (never so in a row read as
        // written, whose fields are all there).
        p = min(end &+ 1, text.count)
      }
    }
    return RowView(
      base: row.base, spans: out, width: count, encoding: .csv, extentStart: row.extentStart,
      extentEnd: row.extentEnd)
  }

  /// Calls `body` with `row`, a row read as written, seen with the spans of its first `count`
  /// fields (`fields(of:…)`), found into `spans`.
  static func withFields<R>(
    of row: RowView, count: Int, delimiter: UInt8, spans: inout [Int32], _ body: (RowView) -> R
  ) -> R {
    if spans.count < max(2, 2 &* count) { spans = Array(repeating: 0, count: max(2, 2 &* count)) }
    return spans.withUnsafeMutableBufferPointer { s in
      guard let out = s.baseAddress else { return body(row) }
      return body(fields(of: row, count: count, delimiter: delimiter, wholeRowIn: nil, into: out))
    }
  }

  /// Whether `text` starts with the bytes of a UTF-8, UTF-16LE or UTF-16BE byte order mark: the
  /// first field written is then quoted, or reading the output back would take them for one
  /// (Docs/Formats.md, Output).
  static func startsWithByteOrderMark(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    text.starts(with: [0xEF, 0xBB, 0xBF]) || text.starts(with: [0xFF, 0xFE])
      || text.starts(with: [0xFE, 0xFF])
  }
}
