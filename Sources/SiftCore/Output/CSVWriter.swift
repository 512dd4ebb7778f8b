#if canImport(Glibc)
  import Glibc
#endif

/// The two delimited-text output dialects.
public enum DelimitedDialect: Sendable, Equatable {
  /// RFC 4180 with LF line ends: a field is quoted only when it holds the delimiter, `"`, CR or
  /// LF (or is the only, empty field of its row, which would otherwise be a blank line).
  case csv(delimiter: UInt8)
  /// Tab-separated, no quoting: a tab, LF or CR inside a value is written as `\t`, `\n`, `\r`.
  case tsv
}

/// Writes CSV or TSV: a header row (even with no records; none with `--no-header`), then one
/// line per record, with the input's byte order mark and line end (Docs/Formats.md, Output).
public final class CSVWriter: RecordWriter {
  private let output: OutputBuffer
  private let dialect: DelimitedDialect
  private let delimiter: UInt8
  private let style: TextConventions
  /// The line end (LF, CRLF or CR), held by value: the input's array is shared by every part's
  /// writer, and counting references to one object from many cores at once costs more than
  /// writing the row (Docs/Performance.md, Many cores).
  private let lineEnd: (first: UInt8, second: UInt8?)
  private let header: Bool
  /// The line being written, and values decoded when they need it (`""`, JSON escapes).
  private var line: [UInt8] = []
  private var scratch: [UInt8] = []
  /// True until the first field is written: a CSV field there that starts with the bytes of a
  /// byte order mark is quoted, or reading the output back would take them for one
  /// (Docs/Formats.md, Output).
  private var atStart = true

  public init(
    output: OutputBuffer, dialect: DelimitedDialect, style: TextConventions = .plain,
    header: Bool = true
  ) {
    self.output = output
    self.dialect = dialect
    self.style = style
    self.lineEnd = (style.lineEnd.first ?? .lineFeed, style.lineEnd.count > 1 ? style.lineEnd[1] : nil)
    self.header = header
    switch dialect {
    case .csv(let delimiter): self.delimiter = delimiter
    case .tsv: self.delimiter = .tab
    }
  }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  /// Writes the header as the input wrote it, byte for byte (duplicate names stay duplicates).
  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    // An input without fields (an empty file) has no header to write.
    guard !headers.isEmpty else { return }
    var out = [UInt8].take(&line)
    defer { line = out }
    if style.byteOrderMark {
      out += [0xEF, 0xBB, 0xBF]
      atStart = false
    }
    if header {
      for (index, name) in headers.enumerated() {
        if index > 0 { out.append(delimiter) }
        name.withUnsafeBufferPointer { appendField($0, alone: headers.count == 1, to: &out) }
      }
      appendLineEnd(to: &out)
    }
    if !out.isEmpty { try output.append(line: &out) }
  }

  /// Delimited text has no group headers: the records come in group order.
  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {}

  public func write(
    _ row: RowView, columns: [OutputColumn], verbatim: Bool
  ) throws(OutputError) {
    var out = [UInt8].take(&line)
    var decoded = [UInt8].take(&scratch)
    defer {
      line = out
      scratch = decoded
    }
    if verbatim, !atStart, Self.isWrittenAsItIs(row, delimiter: delimiter, dialect: dialect) {
      out.append(row.text)
    } else {
      // The columns are borrowed, not copied one by one (each copy retains its name and path).
      columns.withUnsafeBufferPointer { columns in
        for index in columns.indices {
          if index > 0 { out.append(delimiter) }
          columns[index].value(row).withText(scratch: &decoded) {
            appendField($0, alone: columns.count == 1, to: &out)
          }
        }
      }
    }
    appendLineEnd(to: &out)
    try output.append(line: &out)
  }

  /// Records go out as they are written: CSV and TSV stream (Docs/Formats.md, Streaming input).
  public func flush() throws(OutputError) { try output.flush() }

  public func end() throws(OutputError) {
    try output.flush()
  }

  /// Whether a CSV row's text is exactly what writing its fields one by one would give, so it
  /// can be copied whole (pass-through at the speed of a copy): `CSVRowText.isWrittenAsItIs`,
  /// for CSV output.
  @inline(__always)
  private static func isWrittenAsItIs(
    _ row: RowView, delimiter: UInt8, dialect: DelimitedDialect
  ) -> Bool {
    guard case .csv = dialect else { return false }
    return CSVRowText.isWrittenAsItIs(row, delimiter: delimiter)
  }

  @inline(__always)
  private func appendLineEnd(to output: OutputBuffer) {
    output.append(lineEnd.first)
    if let second = lineEnd.second { output.append(second) }
  }

  @inline(__always)
  private func appendLineEnd(to out: inout [UInt8]) {
    out.append(lineEnd.first)
    if let second = lineEnd.second { out.append(second) }
  }

  /// Appends one field's text, quoted (CSV) or escaped (TSV) only when it must be. `alone`: the
  /// field is its row's only one.
  private func appendField(
    _ text: UnsafeBufferPointer<UInt8>, alone: Bool, to out: inout [UInt8]
  ) {
    let first = atStart
    atStart = false
    switch dialect {
    case .csv:
      CSVRowText.appendField(
        text,
        quoted: (first && CSVRowText.startsWithByteOrderMark(text))
          || CSVRowText.needsQuotes(text, delimiter: delimiter, alone: alone),
        to: &out)
    case .tsv:
      var runStart = 0
      for i in 0..<text.count {
        let escaped: StaticString
        switch text[i] {
        case .tab: escaped = "\\t"
        case .lineFeed: escaped = "\\n"
        case .carriageReturn: escaped = "\\r"
        default: continue
        }
        out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
        out.append(literal: escaped)
        runStart = i + 1
      }
      out.append(UnsafeBufferPointer(rebasing: text[runStart...]))
    }
  }
}

extension CSVWriter: RowTextCopying {
  /// Copies each run of records that are written as they are (`isWrittenAsItIs`, or every
  /// record of a batch read as written) and follow one another in the input, one line end
  /// apart, with this writer's line end, in one piece: their bytes in the input are exactly
  /// their bytes in the output. Any other record is written by `write`.
  public func write(
    rows: ArraySlice<Int32>, of cursor: RowCursor, columns: [OutputColumn], verbatim: Bool,
    ends: inout [Int]
  ) throws(OutputError) {
    guard let bytes = cursor.bytes.baseAddress else { return }
    let (endLength, endFirst, endLast) =
      (lineEnd.second == nil ? 1 : 2, lineEnd.first, lineEnd.second ?? lineEnd.first)
    // A batch read as written has no fields: its rows are this writer's own text, none starting
    // with the bytes of a byte order mark (`RecordReader.readAsWritten`).
    let asWritten = cursor.asWritten
    if asWritten, !rows.isEmpty { atStart = false }
    var i = rows.startIndex
    while i < rows.endIndex {
      let first = cursor.row(Int(rows[i]))
      guard asWritten || verbatim && !atStart && !output.lineBuffered
          && Self.isWrittenAsItIs(first, delimiter: delimiter, dialect: dialect)
      else {
        try write(first, columns: columns, verbatim: verbatim)
        ends.append(output.position)
        i += 1
        continue
      }
      let runStart = first.extentStart
      var runEnd = first.extentEnd
      let origin = output.position &- runStart &+ endLength
      ends.append(origin &+ runEnd)
      i += 1
      while i < rows.endIndex, rows[i] == rows[i &- 1] &+ 1 {
        let next = cursor.row(Int(rows[i]))
        guard next.extentStart == runEnd &+ endLength, bytes[runEnd] == endFirst,
          bytes[next.extentStart &- 1] == endLast,
          asWritten || Self.isWrittenAsItIs(next, delimiter: delimiter, dialect: dialect)
        else { break }
        runEnd = next.extentEnd
        ends.append(origin &+ runEnd)
        i += 1
      }
      if let shared = cursor.sharedBytes {
        // Kept, not copied, where the output allows; the input's own line end after the run
        // goes with it when it is this writer's.
        let withEnd =
          runEnd &+ endLength <= cursor.bytes.count && bytes[runEnd] == endFirst
          && bytes[runEnd &+ endLength &- 1] == endLast
        try output.append(shared: shared[runStart..<(withEnd ? runEnd &+ endLength : runEnd)])
        if !withEnd { appendLineEnd(to: output) }
      } else {
        output.append(UnsafeBufferPointer(start: bytes + runStart, count: runEnd &- runStart))
        appendLineEnd(to: output)
      }
      try output.endRecord()
    }
  }

  public func write(
    rows: ArraySlice<Int32>, of cursor: RowCursor, between prefix: UnsafeBufferPointer<UInt8>,
    and suffix: UnsafeBufferPointer<UInt8>, ends: inout [Int]
  ) throws(OutputError) {
    guard !rows.isEmpty, let bytes = cursor.bytes.baseAddress else { return }
    atStart = false
    // The rows are built in a block of their own, one copy each, and handed over whole: the
    // rows' texts take at most the batch's bytes.
    let (first, second) = (lineEnd.first, lineEnd.second)
    let around = prefix.count &+ suffix.count &+ (second == nil ? 1 : 2)
    let origin = output.position
    let extents = cursor.extents
    var block = [UInt8](unsafeUninitializedCapacity: cursor.bytes.count &+ rows.count &* around) {
      b, count in
      guard let base = b.baseAddress else { return }
      var at = base
      func put(_ from: UnsafePointer<UInt8>?, _ n: Int) {
        if let from, n > 0 { at.initialize(from: from, count: n) }
        at += n
      }
      for r in rows {
        let start = Int(extents[2 &* Int(r)])
        let end = Int(extents[2 &* Int(r) &+ 1])
        put(prefix.baseAddress, prefix.count)
        put(bytes + start, end &- start)
        put(suffix.baseAddress, suffix.count)
        at.initialize(to: first)
        at += 1
        if let second {
          at.initialize(to: second)
          at += 1
        }
        ends.append(origin &+ (at - base))
      }
      count = at - base
    }
    try output.append(block: &block)
  }
}

extension CSVWriter {
  /// CSV rows with this writer's delimiter are copied as they are, unless the output is a
  /// terminal's (a record at a time) or TSV (escaped, never quoted).
  public var copiedDelimiter: UInt8? {
    guard case .csv(let delimiter) = dialect, !output.lineBuffered else { return nil }
    return delimiter
  }
}

extension CSVWriter: PartWritable {
  public func partWriter(into output: OutputBuffer) -> RecordWriter? {
    guard !self.output.lineBuffered else { return nil }
    return CSVWriter(output: output, dialect: dialect, style: style, header: header)
  }

  public func appendPart(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    try output.write(through: bytes)
  }
}
