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
///
/// A run's baseline takes the records it shares with the baseline it was compared with (the
/// same key, unchanged) where their bytes lie there, copying none (`lend`): a record's
/// start below zero is `~offset` in those borrowed bytes, and the state file is written in runs
/// of the two (Docs/Performance.md, "Records taken where they lie").
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
  /// Where each record starts in `bytes`, or below zero (`~offset`) in `borrowed`.
  private var starts: [Int32] = []
  /// The bytes of the baseline this one was compared with, whose records it takes where they
  /// lie (`lend`).
  private var borrowed: ChangeRecordBytes?
  /// `borrowed`'s identity, compared without retaining it.
  private var lender: UInt = 0
  /// The borrowed records as runs of bytes, in record order, each with where it comes among
  /// this baseline's own bytes (for `forEachPiece`).
  private var borrowedRuns: [BorrowedRun] = []
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

  /// The columns a baseline with `base` columns and a run with `current` ones both have, each
  /// as its place in both: by the same name, else by the name a query would take for it
  /// (another case, or normalized: `GRN No` and `grn_no`, Docs/Reports.md, Changes since the
  /// last run) when just one column of the run answers it.
  public static func commonColumns(
    _ base: [String], _ current: [String]
  ) -> [(base: Int, current: Int)] {
    // Each name's first column, and the names by the query's matching stages: look-ups, not a
    // pass over the run's columns per baseline column (Docs/Performance.md, Bounds).
    var place: [String: Int] = [:]
    for (c, name) in current.enumerated() where place[name] == nil { place[name] = c }
    var pairs: [(base: Int, current: Int)] = []
    var taken = Set<Int>()
    var unmatched: [Int] = []
    for (b, name) in base.enumerated() {
      if let c = place[name], taken.insert(c).inserted {
        pairs.append((b, c))
      } else {
        unmatched.append(b)
      }
    }
    guard !unmatched.isEmpty else { return pairs }
    let index = FieldResolver.NameIndex(current)
    for b in unmatched {
      let found = index.candidates(for: base[b])
      guard found.count == 1, let c = place[found[0]], taken.insert(c).inserted else { continue }
      pairs.append((b, c))
    }
    return pairs.sorted { $0.base < $1.base }
  }

  /// This baseline's own records' bytes, one after another, as the state file holds them (all
  /// its records' bytes when it borrows none).
  var recordBytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes.buffer[recordsStart..<recordsEnd])
  }

  /// The records' bytes in record order as the state file holds them, in pieces: runs of its
  /// own bytes and of borrowed ones.
  func forEachPiece(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    let own = bytes.buffer
    var at = recordsStart
    for run in borrowedRuns {
      if run.ownAt > at { body(UnsafeBufferPointer(rebasing: own[at..<run.ownAt])) }
      at = run.ownAt
      if let lent = borrowed?.buffer { body(UnsafeBufferPointer(rebasing: lent[run.start..<run.end])) }
    }
    if recordsEnd > at { body(UnsafeBufferPointer(rebasing: own[at..<recordsEnd])) }
  }

  /// Where record `i`'s bytes lie: its own bytes or the borrowed ones, and its offset there.
  @inline(__always)
  private func place(_ i: Int) -> (bytes: UnsafeBufferPointer<UInt8>, at: Int) {
    let s = starts[i]
    if s >= 0 { return (bytes.buffer, Int(s)) }
    return (borrowed?.buffer ?? UnsafeBufferPointer(start: nil, count: 0), Int(~s))
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
  private func record(_ i: Int) -> (
    content: UInt64, key: UnsafeBufferPointer<UInt8>, values: UnsafeBufferPointer<UInt8>?, end: Int
  ) {
    let (b, start) = place(i)
    var at = start
    // A record's parts were checked when it was read or appended: each lies inside `b`.
    let content = ChangeCoding.readUInt64(b, at: &at) ?? 0
    let keyLength = ChangeCoding.readVarint(b, at: &at) ?? 0
    let key = UnsafeBufferPointer(rebasing: b[at..<min(at &+ keyLength, b.count)])
    at &+= keyLength
    let values = ChangeCoding.readVarint(b, at: &at) ?? 0
    guard values > 0 else { return (content, key, nil, at) }
    let end = min(at &+ values &- 1, b.count)
    return (content, key, UnsafeBufferPointer(rebasing: b[at..<end]), end)
  }

  /// The hash of record `i`'s values (`RecordDigests`).
  @inline(__always)
  func content(_ i: Int) -> UInt64 {
    let (b, start) = place(i)
    var at = start
    return ChangeCoding.readUInt64(b, at: &at) ?? 0
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

  /// For each of `keys`, the record that has it, or -1: every record's key looked at once, one
  /// after another, a few bytes of it first (its length, its first and last eight bytes mixed
  /// into a bit of a small filter of `keys`), so a few keys are found among a million in a few
  /// milliseconds with no key table (Docs/Performance.md, "New records without the key table").
  func records(withKeys keys: [[UInt8]]) -> [Int] {
    var found = [Int](repeating: -1, count: keys.count)
    guard !keys.isEmpty else { return found }
    var bits = [UInt64](repeating: 0, count: Self.filterWords)
    let marks = keys.map { k in k.withUnsafeBufferPointer { Self.keyMark($0) } }
    for m in marks { bits[m >> 6] |= 1 << UInt64(m & 63) }
    let own = bytes.buffer
    let lent = borrowed?.buffer ?? UnsafeBufferPointer(start: nil, count: 0)
    bits.withUnsafeBufferPointer { bits in
      starts.withUnsafeBufferPointer { starts in
        for i in 0..<starts.count {
          // Only the key is read: past the content hash, its length and text (each record's
          // parts were checked when it was read or appended).
          let s = starts[i]
          let b = s >= 0 ? own : lent
          var at = (s >= 0 ? Int(s) : Int(~s)) &+ 8
          var length = Int(b[at])
          if length < 0x80 {
            at &+= 1
          } else {
            length = ChangeCoding.readVarint(b, at: &at) ?? 0
          }
          let key = UnsafeBufferPointer(rebasing: b[at..<min(at &+ length, b.count)])
          let m = Self.keyMark(key)
          guard bits[m >> 6] & (1 << UInt64(m & 63)) != 0 else { continue }
          for n in keys.indices where marks[n] == m && keys[n].elementsEqual(key) { found[n] = i }
        }
      }
    }
    return found
  }

  /// The words of the filter `records(withKeys:)` marks keys in.
  private static let filterWords = 64

  /// Where a key falls in the filter of `records(withKeys:)`: its length and its first and
  /// last eight bytes (fewer when it is shorter), mixed.
  @inline(__always)
  private static func keyMark(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    var mix = UInt64(truncatingIfNeeded: key.count) &* 0x9E37_79B9_7F4A_7C15
    if let base = key.baseAddress {
      let p = UnsafeRawPointer(base)
      if key.count >= 8 {
        mix ^= p.loadUnaligned(as: UInt64.self)
        mix = (mix &* ChangeCoding.wordPrime) ^ p.loadUnaligned(fromByteOffset: key.count &- 8, as: UInt64.self)
      } else {
        for i in 0..<key.count { mix = (mix << 8) | UInt64(base[i]) }
      }
    }
    mix = mix &* ChangeCoding.wordPrime
    return Int(truncatingIfNeeded: mix >> 52)
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

  /// Adds record `i` to `later`, the baseline of the run compared with this one, where its
  /// bytes lie here: nothing is copied (Docs/Performance.md, "Records taken where they lie").
  /// Only when its kept values are what `append` would keep (`keepValues`: values while the
  /// budget lasts, none past it; `nil`, for a `later` that is not written: whatever it keeps)
  /// and it lies in the state file's bytes (`stateIdentity`), which
  /// are the ones `later` borrows from; else nothing is added and it is `false` (a record of the
  /// edits beside the state file is copied by `append`).
  /// A method of the lender, called on it in place (`baseline?.lend(…)`), so neither baseline is
  /// copied or retained per record.
  @inline(__always)
  func lend(_ i: Int, to later: inout ChangeBaseline, keepValues: Bool?) -> Bool {
    lend(i, record(i), to: &later, keepValues: keepValues)
  }

  /// `lend`, when record `i`'s key is `key` and its content hash `content` (`false` when they
  /// differ): the record read once for both.
  @inline(__always)
  func lendIfSame(
    _ i: Int, key: UnsafeBufferPointer<UInt8>, content: UInt64, to later: inout ChangeBaseline,
    keepValues: Bool?
  ) -> Bool {
    let record = record(i)
    guard record.content == content, record.key.count == key.count else { return false }
    if let a = record.key.baseAddress, let b = key.baseAddress, memcmp(a, b, key.count) != 0 {
      return false
    }
    return lend(i, record, to: &later, keepValues: keepValues)
  }

  /// `lend` of record `i`, read (`record`).
  @inline(__always)
  private func lend(
    _ i: Int,
    _ record: (content: UInt64, key: UnsafeBufferPointer<UInt8>, values: UnsafeBufferPointer<UInt8>?, end: Int),
    to later: inout ChangeBaseline, keepValues: Bool?
  ) -> Bool {
    let s = starts[i]
    // A record in this baseline's own bytes lies in the state file's only when it borrows none.
    guard s < 0 || borrowedRuns.isEmpty else { return false }
    let state = stateIdentity
    guard later.lender == state || later.lender == 0 else { return false }
    if let keepValues, (record.values != nil) != keepValues { return false }
    // `later`'s own bytes are not touched (the runs say where among them the borrowed ones come),
    // so they need not be its own yet (`makeAppendable`).
    if later.lender == 0 {
      later.borrowed = s >= 0 ? bytes : borrowed
      later.lender = state
    }
    let start = s >= 0 ? Int(s) : Int(~s)
    later.starts.append(~Int32(truncatingIfNeeded: start))
    let last = later.borrowedRuns.count &- 1
    if last >= 0, later.borrowedRuns[last].end == start,
      later.borrowedRuns[last].ownAt == later.recordsEnd
    {
      later.borrowedRuns[last].end = record.end
    } else {
      later.borrowedRuns.append(BorrowedRun(ownAt: later.recordsEnd, start: start, end: record.end))
    }
    later.keyByteCount &+= record.key.count
    later.keptValueBytes &+= record.values?.count ?? 0
    return true
  }


  /// Which bytes hold the state file's records: its own when it borrows none (as read from a
  /// state file), else the borrowed ones; compared without retaining them.
  public var stateIdentity: UInt {
    borrowedRuns.isEmpty && borrowed == nil
      ? UInt(bitPattern: Unmanaged.passUnretained(bytes).toOpaque()) : lender
  }

  /// This baseline as the state file it borrows from (`state`, a `stateIdentity`) would keep it
  /// beside itself instead of a whole new file (`ChangeSince`: Docs/Reports.md, The state):
  /// `.same` when its records are that file's as they lie, its edits when they borrow from that
  /// file and take at most `most` bytes, else `nil` (it is written whole).
  public func asEdits(of state: UInt, most: Int) -> ChangeSince.Records? {
    if borrowedRuns.isEmpty && borrowed == nil { return stateIdentity == state ? .same : nil }
    let runBytes = borrowedRuns.count &* 16
    guard lender == state, recordsEnd &- recordsStart &+ runBytes <= most else { return nil }
    let runs = borrowedRuns.map {
      BorrowedRun(ownAt: $0.ownAt &- recordsStart, start: $0.start, end: $0.end)
    }
    return .edited(ChangeEdits(count: count, runs: runs, own: Array(recordBytes)))
  }

  /// The baseline that `edits` of the records of `state` (read from a state file) make: the
  /// state file's records where they lie, in runs, and the edits' own records (Docs/Reports.md,
  /// The state). Edits whose runs or records do not fit the state file are `.damaged`.
  public init(edits: ChangeEdits, since: String, over state: ChangeBaseline) throws(ChangeStateError) {
    guard state.borrowedRuns.isEmpty, state.borrowed == nil else { throw .damaged }
    self.init(columns: state.columns, keys: state.keys, since: since)
    let own = edits.own.withUnsafeBufferPointer { ChangeRecordBytes(copying: $0) }
    bytes = own
    borrowed = state.bytes
    lender = state.stateIdentity
    borrowedRuns = edits.runs
    recordsEnd = own.count
    let ownBytes = own.buffer
    let lent = state.bytes.buffer
    var starts: [Int32] = []
    starts.reserveCapacity(min(edits.count, state.count &+ ownBytes.count / 10))
    var keyBytes = 0
    var kept = 0
    var at = 0
    for run in edits.runs {
      guard at <= run.ownAt, run.ownAt <= ownBytes.count, run.start < run.end,
        state.recordsStart <= run.start, run.end <= state.recordsEnd,
        state.startsRecord(at: run.start),
        Self.walkRecords(
          ownBytes, at..<run.ownAt, borrowed: false, into: &starts, keyBytes: &keyBytes,
          keptValues: &kept),
        Self.walkRecords(
          lent, run.start..<run.end, borrowed: true, into: &starts, keyBytes: &keyBytes,
          keptValues: &kept)
      else { throw .damaged }
      at = run.ownAt
    }
    guard
      Self.walkRecords(
        ownBytes, at..<ownBytes.count, borrowed: false, into: &starts, keyBytes: &keyBytes,
        keptValues: &kept),
      starts.count == edits.count
    else { throw .damaged }
    self.starts = starts
    keyByteCount = keyBytes
    keptValueBytes = kept
  }

  /// Whether one of its records starts at `offset` (its records in their order, none borrowed).
  private func startsRecord(at offset: Int) -> Bool {
    var low = 0
    var high = starts.count
    while low < high {
      let mid = (low + high) / 2
      if Int(starts[mid]) < offset { low = mid + 1 } else { high = mid }
    }
    return low < starts.count && Int(starts[low]) == offset
  }

  /// Appends go to bytes of this baseline's own: a state file's bytes as read, or bytes another
  /// copy of this baseline shares, are copied first (the records only).
  private mutating func makeAppendable() {
    guard !bytes.appendable || !isKnownUniquelyReferenced(&bytes) else { return }
    let records = recordBytes
    let copy = ChangeRecordBytes(copying: records)
    let shift = Int32(truncatingIfNeeded: recordsStart)
    starts = starts.map { $0 >= 0 ? $0 &- shift : $0 }
    for r in borrowedRuns.indices { borrowedRuns[r].ownAt &-= recordsStart }
    bytes = copy
    recordsStart = 0
    recordsEnd = copy.count
  }
}

/// A run of records a `ChangeBaseline` borrows: their bytes `start..<end` in the borrowed bytes,
/// coming where its own bytes are at `ownAt`.
struct BorrowedRun: Sendable, Equatable {
  var ownAt: Int
  var start: Int
  var end: Int
}
