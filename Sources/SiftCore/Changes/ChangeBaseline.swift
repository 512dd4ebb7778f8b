#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The matching records of a run as `--changes` remembers them for the next run
/// (Docs/Reports.md, "Changes since the last run"): per record its key's text and a hash of its
/// values, and the values themselves while they fit `valueBudget`, so a gone record can be
/// printed and a changed one can say what it was.
///
/// The records lie as the state file holds them, one after another: per record its content hash
/// (8 bytes, little-endian), its key's length (varint) and text, and its values' length plus one
/// (varint; 0 when they were not kept) followed by the values (each column's text,
/// length-prefixed). A state file read is used where its bytes lie, and a baseline a run builds
/// is written with one write of its records (Docs/Performance.md, "The state as it lies").
public struct ChangeBaseline: Sendable, Equatable {
  /// The state file's format version; a file of another version is refused, never read as empty.
  public static let version: UInt32 = 2
  /// The most bytes of record values a baseline keeps (the first records' values, in run order);
  /// records past it keep only their key and hash.
  public static let valueBudget = 16 << 20

  /// The output columns the records were written with.
  public var columns: [String]
  /// The key fields, as named on the command line.
  public var keys: [String]
  /// When the run was made, as the bar shows it (`2026-11-24 06:00`).
  public var since: String
  /// The records' bytes (a state file's header and checksum around them when read from one).
  private var bytes: ChangeRecordBytes
  /// Where each record starts in `bytes`.
  private var starts: [Int32] = []
  /// Where the records end in `bytes`.
  private var recordsEnd = 0
  /// Where the records start in `bytes`.
  private var recordsStart = 0
  /// The bytes of record values kept so far (`valueBudget`).
  private(set) var keptValueBytes = 0
  /// The bytes of the records' keys, all together (to make room for a next baseline).
  private(set) var keyByteCount = 0

  public init(columns: [String], keys: [String], since: String) {
    self.columns = columns
    self.keys = keys
    self.since = since
    bytes = ChangeRecordBytes()
  }

  /// A baseline of records that lie in `bytes` at `starts`, ending at `recordsEnd`.
  init(
    columns: [String], keys: [String], since: String, bytes: ChangeRecordBytes, starts: [Int32],
    records: Range<Int>, keyByteCount: Int, keptValueBytes: Int
  ) {
    self.init(columns: columns, keys: keys, since: since)
    self.bytes = bytes
    self.starts = starts
    recordsStart = records.lowerBound
    recordsEnd = records.upperBound
    self.keyByteCount = keyByteCount
    self.keptValueBytes = keptValueBytes
  }

  /// How many records it holds.
  public var count: Int { starts.count }

  /// The records' bytes, one after another, as the state file holds them.
  var recordBytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes.buffer[recordsStart..<recordsEnd])
  }

  /// Equal when they hold the same columns, keys, time and records (each record's key, hash and
  /// kept values), wherever their bytes lie.
  public static func == (a: Self, b: Self) -> Bool {
    a.columns == b.columns && a.keys == b.keys && a.since == b.since && a.count == b.count
      && (0..<a.count).allSatisfy { i in
        a.content(i) == b.content(i) && a.key(i).elementsEqual(b.key(i))
          && a.packedValues(i).map(Array.init) == b.packedValues(i).map(Array.init)
      }
  }

  /// Record `i`'s parts: its content hash, its key's text, and its packed values (each
  /// length-prefixed) or `nil` when they were not kept. Valid while the baseline is and nothing
  /// is appended to it.
  @inline(__always)
  private func record(_ i: Int) -> (content: UInt64, key: UnsafeBufferPointer<UInt8>, values: UnsafeBufferPointer<UInt8>?) {
    let b = bytes.buffer
    var at = Int(starts[i])
    // A record's parts were checked when it was read or appended: each lies inside `b`.
    let content = ChangeCoding.readUInt64(b, at: &at) ?? 0
    let keyLength = ChangeCoding.readVarint(b, at: &at) ?? 0
    let key = UnsafeBufferPointer(rebasing: b[at..<min(at &+ keyLength, b.count)])
    at &+= keyLength
    let values = ChangeCoding.readVarint(b, at: &at) ?? 0
    guard values > 0 else { return (content, key, nil) }
    return (content, key, UnsafeBufferPointer(rebasing: b[at..<min(at &+ values &- 1, b.count)]))
  }

  /// The hash of record `i`'s values (`RecordDigests`).
  @inline(__always)
  func content(_ i: Int) -> UInt64 {
    var at = Int(starts[i])
    return ChangeCoding.readUInt64(bytes.buffer, at: &at) ?? 0
  }

  /// The key text of record `i` (valid while the baseline is and nothing is appended to it).
  public func key(_ i: Int) -> UnsafeBufferPointer<UInt8> { record(i).key }

  /// Whether record `i`'s key text is `key`: one `memcmp`, not a byte-by-byte walk
  /// (Docs/Performance.md, "The state as it lies").
  @inline(__always)
  func hasKey(_ i: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    let own = record(i).key
    guard own.count == key.count else { return false }
    guard own.count > 0, let a = own.baseAddress, let b = key.baseAddress else { return true }
    return memcmp(a, b, own.count) == 0
  }

  /// Record `i`'s values as kept: each column's text, length-prefixed; `nil` when not kept.
  func packedValues(_ i: Int) -> UnsafeBufferPointer<UInt8>? { record(i).values }

  /// The values of record `i`, one per column, or `nil` when they were not kept (valid while the
  /// baseline is and nothing is appended to it).
  public func values(_ i: Int) -> [UnsafeBufferPointer<UInt8>]? {
    guard let packed = packedValues(i) else { return nil }
    var out: [UnsafeBufferPointer<UInt8>] = []
    var at = 0
    while at < packed.count, let length = ChangeCoding.readVarint(packed, at: &at),
      at + length <= packed.count
    {
      out.append(UnsafeBufferPointer(rebasing: packed[at..<at + length]))
      at += length
    }
    return out
  }

  /// Makes room for `records` more records of `bytes` bytes in all.
  mutating func reserve(records: Int, bytes extra: Int) {
    makeAppendable()
    starts.reserveCapacity(starts.count + records)
    bytes.reserve(extra)
  }

  /// Adds a record: its key text, its content hash and, while the budget lasts, its values.
  mutating func append(
    key: UnsafeBufferPointer<UInt8>, content: UInt64, values: UnsafeBufferPointer<UInt8>?,
    budget: Int
  ) {
    makeAppendable()
    starts.append(Int32(truncatingIfNeeded: bytes.count))
    bytes.appendUInt64(content)
    bytes.appendVarint(key.count)
    bytes.append(key)
    keyByteCount &+= key.count
    if let values, keptValueBytes + values.count <= budget {
      bytes.appendVarint(values.count &+ 1)
      bytes.append(values)
      keptValueBytes &+= values.count
    } else {
      bytes.append(0)
    }
    recordsEnd = bytes.count
  }

  /// Appends go to bytes of this baseline's own: a state file's bytes as read, or bytes another
  /// copy of this baseline shares, are copied first (the records only).
  private mutating func makeAppendable() {
    guard !bytes.appendable || !isKnownUniquelyReferenced(&bytes) else { return }
    let records = recordBytes
    let copy = ChangeRecordBytes(copying: records)
    let shift = Int32(truncatingIfNeeded: recordsStart)
    starts = starts.map { $0 &- shift }
    bytes = copy
    recordsStart = 0
    recordsEnd = copy.count
  }
}
