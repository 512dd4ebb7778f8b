/// One file in a ZIP archive, as its central directory records it (Docs/Formats.md, Workbooks).
struct ZipEntry: Sendable {
  /// The path inside the archive (`xl/worksheets/sheet1.xml`).
  let name: String
  /// 0 stored, 8 deflated.
  let method: UInt16
  let flags: UInt16
  let crc: UInt32
  let compressedSize: Int
  let size: Int
  let localHeaderOffset: Int

  /// A directory entry (`xl/`), not a file.
  var isDirectory: Bool { name.hasSuffix("/") }
}

/// What an entry's bytes must come to: the CRC-32 and size the archive records, and the most an
/// entry may inflate to (Docs/Formats.md, Workbooks: a ZIP bomb is refused).
struct ZipEntryCheck: Sendable {
  /// The archive's name, for messages.
  let archive: String
  /// The entry, as the central directory records it.
  let entry: ZipEntry
  /// The most bytes the entry may inflate to.
  let limit: Int

  /// The entry's path inside the archive.
  var part: String { entry.name }

  /// How many times its compressed size an entry may inflate to (past `floor`): real workbook
  /// parts inflate 5 to 60 times; a ZIP bomb a thousand.
  static let ratio = 200
  /// Entries may always inflate to 1 MiB.
  static let floor = 1 << 20

  init(archive: String, entry: ZipEntry) {
    self.archive = archive
    self.entry = entry
    let (product, overflow) = entry.compressedSize.multipliedReportingOverflow(by: Self.ratio)
    self.limit = max(Self.floor, overflow ? Int.max : product)
  }

  /// The error for an entry that inflates (or says it inflates) to `inflated` bytes, past `limit`.
  func bomb(inflated: Int) -> InputError {
    InputError(
      name: archive, line: 0, column: 0,
      message:
        "part \(part) inflates to \(inflated) bytes or more from \(entry.compressedSize) compressed,"
        + " over \(Self.ratio) times its size: refused as a ZIP bomb")
  }

  /// Throws when the bytes read do not match the archive's record of them.
  func verify(crc: UInt32, size: Int) throws(InputError) {
    guard crc == entry.crc else {
      throw InputError(
        name: archive, line: 0, column: 0,
        message: "part \(part) is damaged: its CRC-32 does not match the archive's")
    }
    guard size == entry.size else {
      throw InputError(
        name: archive, line: 0, column: 0,
        message:
          "part \(part) is damaged: it holds \(size) bytes, the archive says \(entry.size)")
    }
  }
}

/// A stored (not compressed) ZIP entry's bytes, checked against its CRC-32 at the end.
final class StoredEntryStream: ByteStage {
  private let inner: ByteSource
  private let check: ZipEntryCheck
  private var crc: UInt32 = 0
  private var count = 0
  private var finished = false

  init(inner: ByteSource, check: ZipEntryCheck) {
    self.inner = inner
    self.check = check
  }

  func read(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) throws(InputError) -> Int {
    if finished { return 0 }
    let n = try inner.readBytes(to: target, maxCount: maxCount)
    if n == 0 {
      finished = true
      try check.verify(crc: crc, size: count)
      return 0
    }
    crc = CRC32.update(crc, target, n)
    count += n
    return n
  }
}
