#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `--changes` compares of each record, made where the records are read: on the worker
/// thread filtering a part, so that the merge on the calling thread only looks keys up and
/// appends (Docs/Performance.md, "Keys and values hashed in the parts"). Per record: its key's
/// text (the key fields' values joined by 0x1F), the key's hash, the content hash of its values
/// (`ChangeBaseline.content(_:)`) and the bytes its values take when kept (`ChangeBaseline`).
struct RecordDigests {
  /// The delimiter of a record's canonical text (`hashValues`).
  static let delimiter = UInt8.comma
  /// The output columns of the key fields, in key order.
  let keyColumns: [Int]
  /// How many fields of a row read as written hold its key fields: those up to the last.
  private let keyFieldCount: Int
  private(set) var keyHashes: [UInt64] = []
  private(set) var contents: [UInt64] = []
  /// The bytes of each record's values, length-prefixed, as `ChangeBaseline` keeps them.
  private(set) var sizes: [Int32] = []
  /// The keys' texts one after another; record `i`'s ends at `keyEnds[i]`.
  private(set) var keyBytes: [UInt8] = []
  private(set) var keyEnds: [Int32] = []
  /// Decoded values, reused from record to record.
  private var scratch: [UInt8] = []
  /// A record's canonical text when it is built (`hashValues`), reused from record to record.
  private var text: [UInt8] = []
  /// The fields found in a row read as written, reused from record to record.
  private var spans: [Int32] = []

  /// Whether each record's values are packed here too, while it is on (`ValuesPackedAhead`).
  private let valuesAhead: ValuesPackedAhead?
  /// The packed values of the first records, one after another (`PackedValues`): those added
  /// while `valuesAhead` was on; record `i`'s end at `packedEnds[i]`.
  private(set) var packed: [UInt8] = []
  private(set) var packedEnds: [Int32] = []

  init(keyColumns: [Int], valuesAhead: ValuesPackedAhead? = nil) {
    self.keyColumns = keyColumns
    keyFieldCount = (keyColumns.max() ?? -1) &+ 1
    self.valuesAhead = valuesAhead
  }

  var count: Int { contents.count }

  mutating func removeAll() {
    keyHashes.removeAll(keepingCapacity: true)
    contents.removeAll(keepingCapacity: true)
    sizes.removeAll(keepingCapacity: true)
    keyBytes.removeAll(keepingCapacity: true)
    keyEnds.removeAll(keepingCapacity: true)
    packed.removeAll(keepingCapacity: true)
    packedEnds.removeAll(keepingCapacity: true)
  }

  /// Adds the digests of the records `rows` of `batch`, whose output columns are `columns`, and
  /// their packed values while `valuesAhead` is on (and was for every record before).
  mutating func add(
    _ batch: RecordBatch, rows: ArraySlice<Int32>, columns: [OutputColumn], verbatim: Bool
  ) {
    keyHashes.reserveCapacity(keyHashes.count + rows.count)
    contents.reserveCapacity(contents.count + rows.count)
    sizes.reserveCapacity(sizes.count + rows.count)
    keyEnds.reserveCapacity(keyEnds.count + rows.count)
    let packs = packedEnds.count == count && valuesAhead?.isOn == true
    if packs { packedEnds.reserveCapacity(packedEnds.count + rows.count) }
    batch.withRows { cursor in
      for r in rows {
        let row = cursor.row(Int(r))
        if cursor.asWritten {
          add(asWritten: row, columns: columns)
        } else {
          add(row, columns: columns, verbatim: verbatim)
        }
        if packs { pack(row, asWritten: cursor.asWritten, columns: columns) }
      }
    }
  }

  /// Adds the digest of one record whose fields were found (not read as written).
  mutating func add(_ row: RowView, columns cs: [OutputColumn], verbatim: Bool) {
    let keyStart = keyBytes.count
    addKey(row, cs)
    let (content, size) = Self.hashValues(
      row, cs, verbatim: verbatim, scratch: &scratch, text: &text)
    append(keyFrom: keyStart, content: content, size: size)
  }

  /// Adds the digest of a row of a batch read as written, without fields
  /// (`RecordBatch.asWritten`), whose text is its canonical text.
  private mutating func add(asWritten row: RowView, columns cs: [OutputColumn]) {
    let keyStart = keyBytes.count
    // The key fields are found in the row's text: only the fields up to the last of them.
    var spans = [Int32].take(&self.spans)
    defer { self.spans = spans }
    CSVRowText.withFields(
      of: row, count: keyFieldCount, delimiter: Self.delimiter, spans: &spans
    ) { fields in
      addKey(fields, cs)
    }
    let (content, size) = Self.hashAsWritten(row, columns: cs.count, spans: &spans)
    append(keyFrom: keyStart, content: content, size: size)
  }

  /// Packs the values of a row: one read as written from its text where it can be, else with
  /// its fields found.
  private mutating func pack(_ row: RowView, asWritten: Bool, columns cs: [OutputColumn]) {
    if !asWritten {
      PackedValues.append(row, cs, to: &packed, scratch: &scratch)
    } else if !PackedValues.append(asWritten: row.text, columns: cs.count, to: &packed) {
      var spans = [Int32].take(&self.spans)
      defer { self.spans = spans }
      CSVRowText.withFields(
        of: row, count: cs.count, delimiter: Self.delimiter, spans: &spans
      ) { fields in
        PackedValues.append(fields, cs, to: &packed, scratch: &scratch)
      }
    }
    packedEnds.append(Int32(truncatingIfNeeded: packed.count))
  }

  /// Appends a record's digest, its key's text already appended from `keyStart` on.
  @inline(__always)
  private mutating func append(keyFrom keyStart: Int, content: UInt64, size: Int) {
    let keyHash = keyBytes.withUnsafeBufferPointer {
      ChangeCoding.hash(UnsafeBufferPointer(rebasing: $0[keyStart...]))
    }
    keyHashes.append(keyHash)
    contents.append(content)
    sizes.append(Int32(truncatingIfNeeded: min(size, Int(Int32.max))))
    keyEnds.append(Int32(truncatingIfNeeded: keyBytes.count))
  }

  /// Appends the key's text: the key fields' values joined by 0x1F.
  @inline(__always)
  private mutating func addKey(_ row: RowView, _ cs: [OutputColumn]) {
    // The columns are borrowed, not copied (each copy retains its name and path), and the key
    // columns read by index: an iterator would retain the array, whose count then shares a
    // cache line with a count every worker writes (Docs/Performance.md, "Records taken where
    // they lie").
    cs.withUnsafeBufferPointer { cs in
      for n in 0..<keyColumns.count {
        if n > 0 { keyBytes.append(0x1f) }
        cs[keyColumns[n]].value(row).withDecoded(scratch: &scratch) { keyBytes.append(contentsOf: $0) }
      }
    }
  }

  /// Calls `body` with the digest of record `i` (valid only inside `body`).
  @inline(__always)
  func withDigest<R, E: Error>(
    _ i: Int, _ body: (RecordDigest) throws(E) -> R
  ) throws(E) -> R {
    try withBytes { bytes throws(E) in try body(digest(i, in: bytes)) }
  }

  /// The keys' texts and the packed values, as one value that `digest(_:in:)` reads.
  struct Bytes {
    let keys: UnsafeBufferPointer<UInt8>
    let packed: UnsafeBufferPointer<UInt8>
  }

  /// Calls `body` with this value's `Bytes` (valid only inside `body`).
  @inline(__always)
  func withBytes<R, E: Error>(_ body: (Bytes) throws(E) -> R) throws(E) -> R {
    let result = keyBytes.withUnsafeBufferPointer { keys in
      packed.withUnsafeBufferPointer { packed in
        Result { () throws(E) -> R in try body(Bytes(keys: keys, packed: packed)) }
      }
    }
    return try result.get()
  }

  /// Record `i`'s digest, its key and packed values spans of `bytes` (this value's).
  @inline(__always)
  func digest(_ i: Int, in bytes: Bytes) -> RecordDigest {
    let start = i == 0 ? 0 : Int(keyEnds[i &- 1])
    var values: UnsafeBufferPointer<UInt8>?
    if i < packedEnds.count {
      let from = i == 0 ? 0 : Int(packedEnds[i &- 1])
      values = UnsafeBufferPointer(rebasing: bytes.packed[from..<Int(packedEnds[i])])
    }
    return RecordDigest(
      key: UnsafeBufferPointer(rebasing: bytes.keys[start..<Int(keyEnds[i])]),
      keyHash: keyHashes[i], content: contents[i], size: Int(sizes[i]), values: values)
  }

  /// The content hash of the record's values (the hash of their canonical text: what the CSV
  /// writer writes for them with `,` as delimiter, without a line end, Docs/Performance.md, "A
  /// record's digest from its bytes"), and the bytes `ChangeBaseline` takes to keep them. A CSV
  /// record whose text is its canonical text (`verbatim`, `CSVRowText.isWrittenAsItIs`) is
  /// hashed as it lies; any other has its canonical text built in `text`, each value decoded
  /// once (`scratch`).
  static func hashValues(
    _ row: RowView, _ cs: [OutputColumn], verbatim: Bool, scratch: inout [UInt8],
    text: inout [UInt8]
  ) -> (content: UInt64, size: Int) {
    text.removeAll(keepingCapacity: true)
    var size = 0
    if verbatim, row.encoding == .csv, row.extraCount == 0, row.width == cs.count {
      if CSVRowText.isWrittenAsItIs(row, delimiter: Self.delimiter) {
        return (ChangeCoding.hash(row.text), keptSize(row))
      }
      // A row without a quote, a ',', CR or LF (another delimiter, a short row): its fields'
      // bytes are its values, none quoted, joined by ','. A row whose fields lie one byte apart
      // is copied whole and the bytes between them made ','.
      if !CSVRowText.holdsQuotedByte(row.text, Self.delimiter) {
        var apart = Int(row.spans[0]) == row.extentStart
        for f in 0..<row.width {
          let start = Int(row.spans[2 &* f])
          let count = Int(row.spans[2 &* f &+ 1]) &- start
          size &+= ChangeCoding.varintSize(count) &+ count
          if f > 0, start != Int(row.spans[2 &* f &- 1]) &+ 1 { apart = false }
        }
        if apart, Int(row.spans[2 &* row.width &- 1]) == row.extentEnd {
          text.append(contentsOf: row.text)
          text.withUnsafeMutableBufferPointer { t in
            for f in 0..<(row.width &- 1) {
              t[Int(row.spans[2 &* f &+ 1]) &- row.extentStart] = Self.delimiter
            }
          }
        } else {
          for f in 0..<row.width {
            if f > 0 { text.append(Self.delimiter) }
            let start = Int(row.spans[2 &* f])
            let end = Int(row.spans[2 &* f &+ 1])
            text.append(contentsOf: UnsafeBufferPointer(start: row.base + start, count: end &- start))
          }
        }
        return (text.withUnsafeBufferPointer { ChangeCoding.hash($0) }, size)
      }
    }
    let alone = cs.count == 1
    // The columns are borrowed, not copied one by one (each copy retains its name and path).
    cs.withUnsafeBufferPointer { columns in
      for i in columns.indices {
        if i > 0 { text.append(Self.delimiter) }
        columns[i].value(row).withDecoded(scratch: &scratch) { t in
          size &+= ChangeCoding.varintSize(t.count) &+ t.count
          CSVRowText.appendField(
            t, quoted: CSVRowText.needsQuotes(t, delimiter: Self.delimiter, alone: alone), to: &text)
        }
      }
    }
    return (text.withUnsafeBufferPointer { ChangeCoding.hash($0) }, size)
  }

  /// The content hash and kept size of a row read as written (`RecordBatch.asWritten`) with
  /// `columns` fields: its text is its canonical text. A row without a quote whose values are
  /// all under 128 bytes (its text, less the delimiters, is) keeps each value with a one-byte
  /// length instead of its delimiter, one more for the last: its length + 1; any other has its
  /// fields found (into `spans`) and measured.
  static func hashAsWritten(
    _ row: RowView, columns: Int, spans: inout [Int32]
  ) -> (content: UInt64, size: Int) {
    let text = row.text
    let content = ChangeCoding.hash(text)
    if text.count &- (columns &- 1) < 128, let base = text.baseAddress,
      memchr(base, Int32(UInt8.quote), text.count) == nil
    {
      return (content, text.count &+ 1)
    }
    let size = CSVRowText.withFields(
      of: row, count: columns, delimiter: Self.delimiter, spans: &spans
    ) {
      keptSize($0)
    }
    return (content, size)
  }

  /// The bytes `ChangeBaseline` takes to keep the values of `row`, a CSV row with a span per
  /// field: each value's length (a varint) and its decoded bytes (a quoted field's without its
  /// quotes, each doubled quote one).
  static func keptSize(_ row: RowView) -> Int {
    var size = 0
    for f in 0..<row.width {
      let start = Int(row.spans[2 &* f])
      let end = Int(row.spans[2 &* f &+ 1])
      var length = end &- start
      if length >= 2, row.base[start] == .quote {
        var quotes = 0
        for p in (start &+ 1)..<(end &- 1) where row.base[p] == .quote { quotes &+= 1 }
        length = length &- 2 &- quotes / 2
      }
      size &+= ChangeCoding.varintSize(length) &+ length
    }
    return size
  }
}

/// One record's digest (`RecordDigests`), its key's text borrowed.
struct RecordDigest {
  let key: UnsafeBufferPointer<UInt8>
  let keyHash: UInt64
  let content: UInt64
  let size: Int
  /// Its values packed where it was read (`ValuesPackedAhead`), else `nil`.
  let values: UnsafeBufferPointer<UInt8>?
}

/// A writer that takes records with their digests made ahead, where they were read (a part's
/// worker thread): `--changes`'s tracker (Docs/Performance.md, "Keys and values hashed in the
/// parts").
protocol RecordDigesting: RecordWriter {
  /// The key columns the digests are made with; `nil` before `begin`.
  var digestKeyColumns: [Int]? { get }
  /// The delimiter of the CSV rows whose text is the canonical text their digests hash
  /// (`RecordDigests.delimiter`): with no filter, the engine asks its readers for such rows as
  /// written (`RecordReader.readAsWritten`), without their fields.
  var digestedDelimiter: UInt8 { get }
  /// Whether a part's worker packs its matches' values with their digests, or `nil` where it
  /// never does (there is a baseline).
  var valuesAhead: ValuesPackedAhead? { get }
  /// The format a part's worker writes its matches' rows with as new records
  /// (`RowsWrittenAhead`), or `nil` where a record is not known to be new before the merge
  /// (there is a baseline) or the format does not copy rows as written.
  var rowsAheadFormat: PartWritable? { get }
  /// Writes the records `rows` of `batch`, read by `source`, as `write` writes each one;
  /// `digests` holds theirs from `first` on, in the same order, and `ahead`, when given, their
  /// rows as new records.
  func write(
    rows: ArraySlice<Int32>, of batch: RecordBatch, source: Int, columns: [OutputColumn],
    verbatim: Bool, digests: RecordDigests, ahead: RowsWrittenAhead?, first: Int
  ) throws(OutputError)
}
