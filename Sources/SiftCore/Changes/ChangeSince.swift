/// What a `--changes` run keeps beside the state file instead of the whole baseline written
/// again, when its records are the state file's or a few edits of them (Docs/Reports.md, The
/// state): which state file it belongs to (that file's checksum), the run's time, which the next
/// run's bar says as `since`, and the edits (`ChangeEdits`) when there are any.
public struct ChangeSince: Sendable, Equatable {
  /// A run's records as the state file has them.
  public enum Records: Sendable, Equatable {
    /// The state file's records, as they lie.
    case same
    /// Edits of the state file's records.
    case edited(ChangeEdits)
  }

  /// The first bytes of every such file.
  static let magic: [UInt8] = Array("SIFTSNC\n".utf8)
  /// The file's format version; a file of another version is refused (version 1, a time
  /// without edits, is read too).
  public static let version: UInt32 = 2

  /// The checksum of the state file this time belongs to (`ChangeSince.checksum(ofState:)`):
  /// once the state file is replaced, the time no longer applies.
  public var stateChecksum: UInt64
  /// When the run was made, as the bar shows it (`2026-11-24 06:00`).
  public var since: String
  /// The run's records.
  public var records: Records

  public init(stateChecksum: UInt64, since: String, records: Records = .same) {
    self.stateChecksum = stateChecksum
    self.since = since
    self.records = records
  }

  /// The checksum a state file's bytes end with (`ChangeBaseline.encode`), or `nil` when they
  /// are too short to hold one.
  public static func checksum(ofState bytes: UnsafeRawBufferPointer) -> UInt64? {
    guard bytes.count >= 8 else { return nil }
    return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
  }

  /// The file's bytes: magic, version, the state file's checksum, the time, 0 for the same
  /// records or 1 and the edits (the count of records; the count of runs and each run's place
  /// among the own records, start and end in the state file; the own records' length and
  /// bytes), then a checksum of everything before it.
  public func encoded() -> [UInt8] {
    var out = Self.magic
    ChangeCoding.appendUInt64(UInt64(Self.version), to: &out)
    ChangeCoding.appendUInt64(stateChecksum, to: &out)
    ChangeCoding.appendText(since, to: &out)
    switch records {
    case .same:
      out.append(0)
    case .edited(let edits):
      out.append(1)
      ChangeCoding.appendVarint(edits.count, to: &out)
      ChangeCoding.appendVarint(edits.runs.count, to: &out)
      for run in edits.runs {
        ChangeCoding.appendVarint(run.ownAt, to: &out)
        ChangeCoding.appendVarint(run.start, to: &out)
        ChangeCoding.appendVarint(run.end, to: &out)
      }
      ChangeCoding.appendVarint(edits.own.count, to: &out)
      out.append(contentsOf: edits.own)
    }
    ChangeCoding.appendUInt64(ChangeCoding.hash(out), to: &out)
    return out
  }

  /// Reads the file's bytes, checking its magic, version and checksum.
  public init(decoding bytes: [UInt8]) throws(ChangeStateError) {
    guard bytes.count >= Self.magic.count, bytes[0..<Self.magic.count].elementsEqual(Self.magic)
    else { throw .foreign }
    var at = Self.magic.count
    guard let version = ChangeCoding.readUInt64(bytes, at: &at) else { throw .damaged }
    guard version == 1 || version == UInt64(Self.version) else {
      throw .version(UInt32(truncatingIfNeeded: version))
    }
    guard bytes.count >= at + 8, let stored = bytes.withUnsafeBytes({ Self.checksum(ofState: $0) }),
      stored == ChangeCoding.hash(bytes[0..<bytes.count - 8])
    else { throw .damaged }
    let decoded = bytes.withUnsafeBufferPointer { b -> ChangeSince? in
      let body = UnsafeBufferPointer(rebasing: b[0..<b.count - 8])
      guard let state = ChangeCoding.readUInt64(body, at: &at),
        let since = ChangeCoding.readText(body, at: &at)
      else { return nil }
      // Version 1 holds only the time.
      if version == 1 { return at == body.count ? ChangeSince(stateChecksum: state, since: since) : nil }
      guard at < body.count else { return nil }
      let edited = body[at]
      at += 1
      if edited == 0 { return at == body.count ? ChangeSince(stateChecksum: state, since: since) : nil }
      guard edited == 1, let count = ChangeCoding.readVarint(body, at: &at),
        let runCount = ChangeCoding.readVarint(body, at: &at), runCount <= body.count - at
      else { return nil }
      var runs: [BorrowedRun] = []
      runs.reserveCapacity(runCount)
      for _ in 0..<runCount {
        guard let ownAt = ChangeCoding.readVarint(body, at: &at),
          let start = ChangeCoding.readVarint(body, at: &at),
          let end = ChangeCoding.readVarint(body, at: &at)
        else { return nil }
        runs.append(BorrowedRun(ownAt: ownAt, start: start, end: end))
      }
      guard let ownCount = ChangeCoding.readVarint(body, at: &at), ownCount == body.count - at
      else { return nil }
      let edits = ChangeEdits(count: count, runs: runs, own: Array(body[at...]))
      return ChangeSince(stateChecksum: state, since: since, records: .edited(edits))
    }
    guard let decoded else { throw .damaged }
    self = decoded
  }
}

/// A run's records as edits of the state file's (`ChangeSince`): runs of the state file's records
/// where they lie, and records of their own, in the run's order.
public struct ChangeEdits: Sendable, Equatable {
  /// How many records in all.
  var count: Int
  /// The runs of the state file's records: their bytes there, and where each comes among `own`.
  var runs: [BorrowedRun]
  /// The records of their own, one after another as a state file holds them.
  var own: [UInt8]
}
