import Foundation
import Testing

@testable import SiftCore

private let python3 = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// Docs/Formats.md, Writing workbooks: the ZIP writer's archives, read back field by field and by
/// Python's `zipfile`.
@Suite struct ZipWriterTests {
  /// An archive of a whole entry (`a.txt`, `123456789`) and a streamed one (`dir/b.xml`, in two
  /// pieces).
  static func archive(compress: Bool = false) throws -> [UInt8] {
    let sink = MemorySink()
    let zip = ZipWriter(output: OutputBuffer(sink: sink), compress: compress)
    try zip.add("a.txt", Array("123456789".utf8))
    try zip.beginEntry("dir/b.xml")
    for piece in ["<x>", "hello</x>"] {
      try Array(piece.utf8).withUnsafeBufferPointer { (b) throws(OutputError) in try zip.append(b) }
    }
    try zip.finish()
    return sink.bytes
  }

  static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) }
  }
  static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }

  @Test func wholeEntryHasItsCRCAndSizesInTheLocalHeader() throws {
    let b = try Self.archive()
    #expect(Self.u32(b, 0) == 0x0403_4B50)
    #expect(Self.u16(b, 6) == 0)  // no data descriptor
    #expect(Self.u16(b, 8) == 0)  // stored
    #expect(Self.u32(b, 14) == 0xCBF4_3926)  // the CRC-32 check value of "123456789"
    #expect(Self.u32(b, 18) == 9 && Self.u32(b, 22) == 9)
    #expect(Self.u16(b, 26) == 5)
    #expect(String(decoding: b[30..<35], as: UTF8.self) == "a.txt")
    #expect(String(decoding: b[35..<44], as: UTF8.self) == "123456789")
  }

  @Test func streamedEntryEndsWithADataDescriptor() throws {
    let b = try Self.archive()
    let second = 44
    #expect(Self.u32(b, second) == 0x0403_4B50)
    #expect(Self.u16(b, second + 6) == 8)  // bit 3: sizes follow the data
    #expect(Self.u32(b, second + 14) == 0 && Self.u32(b, second + 18) == 0)
    let data = second + 30 + 9
    #expect(String(decoding: b[data..<(data + 12)], as: UTF8.self) == "<x>hello</x>")
    let descriptor = data + 12
    #expect(Self.u32(b, descriptor) == 0x0807_4B50)
    var crc = UInt32(0)
    Array("<x>hello</x>".utf8).withUnsafeBufferPointer { crc = CRC32.update(0, $0.baseAddress!, 12) }
    #expect(Self.u32(b, descriptor + 4) == crc)
    #expect(Self.u32(b, descriptor + 8) == 12 && Self.u32(b, descriptor + 12) == 12)
  }

  @Test func centralDirectoryPointsAtEachLocalHeader() throws {
    let b = try Self.archive()
    let end = b.count - 22
    #expect(Self.u32(b, end) == 0x0605_4B50)
    #expect(Self.u16(b, end + 8) == 2 && Self.u16(b, end + 10) == 2)
    let size = Int(Self.u32(b, end + 12))
    let start = Int(Self.u32(b, end + 16))
    #expect(start + size == end)
    var at = start
    var offsets: [Int] = []
    var names: [String] = []
    while at < end {
      #expect(Self.u32(b, at) == 0x0201_4B50)
      let nameLength = Self.u16(b, at + 28)
      offsets.append(Int(Self.u32(b, at + 42)))
      names.append(String(decoding: b[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self))
      at += 46 + nameLength
    }
    #expect(names == ["a.txt", "dir/b.xml"])
    #expect(offsets == [0, 44])
  }

  @Test(.enabled(if: python3 != nil, "python3 is not installed"), arguments: [false, true])
  func pythonZipfileReadsEveryEntry(compress: Bool) throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-zip-\(getpid())-\(compress).zip")
    defer { try? FileManager.default.removeItem(at: path) }
    try Data(try Self.archive(compress: compress)).write(to: path)
    let script = """
      import sys, zipfile
      z = zipfile.ZipFile(sys.argv[1])
      assert z.testzip() is None
      for i in z.infolist():
          print(i.filename, i.compress_type, i.file_size, '%08x' % i.CRC, z.read(i).decode())
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(python3))
    process.arguments = ["-c", script, path.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(
      String(decoding: output, as: UTF8.self)
        == "a.txt \(compress ? 8 : 0) 9 cbf43926 123456789\ndir/b.xml \(compress ? 8 : 0) 12 \(String(Self.crc("<x>hello</x>"), radix: 16)) <x>hello</x>\n")
  }

  static func crc(_ text: String) -> UInt32 {
    Array(text.utf8).withUnsafeBufferPointer { CRC32.update(0, $0.baseAddress!, $0.count) }
  }
}
