/// The time of a `--changes` run in which nothing changed, kept beside the state file instead of
/// the whole baseline written again (Docs/Reports.md, The state): which state file it belongs to
/// (that file's checksum) and the run's time, which the next run's bar says as `since`.
public struct ChangeSince: Sendable, Equatable {
  /// The first bytes of every such file.
  static let magic: [UInt8] = Array("SIFTSNC\n".utf8)
  /// The file's format version; a file of another version is refused.
  public static let version: UInt32 = 1

  /// The checksum of the state file this time belongs to (`ChangeSince.checksum(ofState:)`):
  /// once the state file is replaced, the time no longer applies.
  public var stateChecksum: UInt64
  /// When the run was made, as the bar shows it (`2026-11-24 06:00`).
  public var since: String

  public init(stateChecksum: UInt64, since: String) {
    self.stateChecksum = stateChecksum
    self.since = since
  }

  /// The checksum a state file's bytes end with (`ChangeBaseline.encode`), or `nil` when they
  /// are too short to hold one.
  public static func checksum(ofState bytes: UnsafeRawBufferPointer) -> UInt64? {
    guard bytes.count >= 8 else { return nil }
    return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
  }

  /// The file's bytes: magic, version, the state file's checksum, the time, then a checksum of
  /// everything before it.
  public func encoded() -> [UInt8] {
    var out = Self.magic
    ChangeCoding.appendUInt64(UInt64(Self.version), to: &out)
    ChangeCoding.appendUInt64(stateChecksum, to: &out)
    ChangeCoding.appendText(since, to: &out)
    ChangeCoding.appendUInt64(ChangeCoding.hash(out), to: &out)
    return out
  }

  /// Reads the file's bytes, checking its magic, version and checksum.
  public init(decoding bytes: [UInt8]) throws(ChangeStateError) {
    guard bytes.count >= Self.magic.count, bytes[0..<Self.magic.count].elementsEqual(Self.magic)
    else { throw .foreign }
    var at = Self.magic.count
    guard let version = ChangeCoding.readUInt64(bytes, at: &at) else { throw .damaged }
    guard version == UInt64(Self.version) else {
      throw .version(UInt32(truncatingIfNeeded: version))
    }
    guard bytes.count >= at + 8, let stored = bytes.withUnsafeBytes({ Self.checksum(ofState: $0) }),
      stored == ChangeCoding.hash(bytes[0..<bytes.count - 8])
    else { throw .damaged }
    let decoded = bytes.withUnsafeBufferPointer { b -> (UInt64, String)? in
      let body = UnsafeBufferPointer(rebasing: b[0..<b.count - 8])
      guard let state = ChangeCoding.readUInt64(body, at: &at),
        let since = ChangeCoding.readText(body, at: &at), at == body.count
      else { return nil }
      return (state, since)
    }
    guard let (state, since) = decoded else { throw .damaged }
    self.init(stateChecksum: state, since: since)
  }
}
