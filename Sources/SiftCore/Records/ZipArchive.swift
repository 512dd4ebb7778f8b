#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ZIP archive's central directory, and its entries opened as byte sources (Docs/Formats.md,
/// Workbooks): the end-of-central-directory record found from the end, ZIP64 records for large
/// archives, stored and deflated entries, each checked against its CRC-32 and capped in size.
final class ZipArchive {
  /// The archive's name, for messages.
  let name: String
  /// The files, in central-directory order.
  private(set) var entries: [ZipEntry] = []
  /// Where the bytes are: a regular file read with `pread(2)`, or memory (standard input).
  private let file: ByteSource
  private let fd: Int32
  private let memory: [UInt8]
  private let size: Int

  /// Reads the central directory of the archive `source` holds (a regular file is read in
  /// place; other sources are read whole first).
  init(source: ByteSource) throws(InputError) {
    name = source.name
    file = source
    if let position = source.filePosition {
      fd = position.fd
      memory = []
      size = position.size
    } else {
      fd = -1
      var bytes: [UInt8] = []
      while try source.read(into: &bytes, maxCount: 1 << 20) > 0 {}
      memory = bytes
      size = bytes.count
    }
    try readCentralDirectory()
  }

  /// The entry named `path`, if the archive holds it.
  func entry(_ path: String) -> ZipEntry? { entries.first { $0.name == path } }

  /// The files (not directories) the archive holds.
  var files: [ZipEntry] { entries.filter { !$0.isDirectory } }

  private func fail(_ message: String) -> InputError {
    InputError(name: name, line: 0, column: 0, message: message)
  }

  /// `count` bytes at `offset`, or fewer at the end of the archive.
  private func bytes(at offset: Int, count: Int) throws(InputError) -> [UInt8] {
    guard offset >= 0, offset < size, count > 0 else { return [] }
    let n = min(count, size - offset)
    if fd < 0 { return Array(memory[offset..<(offset + n)]) }
    var out = [UInt8](repeating: 0, count: n)
    var got = 0
    while got < n {
      let r = out.withUnsafeMutableBufferPointer { b in
        pread(fd, b.baseAddress! + got, n - got, off_t(offset + got))
      }
      if r < 0 && errno == EINTR { continue }
      guard r > 0 else {
        if r < 0 { throw fail(ByteSource.describe(errno: errno)) }
        break
      }
      got += r
    }
    out.removeLast(n - got)
    return out
  }

  private static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
  private static func u32(_ b: [UInt8], _ at: Int) -> Int { u16(b, at) | u16(b, at + 2) << 16 }
  private static func u64(_ b: [UInt8], _ at: Int) -> Int {
    let v = UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32
    return v > UInt64(Int.max) ? Int.max : Int(v)
  }

  private func readCentralDirectory() throws(InputError) {
    // The end-of-central-directory record: 22 bytes and a comment of up to 65,535.
    let tailStart = max(0, size - 22 - 65_535)
    let tail = try bytes(at: tailStart, count: size - tailStart)
    var at = tail.count - 22
    while at >= 0 && !(tail[at] == 0x50 && tail[at + 1] == 0x4B && tail[at + 2] == 5 && tail[at + 3] == 6) {
      at -= 1
    }
    guard at >= 0 else {
      throw fail("not a complete ZIP archive: no end-of-central-directory record (the file is truncated or damaged)")
    }
    var count = Self.u16(tail, at + 10)
    var directorySize = Self.u32(tail, at + 12)
    var directoryOffset = Self.u32(tail, at + 16)
    if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
      // ZIP64: a locator just before the record points at the ZIP64 end record.
      let locatorAt = tailStart + at - 20
      let locator = try bytes(at: locatorAt, count: 20)
      guard locator.count == 20, locator[0] == 0x50, locator[1] == 0x4B, locator[2] == 6, locator[3] == 7
      else { throw fail("ZIP64 archive without its end-of-central-directory locator (damaged)") }
      let record = try bytes(at: Self.u64(locator, 8), count: 56)
      guard record.count == 56, record[0] == 0x50, record[1] == 0x4B, record[2] == 6, record[3] == 6
      else { throw fail("ZIP64 end-of-central-directory record missing (damaged)") }
      count = Self.u64(record, 32)
      directorySize = Self.u64(record, 40)
      directoryOffset = Self.u64(record, 48)
    }
    guard directoryOffset <= size, directorySize <= size - directoryOffset, count <= directorySize / 46
    else { throw fail("the ZIP central directory lies outside the file (truncated or damaged)") }
    let directory = try bytes(at: directoryOffset, count: directorySize)
    var p = 0
    entries.reserveCapacity(count)
    for _ in 0..<count {
      guard p + 46 <= directory.count, Self.u32(directory, p) == 0x0201_4B50 else {
        throw fail("the ZIP central directory is damaged")
      }
      let nameLength = Self.u16(directory, p + 28)
      let extraLength = Self.u16(directory, p + 30)
      let commentLength = Self.u16(directory, p + 32)
      guard p + 46 + nameLength + extraLength + commentLength <= directory.count else {
        throw fail("the ZIP central directory is damaged")
      }
      let entryName = String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
      var compressed = Self.u32(directory, p + 20)
      var inflated = Self.u32(directory, p + 24)
      var local = Self.u32(directory, p + 42)
      // The ZIP64 extra field holds, in order, the sizes and offset that read 0xFFFFFFFF.
      var e = p + 46 + nameLength
      let extraEnd = e + extraLength
      while e + 4 <= extraEnd {
        let id = Self.u16(directory, e)
        let length = Self.u16(directory, e + 2)
        if id == 1 {
          var q = e + 4
          if inflated == 0xFFFF_FFFF && q + 8 <= extraEnd { inflated = Self.u64(directory, q); q += 8 }
          if compressed == 0xFFFF_FFFF && q + 8 <= extraEnd { compressed = Self.u64(directory, q); q += 8 }
          if local == 0xFFFF_FFFF && q + 8 <= extraEnd { local = Self.u64(directory, q); q += 8 }
        }
        e += 4 + length
      }
      entries.append(
        ZipEntry(
          name: entryName, method: UInt16(Self.u16(directory, p + 10)),
          flags: UInt16(Self.u16(directory, p + 8)), crc: UInt32(Self.u32(directory, p + 16)),
          compressedSize: compressed, size: inflated, localHeaderOffset: local))
      p += 46 + nameLength + extraLength + commentLength
    }
  }

  /// The bytes of `entry`, inflated as they are read and checked against its CRC-32 at the end.
  func open(_ entry: ZipEntry) throws(InputError) -> ByteSource {
    if entry.flags & 1 != 0 { throw fail("part \(entry.name) is encrypted; sift cannot read it") }
    let header = try bytes(at: entry.localHeaderOffset, count: 30)
    guard header.count == 30, Self.u32(header, 0) == 0x0403_4B50 else {
      throw fail("part \(entry.name) is missing: no local header where the directory says (damaged)")
    }
    let start = entry.localHeaderOffset + 30 + Self.u16(header, 26) + Self.u16(header, 28)
    guard start <= size else { throw fail("part \(entry.name) is truncated") }
    let end = min(size, start + entry.compressedSize)
    let raw: ByteSource
    if fd >= 0 {
      raw = ByteSource(fileDescriptor: fd, name: name, range: start..<end)
    } else {
      raw = ByteSource(bytes: Array(memory[start..<end]), name: name)
    }
    raw.keepAlive = self
    let check = ZipEntryCheck(archive: name, entry: entry)
    let stage: any ByteStage
    switch entry.method {
    case 0: stage = StoredEntryStream(inner: raw, check: check)
    case 8:
      if entry.size > check.limit { throw check.bomb(inflated: entry.size) }
      stage = Inflater(inner: raw, initial: [], framing: .zipEntry(check))
    default:
      throw fail("part \(entry.name) uses ZIP compression method \(entry.method); sift reads stored and deflated parts")
    }
    let source = ByteSource(stage: stage, name: name)
    source.decompresses = true
    return source
  }
}
