/// The row `ChangeTracker` hands its format's writer: `change`, the record's fields and `was`,
/// each a span of `bytes`, built in buffers kept from record to record, so a row costs no
/// allocation (Docs/Performance.md, "Changes since the last run").
struct ChangeRow {
  private var bytes: [UInt8] = []
  private var spans: [Int32] = []
  /// `.csv` when the row is a record's own CSV text (`startAsWritten`), else `.plain`.
  private var encoding = FieldEncoding.plain
  /// Whether the row is CSV text with `RecordDigests.delimiter` as a copying writer takes it
  /// (`startNew(asWritten:delimiter:)`, `start(_:asText:)`): written with
  /// `write(asWrittenTo:columns:)`.
  private(set) var isText = false
  /// Where the row written as written ends in the output (`write(asWrittenTo:columns:)`); not
  /// used.
  private var ends: [Int] = []

  /// Starts a row of plain texts with its `change` value; `asText`: as the CSV text a copying
  /// writer takes (`isText`), each field added quoted only where the CSV writer quotes it, so
  /// the writer copies the row whole instead of writing it field by field.
  mutating func start(_ change: StaticString, asText: Bool = false) {
    bytes.removeAll(keepingCapacity: true)
    spans.removeAll(keepingCapacity: true)
    encoding = .plain
    isText = asText
    let text = UnsafeBufferPointer(start: change.utf8Start, count: change.utf8CodeUnitCount)
    if asText { bytes.append(contentsOf: text) } else { add(text) }
  }

  /// Adds the next field's text.
  mutating func add(_ value: UnsafeBufferPointer<UInt8>) {
    guard !isText else {
      // A field after the first of a row of several: quoted only for a delimiter, quote, CR
      // or LF in it, as the CSV writer quotes it (`CSVRowText.needsQuotes`).
      bytes.append(RecordDigests.delimiter)
      let quoted = CSVRowText.needsQuotes(value, delimiter: RecordDigests.delimiter, alone: false)
      return CSVRowText.appendField(value, quoted: quoted, to: &bytes)
    }
    spans.append(Int32(truncatingIfNeeded: bytes.count))
    bytes.append(contentsOf: value)
    spans.append(Int32(truncatingIfNeeded: bytes.count))
  }

  mutating func add<C: Collection<UInt8>>(_ value: C) {
    guard !isText else {
      if let added: Void = value.withContiguousStorageIfAvailable({ add($0) }) { return added }
      return Array(value).withUnsafeBufferPointer { add($0) }
    }
    spans.append(Int32(truncatingIfNeeded: bytes.count))
    bytes.append(contentsOf: value)
    spans.append(Int32(truncatingIfNeeded: bytes.count))
  }

  /// Adds an empty field.
  mutating func addEmpty() {
    guard !isText else { return bytes.append(RecordDigests.delimiter) }
    spans.append(Int32(truncatingIfNeeded: bytes.count))
    spans.append(Int32(truncatingIfNeeded: bytes.count))
  }

  /// Adds the next field's value as text, decoded once.
  mutating func add(_ value: FieldValue, scratch: inout [UInt8]) {
    value.withDecoded(scratch: &scratch) { add($0) }
  }

  /// The row of a new record: its own CSV text when it can be (`startAsWritten`), else `new`,
  /// each value decoded once, and an empty `was`.
  mutating func startNew(
    _ row: RowView, columns cs: [OutputColumn], verbatim: Bool, scratch: inout [UInt8]
  ) {
    guard !startAsWritten(row, columns: cs.count, verbatim: verbatim) else { return }
    start("new")
    for i in cs.indices { add(cs[i].value(row), scratch: &scratch) }
    addEmpty()
  }

  /// The row of a new record made from the record's own CSV text, its fields quoted as the input
  /// quoted them: `new`, the record's text and an empty `was`, one input delimiter apart. CSV
  /// output then copies the row whole, as it copies a record of a plain run; the other formats
  /// decode the same values from it. `false`, and nothing built, unless the columns are the
  /// record's fields (`verbatim`) and its text is exactly those fields, all there, one delimiter
  /// apart.
  mutating func startAsWritten(_ row: RowView, columns: Int, verbatim: Bool) -> Bool {
    guard verbatim, row.encoding == .csv, row.extraCount == 0, row.width == columns, columns >= 2,
      Int(row.spans[0]) == row.extentStart, Int(row.spans[2 &* columns &- 1]) == row.extentEnd,
      Int(row.spans[1]) < row.extentEnd
    else { return false }
    let delimiter = row.base[Int(row.spans[1])]
    // `new` must stay one field, whatever the delimiter.
    switch delimiter {
    case UInt8(ascii: "n"), UInt8(ascii: "e"), UInt8(ascii: "w"), .quote, .lineFeed,
      .carriageReturn:
      return false
    default: break
    }
    for f in 0..<(columns &- 1) {
      let end = Int(row.spans[2 &* f &+ 1])
      guard end < row.extentEnd, row.base[end] == delimiter,
        Int(row.spans[2 &* f &+ 2]) == end &+ 1
      else { return false }
    }
    startNew(asWritten: row.text, delimiter: delimiter)
    // Its fields quoted as the input quoted them, not always as the CSV writer would: written
    // field by field where the writer must (`write(to:columns:)`), not copied whole.
    isText = false
    let count = bytes.count
    let width = 2 &* columns &+ 4
    if spans.count != width { spans = Array(repeating: 0, count: width) }
    let shift = Int32(truncatingIfNeeded: 4 &- row.extentStart)
    spans.withUnsafeMutableBufferPointer { s in
      s[0] = 0
      s[1] = 3
      for i in 0..<(2 &* columns) { s[i &+ 2] = row.spans[i] &+ shift }
      s[width &- 2] = Int32(truncatingIfNeeded: count)
      s[width &- 1] = Int32(truncatingIfNeeded: count)
    }
    return true
  }

  /// What comes before and after a new record's text read as written with
  /// `RecordDigests.delimiter`, for a writer that copies such rows: `new,` and `,` (an empty
  /// `was`), as `startNew(asWritten:delimiter:)` makes them.
  static let newBefore: [UInt8] = [
    UInt8(ascii: "n"), UInt8(ascii: "e"), UInt8(ascii: "w"), RecordDigests.delimiter,
  ]
  static let newAfter: [UInt8] = [RecordDigests.delimiter]

  /// The row of a new record read as written (`RecordBatch.asWritten`) with `delimiter`, for a
  /// writer that copies such rows (`RowTextCopying` with that delimiter): `new`, the record's
  /// text and an empty `was`, one delimiter apart, which is what that writer writes for them,
  /// handed over without fields (Docs/Performance.md, "A record's digest from its bytes").
  mutating func startNew(asWritten text: UnsafeBufferPointer<UInt8>, delimiter: UInt8) {
    bytes.removeAll(keepingCapacity: true)
    bytes.reserveCapacity(text.count &+ 5)
    bytes.append(UInt8(ascii: "n"))
    bytes.append(UInt8(ascii: "e"))
    bytes.append(UInt8(ascii: "w"))
    bytes.append(delimiter)
    bytes.append(contentsOf: text)
    bytes.append(delimiter)
    // The spans are left as they were: a row copied whole needs none (`startAsWritten` sets
    // them).
    encoding = .csv
    isText = true
  }

  /// Writes the row `startNew(asWritten:delimiter:)` made to `writer`, which copies it whole as a
  /// row read as written.
  mutating func write(
    asWrittenTo writer: RowTextCopying, columns: [OutputColumn]
  ) throws(OutputError) {
    var ends = [Int].take(&self.ends)
    defer {
      ends.removeAll(keepingCapacity: true)
      self.ends = ends
    }
    let extents: [Int32] = [0, Int32(truncatingIfNeeded: bytes.count)]
    try Self.withCursor(over: bytes, extents: extents) { cursor throws(OutputError) in
      try writer.write(rows: [0][...], of: cursor, columns: columns, verbatim: true, ends: &ends)
    }
  }

  /// Appends the row's text (`isText`) to `text`.
  func appendText(to text: inout [UInt8]) { text.append(contentsOf: bytes) }

  /// Calls `body` with a cursor over CSV rows read as written that lie in `bytes`, each from
  /// one extent (`extents`: start and end per row) to the next, for a copying writer.
  static func withCursor(
    over bytes: [UInt8], extents: [Int32], _ body: (RowCursor) throws(OutputError) -> Void
  ) throws(OutputError) {
    let written = bytes.withUnsafeBufferPointer { b in
      extents.withUnsafeBufferPointer { e in
        Result { () throws(OutputError) in
          try body(
            RowCursor(
              bytes: b, spans: UnsafeBufferPointer(start: nil, count: 0), extents: e, width: 0,
              encoding: .csv, rowStarts: nil, rowWidths: nil, asWritten: true, sharedBytes: nil))
        }
      }
    }
    try written.get()
  }

  /// Writes the row to `writer`, as its own (`verbatim`) text when it is a record's.
  func write(to writer: RecordWriter, columns: [OutputColumn]) throws(OutputError) {
    let encoding = encoding
    let written = bytes.withUnsafeBufferPointer { b in
      spans.withUnsafeBufferPointer { s in
        Result { () throws(OutputError) in
          guard let base = b.baseAddress, let spanBase = s.baseAddress else { return }
          let row = RowView(
            base: base, spans: spanBase, width: s.count / 2, encoding: encoding, extentStart: 0,
            extentEnd: b.count)
          try writer.write(row, columns: columns, verbatim: encoding == .csv)
        }
      }
    }
    try written.get()
  }
}
