/// What `--changes` compares of each record, made where the records are read: on the worker
/// thread filtering a part, so that the merge on the calling thread only looks keys up and
/// appends (Docs/Performance.md, "Keys and values hashed in the parts"). Per record: its key's
/// text (the key fields' values joined by 0x1F), the key's hash, the content hash of its values
/// (`ChangeBaseline.Entry.content`) and the bytes its values take when kept (`ChangeBaseline`).
struct RecordDigests {
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

  init(keyColumns: [Int]) {
    self.keyColumns = keyColumns
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
      cs[k].value(row).withDecoded(scratch: &scratch) { keyBytes.append(contentsOf: $0) }
    }
    let keyHash = keyBytes.withUnsafeBufferPointer {
      ChangeCoding.hash(UnsafeBufferPointer(rebasing: $0[keyStart...]))
    }
    let (content, size) = Self.hashValues(row, cs, verbatim: verbatim, scratch: &scratch)
    keyHashes.append(keyHash)
    contents.append(content)
    sizes.append(Int32(truncatingIfNeeded: min(size, Int(Int32.max))))
    keyEnds.append(Int32(truncatingIfNeeded: keyBytes.count))
  }

  /// Calls `body` with the digest of record `i` (valid only inside `body`).
  @inline(__always)
  func withDigest<R, E: Error>(
    _ i: Int, _ body: (RecordDigest) throws(E) -> R
  ) throws(E) -> R {
    let result = keyBytes.withUnsafeBufferPointer { keys in
      Result { () throws(E) -> R in try body(digest(i, keys: keys)) }
    }
    return try result.get()
  }

  /// Record `i`'s digest, its key a span of `keys` (this value's `keyBytes`).
  @inline(__always)
  func digest(_ i: Int, keys: UnsafeBufferPointer<UInt8>) -> RecordDigest {
    let start = i == 0 ? 0 : Int(keyEnds[i &- 1])
    return RecordDigest(
      key: UnsafeBufferPointer(rebasing: keys[start..<Int(keyEnds[i])]), keyHash: keyHashes[i],
      content: contents[i], size: Int(sizes[i]))
  }

  /// The content hash of the record's values, and the bytes `ChangeBaseline` takes to keep them.
  static func hashValues(
    _ row: RowView, _ cs: [OutputColumn], verbatim: Bool, scratch: inout [UInt8]
  ) -> (content: UInt64, size: Int) {
    var content = ChangeCoding.fnvOffset
    var size = 0
    @inline(__always)
    func add(_ t: UnsafeBufferPointer<UInt8>) {
      content = ChangeCoding.hash(t, into: content)
      size &+= ChangeCoding.varintSize(t.count) &+ t.count
    }
    @inline(__always)
    func add(_ v: FieldValue) {
      v.withDecoded(scratch: &scratch) { add($0) }
    }
    // A CSV record whose fields are the columns: each field read from its span, not through
    // its column's accessor (the same values); a field that does not start with a quote is its
    // own bytes, taken without a `FieldValue` (the others are decoded as any value is).
    if verbatim, row.encoding == .csv, row.extraCount == 0, row.width == cs.count {
      let spans = row.spans
      let base = row.base
      for i in 0..<cs.count {
        let start = Int(spans[2 &* i])
        let end = Int(spans[2 &* i &+ 1])
        if start >= 0, end > start, base[start] != .quote {
          add(UnsafeBufferPointer(start: base + start, count: end &- start))
        } else {
          add(row.field(i))
        }
      }
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
}

/// A writer that takes records with their digests made ahead, where they were read (a part's
/// worker thread): `--changes`'s tracker (Docs/Performance.md, "Keys and values hashed in the
/// parts").
protocol RecordDigesting: RecordWriter {
  /// The key columns the digests are made with; `nil` before `begin`.
  var digestKeyColumns: [Int]? { get }
  /// Writes the records `rows` of `batch`, read by `source`, as `write` writes each one;
  /// `digests` holds theirs from `first` on, in the same order.
  func write(
    rows: ArraySlice<Int32>, of batch: RecordBatch, source: Int, columns: [OutputColumn],
    verbatim: Bool, digests: RecordDigests, first: Int
  ) throws(OutputError)
}
