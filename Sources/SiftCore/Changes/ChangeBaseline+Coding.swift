extension ChangeBaseline {
  /// The state file's bytes: magic, version, columns, keys, time, the count of records, the
  /// records as they lie (`ChangeBaseline`), then a checksum of everything before it
  /// (`StateChecksum`).
  public func encoded() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64 + recordBytes.count)
    encode { out.append(contentsOf: $0) }
    return out
  }

  /// The state file's bytes (`encoded()`) handed to `write` in pieces: the header, the records
  /// where they lie (their own bytes and the runs they borrow, nothing copied: Docs/Performance.md,
  /// "The state as it lies") and the checksum.
  public func encode(_ write: (UnsafeBufferPointer<UInt8>) -> Void) {
    var header = ChangeCoding.magic
    ChangeCoding.appendUInt64(UInt64(Self.version), to: &header)
    ChangeCoding.appendVarint(columns.count, to: &header)
    for c in columns { ChangeCoding.appendText(c, to: &header) }
    ChangeCoding.appendVarint(keys.count, to: &header)
    for k in keys { ChangeCoding.appendText(k, to: &header) }
    ChangeCoding.appendText(since, to: &header)
    ChangeCoding.appendVarint(count, to: &header)
    var checksum = StateChecksum()
    header.withUnsafeBufferPointer { header in
      checksum.add(header)
      write(header)
    }
    forEachPiece { piece in
      guard !piece.isEmpty else { return }
      checksum.add(piece)
      write(piece)
    }
    var sum: [UInt8] = []
    ChangeCoding.appendUInt64(checksum.value, to: &sum)
    sum.withUnsafeBufferPointer { write($0) }
  }

  /// Reads a state file's bytes, checking its magic, version, checksum and every record's
  /// extent. The records stay where they lie in `bytes`.
  public init(decoding bytes: [UInt8]) throws(ChangeStateError) {
    let storage = bytes.withUnsafeBufferPointer { ChangeRecordBytes(copying: $0) }
    try self.init(decoding: storage)
  }

  /// Reads a state file's bytes where they lie (a mapped file), which the baseline then owns:
  /// `release` lets go of them when it goes, or at once when they are refused.
  /// `checksumAside`: the checksum is taken on a thread of its own while the records are read
  /// (a state of a megabyte or more), so the two take the time of one.
  public init(
    decodingHandedOver bytes: UnsafeRawBufferPointer, checksumAside: Bool = false,
    release: @escaping @Sendable () -> Void
  ) throws(ChangeStateError) {
    try self.init(
      decoding: ChangeRecordBytes(handedOver: bytes, release: release), checksumAside: checksumAside)
  }

  private init(decoding storage: ChangeRecordBytes, checksumAside: Bool = false)
    throws(ChangeStateError)
  {
    let bytes = storage.buffer
    let magic = ChangeCoding.magic
    guard bytes.count >= magic.count, bytes[0..<magic.count].elementsEqual(magic) else {
      throw .foreign
    }
    var at = magic.count
    guard let version = ChangeCoding.readUInt64(bytes, at: &at) else { throw .damaged }
    guard version == UInt64(Self.version) else { throw .version(UInt32(truncatingIfNeeded: version)) }
    // A file of more than 2 GiB is not one sift wrote (its offsets are 32 bits).
    guard bytes.count >= at + 8, bytes.count <= Int(Int32.max) else { throw .damaged }
    let bodyEnd = bytes.count - 8
    var sumAt = bodyEnd
    let stored = ChangeCoding.readUInt64(bytes, at: &sumAt)
    let body = UnsafeBufferPointer(rebasing: bytes[0..<bodyEnd])
    // Taken aside, the checksum is waited for before the bytes can be let go of (a refused
    // file's are at once) and before the baseline is made.
    let aside = checksumAside && body.count >= 1 << 20 ? WorkAside { StateChecksum.of(body) } : nil
    defer { _ = aside?.wait() }
    if aside == nil { guard stored == StateChecksum.of(body) else { throw .damaged } }
    func texts() throws(ChangeStateError) -> [String] {
      guard let n = ChangeCoding.readVarint(body, at: &at) else { throw .damaged }
      var out: [String] = []
      for _ in 0..<n {
        guard let s = ChangeCoding.readText(body, at: &at) else { throw .damaged }
        out.append(s)
      }
      return out
    }
    let columns = try texts()
    let keys = try texts()
    guard let since = ChangeCoding.readText(body, at: &at),
      let count = ChangeCoding.readVarint(body, at: &at)
    else { throw .damaged }
    // Each record takes at least 10 bytes (hash, key length, values length).
    guard count <= body.count / 10 else { throw .damaged }
    let recordsStart = at
    var starts: [Int32] = []
    starts.reserveCapacity(count)
    var keyBytes = 0
    var keptValues = 0
    guard
      Self.walkRecords(
        body, at..<body.count, borrowed: false, into: &starts, keyBytes: &keyBytes,
        keptValues: &keptValues),
      starts.count == count
    else { throw .damaged }
    if let aside { guard stored == aside.wait() ?? StateChecksum.of(body) else { throw .damaged } }
    self.init(
      columns: columns, keys: keys, since: since, bytes: storage, starts: starts,
      records: recordsStart..<bodyEnd, keyByteCount: keyBytes, keptValueBytes: keptValues)
  }

  /// Walks the records in `bytes[range]`, each as a state file holds it, appending where each
  /// starts (`~offset` when they are `borrowed`) to `starts` and adding up their key and kept
  /// value bytes; `false` when a record does not fit or they do not end where the range does.
  static func walkRecords(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, borrowed: Bool,
    into starts: inout [Int32], keyBytes: inout Int, keptValues: inout Int
  ) -> Bool {
    guard range.upperBound <= bytes.count else { return false }
    // The reads stop where the range does.
    let b = UnsafeBufferPointer(rebasing: bytes[0..<range.upperBound])
    var at = range.lowerBound
    while at < b.count {
      let start = Int32(truncatingIfNeeded: at)
      starts.append(borrowed ? ~start : start)
      at &+= 8
      guard at <= b.count, let keyLength = ChangeCoding.readVarint(b, at: &at),
        keyLength <= b.count &- at
      else { return false }
      at &+= keyLength
      keyBytes &+= keyLength
      guard let values = ChangeCoding.readVarint(b, at: &at) else { return false }
      if values > 0 {
        guard values &- 1 <= b.count &- at else { return false }
        at &+= values &- 1
        keptValues &+= values &- 1
      }
    }
    return at == range.upperBound
  }
}
