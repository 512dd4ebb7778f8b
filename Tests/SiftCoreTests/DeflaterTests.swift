import Foundation
import Testing

@testable import SiftCore

private let python3 = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// Docs/Formats.md, Writing workbooks: the DEFLATE stream of the ZIP writer, inflated again by
/// sift's own gzip reader and by Python's zlib.
@Suite struct DeflaterTests {
  /// Inputs that exercise literals only, short and long matches, the 258-byte longest match,
  /// distances past 32 KiB, and several blocks.
  static let inputs: [[UInt8]] = [
    [],
    Array("a".utf8),
    Array("abcabcabcabcabcabc".utf8),
    [UInt8](repeating: 0x41, count: 1000),
    Array((0..<3000).map { "<c r=\"A\($0)\" t=\"inlineStr\"><is><t>value \($0 % 97)</t></is></c>" }.joined().utf8),
    (0..<200_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) },
    Array(String(repeating: "x", count: 40_000).utf8) + Array("unique tail 12345".utf8)
      + Array(String(repeating: "x", count: 40_000).utf8),
  ]

  /// `bytes` inflated by `Inflater`, inside a gzip member made around the raw stream.
  static func inflate(_ deflated: [UInt8], size: Int, crc: UInt32) throws -> [UInt8] {
    var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + deflated
    for v in [crc, UInt32(truncatingIfNeeded: size)] {
      member += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
    }
    let stream = Inflater(inner: ByteSource(bytes: member, name: "test"), initial: [])
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = try buffer.withUnsafeMutableBufferPointer { try stream.read(to: $0.baseAddress!, maxCount: $0.count) }
      if n == 0 { break }
      out += buffer[0..<n]
    }
    return out
  }

  @Test(arguments: inputs.indices)
  func siftsInflaterGivesBackTheInput(_ index: Int) throws {
    let input = Self.inputs[index]
    let deflated = Deflater.deflate(input)
    let crc = input.withUnsafeBufferPointer { b in b.baseAddress.map { CRC32.update(0, $0, b.count) } ?? 0 }
    #expect(try Self.inflate(deflated, size: input.count, crc: crc) == input)
  }

  @Test func repetitiveXMLShrinksFivefold() {
    let xml = Self.inputs[4]
    #expect(Deflater.deflate(xml).count * 5 < xml.count)
  }

  @Test(.enabled(if: python3 != nil, "python3 is not installed"), arguments: inputs.indices)
  func pythonZlibGivesBackTheInput(_ index: Int) throws {
    let input = Self.inputs[index]
    let folder = FileManager.default.temporaryDirectory
    let path = folder.appendingPathComponent("sift-deflate-\(getpid())-\(index).bin")
    defer { try? FileManager.default.removeItem(at: path) }
    try Data(Deflater.deflate(input)).write(to: path)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(python3))
    process.arguments = [
      "-c",
      "import sys, zlib, hashlib; d = zlib.decompress(open(sys.argv[1], 'rb').read(), -15); print(len(d), hashlib.sha256(d).hexdigest())",
      path.path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let expected = try runPython(["-c", "import sys, hashlib; d = sys.stdin.buffer.read(); print(len(d), hashlib.sha256(d).hexdigest())"], input: input)
    #expect(output == expected)
  }

  private func runPython(_ arguments: [String], input: [UInt8]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(python3))
    process.arguments = arguments
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(Data(input))
    try stdin.fileHandleForWriting.close()
    let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return output
  }
}
