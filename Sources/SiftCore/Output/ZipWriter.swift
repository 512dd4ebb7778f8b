/// Writes a ZIP archive of deflated (`Deflater`; or, when asked, stored) entries into an output
/// buffer, front to back, so that it can go to a pipe (Docs/Formats.md, Writing workbooks). A
/// part whose bytes are all known
/// is written with its sizes and CRC in its local header (`add`); a part written as it is made (a
/// worksheet) has a data descriptor after its bytes (`beginEntry`, `append`, `endEntry`), as
/// general-purpose flag bit 3 allows. The central directory and its end record come last
/// (`finish`). Every entry is dated 1980-01-01 00:00, so the same records give the same bytes.
///
/// No ZIP64: an archive whose entries or offsets pass 4 GiB − 1 is refused with an error.
final class ZipWriter {
  /// What the central directory needs of one entry.
  private struct Entry {
    var name: [UInt8]
    var crc: UInt32
    var size: UInt32
    var compressedSize: UInt32
    var offset: UInt32
    var descriptor: Bool
  }

  private let output: OutputBuffer
  /// Deflate the entries (method 8), else store them (method 0).
  private let compress: Bool
  private var entries: [Entry] = []
  /// The streamed entry's compressor, and its compressed bytes waiting to be written.
  private var deflater = Deflater()
  private var compressed: [UInt8] = []
  /// Bytes written so far: the offset of the next local header.
  private var offset = 0
  /// The entry being streamed: its index in `entries`, running CRC and size.
  private var open: (index: Int, crc: UInt32, size: Int, compressedSize: Int)?
  /// The largest size and offset a ZIP without ZIP64 can hold.
  static let limit = 0xFFFF_FFFF

  init(output: OutputBuffer, compress: Bool = true) {
    self.output = output
    self.compress = compress
  }

  private var method: UInt16 { compress ? 8 : 0 }

  /// Adds a whole entry.
  func add(_ name: String, _ bytes: [UInt8]) throws(OutputError) {
    let crc = bytes.withUnsafeBufferPointer { b in
      b.baseAddress.map { CRC32.update(0, $0, b.count) } ?? 0
    }
    try checkLimit(bytes.count)
    let data = compress ? Deflater.deflate(bytes) : bytes
    let entry = Entry(
      name: Array(name.utf8), crc: crc, size: UInt32(bytes.count),
      compressedSize: UInt32(data.count), offset: try position(), descriptor: false)
    writeLocalHeader(entry)
    write(data)
    entries.append(entry)
    try output.endRecord()
  }

  /// Starts an entry whose bytes follow through `append`.
  func beginEntry(_ name: String) throws(OutputError) {
    let entry = Entry(
      name: Array(name.utf8), crc: 0, size: 0, compressedSize: 0, offset: try position(),
      descriptor: true)
    writeLocalHeader(entry)
    entries.append(entry)
    open = (entries.count - 1, 0, 0, 0)
    deflater = Deflater()
  }

  /// Appends bytes to the entry begun last.
  func append(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    guard var current = open, let base = bytes.baseAddress, !bytes.isEmpty else { return }
    current.crc = CRC32.update(current.crc, base, bytes.count)
    current.size += bytes.count
    try checkLimit(current.size)
    if compress {
      deflater.compress(bytes, into: &compressed)
      current.compressedSize += compressed.count
      write(compressed)
      compressed.removeAll(keepingCapacity: true)
    } else {
      current.compressedSize += bytes.count
      output.append(bytes)
      offset += bytes.count
    }
    open = current
    try output.endRecord()
  }

  /// Ends the entry begun last with its data descriptor.
  func endEntry() throws(OutputError) {
    guard var current = open else { return }
    open = nil
    if compress {
      deflater.finish(into: &compressed)
      current.compressedSize += compressed.count
      write(compressed)
      compressed.removeAll(keepingCapacity: true)
    }
    try checkLimit(current.compressedSize)
    entries[current.index].crc = current.crc
    entries[current.index].size = UInt32(current.size)
    entries[current.index].compressedSize = UInt32(current.compressedSize)
    var d: [UInt8] = []
    d.appendZipInteger(UInt32(0x0807_4B50))
    d.appendZipInteger(current.crc)
    d.appendZipInteger(UInt32(current.compressedSize))
    d.appendZipInteger(UInt32(current.size))
    write(d)
  }

  /// Writes the central directory and its end record, and flushes the output.
  func finish() throws(OutputError) {
    try endEntry()
    let start = try position()
    var d: [UInt8] = []
    for e in entries {
      d.appendZipInteger(UInt32(0x0201_4B50))
      d.appendZipInteger(UInt16(20))  // made by: version 2.0, MS-DOS attributes
      d.appendZipInteger(UInt16(20))  // needed to extract: 2.0
      d.appendZipInteger(UInt16(e.descriptor ? 0x0008 : 0))
      d.appendZipInteger(method)
      d.appendZipInteger(Self.dosTime)
      d.appendZipInteger(Self.dosDate)
      d.appendZipInteger(e.crc)
      d.appendZipInteger(e.compressedSize)
      d.appendZipInteger(e.size)
      d.appendZipInteger(UInt16(e.name.count))
      d.appendZipInteger(UInt16(0))  // extra field
      d.appendZipInteger(UInt16(0))  // comment
      d.appendZipInteger(UInt16(0))  // disk number
      d.appendZipInteger(UInt16(0))  // internal attributes
      d.appendZipInteger(UInt32(0))  // external attributes
      d.appendZipInteger(e.offset)
      d.append(contentsOf: e.name)
    }
    try checkLimit(offset + d.count)
    let count = UInt16(min(entries.count, 0xFFFF))
    let directorySize = UInt32(d.count)
    d.appendZipInteger(UInt32(0x0605_4B50))
    d.appendZipInteger(UInt16(0))  // this disk
    d.appendZipInteger(UInt16(0))  // the directory's disk
    d.appendZipInteger(count)
    d.appendZipInteger(count)
    d.appendZipInteger(directorySize)
    d.appendZipInteger(start)
    d.appendZipInteger(UInt16(0))  // comment
    write(d)
    try output.flush()
  }

  /// 00:00:00 and 1980-01-01 in MS-DOS form.
  private static let dosTime: UInt16 = 0
  private static let dosDate: UInt16 = (0 << 9) | (1 << 5) | 1

  private func writeLocalHeader(_ e: Entry) {
    var h: [UInt8] = []
    h.appendZipInteger(UInt32(0x0403_4B50))
    h.appendZipInteger(UInt16(20))
    h.appendZipInteger(UInt16(e.descriptor ? 0x0008 : 0))
    h.appendZipInteger(method)
    h.appendZipInteger(Self.dosTime)
    h.appendZipInteger(Self.dosDate)
    // With a data descriptor the CRC and sizes are zero here and follow the data.
    h.appendZipInteger(e.crc)
    h.appendZipInteger(e.compressedSize)
    h.appendZipInteger(e.size)
    h.appendZipInteger(UInt16(e.name.count))
    h.appendZipInteger(UInt16(0))
    h.append(contentsOf: e.name)
    write(h)
  }

  private func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { output.append($0) }
    offset += bytes.count
  }

  /// The current offset, which the next header starts at.
  private func position() throws(OutputError) -> UInt32 {
    try checkLimit(offset)
    return UInt32(offset)
  }

  private func checkLimit(_ value: Int) throws(OutputError) {
    if value > Self.limit {
      throw .failed("the workbook passes 4 GiB, which a ZIP without ZIP64 cannot hold; filter the records or choose fewer fields")
    }
  }
}

extension Array where Element == UInt8 {
  /// Appends `value`'s bytes, least significant first, as ZIP's headers hold integers.
  fileprivate mutating func appendZipInteger<T: FixedWidthInteger>(_ value: T) {
    var v = value.littleEndian
    Swift.withUnsafeBytes(of: &v) { append(contentsOf: $0) }
  }
}
