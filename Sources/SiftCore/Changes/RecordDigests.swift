/// What `--changes` compares of each record, made where the records are read: on the worker
/// thread filtering a part, so that the merge on the calling thread only looks keys up and
/// appends (Docs/Performance.md, "Keys and values hashed in the parts"). Per record: its key's
/// text (the key fields' values joined by 0x1F), the key's hash, the content hash of its values
/// (`ChangeBaseline.Entry.content`) and the bytes its values take when kept (`ChangeBaseline`).
struct RecordDigests {
  /// What a writer asks to be made ahead of its records (`RecordDigesting`).
  struct Plan {
    /// The output columns of the key fields, in key order.
    let keyColumns: [Int]
    /// On a first run, when the format's writer writes parts (CSV, TSV, NDJSON): each record's
    /// `new` row is written ahead too, by a part writer of it, with these columns (`change`,
    /// the fields, `was`).
    let newRows: (writer: PartWritable, columns: [OutputColumn])?
  }

  /// The output columns of the key fields, in key order.
  let keyColumns: [Int]
  private(set) var keyHashes: [UInt64] = []
  private(set) var contents: [UInt64] = []
  /// The bytes of each record's values, length-prefixed, as `ChangeBaseline` keeps them.
  private(set) var sizes: [Int32] = []
  /// The keys' texts one after another; record `i`'s ends at `keyEnds[i]`.
  private(set) var keyBytes: [UInt8] = []
  private(set) var keyEnds: [Int32] = []
  /// Decoded values, reused from record to record.
  private var scratch: [UInt8] = []
  /// The records' `new` rows, written ahead (`Plan.newRows`); `nil` when not asked for.
  private var newRows: NewRowsAhead?

  init(keyColumns: [Int]) {
    self.keyColumns = keyColumns
  }

  /// The digests of a part's records, with their `new` rows when `plan` asks (made on the
  /// part's worker).
  init(plan: Plan) {
    keyColumns = plan.keyColumns
    if let (writer, columns) = plan.newRows { newRows = NewRowsAhead(writer, columns: columns) }
  }

  var count: Int { contents.count }

  mutating func removeAll() {
    keyHashes.removeAll(keepingCapacity: true)
    contents.removeAll(keepingCapacity: true)
    sizes.removeAll(keepingCapacity: true)
    keyBytes.removeAll(keepingCapacity: true)
    keyEnds.removeAll(keepingCapacity: true)
  }

  /// Adds the digests of the records `rows` of `batch`, whose output columns are `columns`.
  mutating func add(
    _ batch: RecordBatch, rows: ArraySlice<Int32>, columns: [OutputColumn], verbatim: Bool
  ) {
    keyHashes.reserveCapacity(keyHashes.count + rows.count)
    contents.reserveCapacity(contents.count + rows.count)
    sizes.reserveCapacity(sizes.count + rows.count)
    keyEnds.reserveCapacity(keyEnds.count + rows.count)
    batch.withRows { cursor in
      for r in rows { add(cursor.row(Int(r)), columns: columns, verbatim: verbatim) }
    }
  }

  /// Adds the digest of one record.
  mutating func add(_ row: RowView, columns cs: [OutputColumn], verbatim: Bool) {
    let keyStart = keyBytes.count
    for (n, k) in keyColumns.enumerated() {
      if n > 0 { keyBytes.append(0x1f) }
      Self.withText(of: cs[k].value(row), scratch: &scratch) { keyBytes.append(contentsOf: $0) }
    }
    let keyHash = keyBytes.withUnsafeBufferPointer {
      ChangeCoding.hash(UnsafeBufferPointer(rebasing: $0[keyStart...]))
    }
    let (content, size) = Self.hashValues(row, cs, verbatim: verbatim, scratch: &scratch)
    keyHashes.append(keyHash)
    contents.append(content)
    sizes.append(Int32(truncatingIfNeeded: min(size, Int(Int32.max))))
    keyEnds.append(Int32(truncatingIfNeeded: keyBytes.count))
    newRows?.add(row, columns: cs, verbatim: verbatim)
  }

  /// The part is read to its end: its `new` rows are written out of their buffer.
  func close() { newRows?.close() }

  /// Calls `body` with the digest of record `i` (valid only inside `body`).
  @inline(__always)
  func withDigest<R, E: Error>(
    _ i: Int, _ body: (RecordDigest) throws(E) -> R
  ) throws(E) -> R {
    try withBytes { keys, rows throws(E) in try body(digest(i, keys: keys, rows: rows)) }
  }

  /// Calls `body` with the keys' bytes and the `new` rows' bytes written ahead (empty when
  /// none were), for `digest(_:keys:rows:)`.
  @inline(__always)
  func withBytes<R, E: Error>(
    _ body: (_ keys: UnsafeBufferPointer<UInt8>, _ rows: UnsafeBufferPointer<UInt8>) throws(E) -> R
  ) throws(E) -> R {
    let written: [UInt8] = newRows.flatMap { $0.failed ? nil : $0.sink.bytes } ?? []
    let result = keyBytes.withUnsafeBufferPointer { keys in
      written.withUnsafeBufferPointer { rows in
        Result { () throws(E) -> R in try body(keys, rows) }
      }
    }
    return try result.get()
  }

  /// Record `i`'s digest, its key a span of `keys` and its `new` row one of `rows`
  /// (`withBytes`).
  @inline(__always)
  func digest(
    _ i: Int, keys: UnsafeBufferPointer<UInt8>, rows: UnsafeBufferPointer<UInt8>
  ) -> RecordDigest {
    let start = i == 0 ? 0 : Int(keyEnds[i &- 1])
    var newRow: UnsafeBufferPointer<UInt8>?
    if let ends = newRows?.ends, i < ends.count, ends[i] <= rows.count {
      newRow = UnsafeBufferPointer(rebasing: rows[(i == 0 ? 0 : ends[i &- 1])..<ends[i]])
    }
    return RecordDigest(
      key: UnsafeBufferPointer(rebasing: keys[start..<Int(keyEnds[i])]), keyHash: keyHashes[i],
      content: contents[i], size: Int(sizes[i]), newRow: newRow)
  }

  /// Calls `body` with the text of `value`: its own bytes when they are its text, else decoded
  /// into `scratch`. The one place a value's text is taken that way (the key, the content hash,
  /// the values kept).
  @inline(__always)
  static func withText<R>(
    of value: FieldValue, scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    if value.isVerbatim { return body(value.content) }
    value.decode(into: &scratch)
    return scratch.withUnsafeBufferPointer(body)
  }

  /// The content hash of the record's values, and the bytes `ChangeBaseline` takes to keep them.
  static func hashValues(
    _ row: RowView, _ cs: [OutputColumn], verbatim: Bool, scratch: inout [UInt8]
  ) -> (content: UInt64, size: Int) {
    var content = ChangeCoding.fnvOffset
    var size = 0
    @inline(__always)
    func add(_ v: FieldValue) {
      withText(of: v, scratch: &scratch) { t in
        content = ChangeCoding.hash(t, into: content)
        size &+= ChangeCoding.varintSize(t.count) &+ t.count
      }
    }
    // A CSV record whose fields are the columns: each field read from its span, not through
    // its column's accessor (the same values).
    if verbatim, row.encoding == .csv, row.extraCount == 0, row.width == cs.count {
      for i in 0..<cs.count { add(row.field(i)) }
      return (content, size)
    }
    // The columns are borrowed, not copied one by one (each copy retains its name and path).
    cs.withUnsafeBufferPointer { columns in
      for i in columns.indices { add(columns[i].value(row)) }
    }
    return (content, size)
  }
}

/// One record's digest (`RecordDigests`), its key's text borrowed.
struct RecordDigest {
  let key: UnsafeBufferPointer<UInt8>
  let keyHash: UInt64
  let content: UInt64
  let size: Int
  /// The record's `new` row, written ahead by a part writer (`RecordDigests.Plan.newRows`).
  let newRow: UnsafeBufferPointer<UInt8>?
}

/// A part's `new` rows of a first run, written ahead on its worker by a part writer of the
/// format's writer into bytes of their own, each record's ending at `ends`: the merge adds the
/// rows of the records it finds new as they lie, in runs (Docs/Performance.md, "Keys and values
/// hashed in the parts").
final class NewRowsAhead {
  let sink = MemorySink()
  private let output: OutputBuffer
  private let writer: RecordWriter?
  private let columns: [OutputColumn]
  private var row = ChangeRow()
  private var scratch: [UInt8] = []
  private(set) var ends: [Int] = []
  /// Set when the part writer failed or there is none: the merge then writes each row itself.
  private(set) var failed = false

  init(_ writer: PartWritable, columns: [OutputColumn]) {
    output = OutputBuffer(sink: sink)
    self.writer = writer.partWriter(into: output)
    self.columns = columns
    failed = self.writer == nil
  }

  func add(_ record: RowView, columns cs: [OutputColumn], verbatim: Bool) {
    guard !failed, let writer else { return }
    row.startNew(record, columns: cs, verbatim: verbatim, scratch: &scratch)
    do throws(OutputError) {
      try row.write(to: writer, columns: columns)
      ends.append(output.position)
    } catch {
      failed = true
    }
  }

  func close() {
    do throws(OutputError) { try output.flush() } catch { failed = true }
  }
}

/// A writer that takes records with their digests made ahead, where they were read (a part's
/// worker thread): `--changes`'s tracker (Docs/Performance.md, "Keys and values hashed in the
/// parts").
protocol RecordDigesting: RecordWriter {
  /// What the records' digests are made with; `nil` before `begin`.
  var digestPlan: RecordDigests.Plan? { get }
  /// Writes the records `rows` of `batch`, read by `source`, as `write` writes each one;
  /// `digests` holds theirs from `first` on, in the same order.
  func write(
    rows: ArraySlice<Int32>, of batch: RecordBatch, source: Int, columns: [OutputColumn],
    verbatim: Bool, digests: RecordDigests, first: Int
  ) throws(OutputError)
}
