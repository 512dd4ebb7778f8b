import Foundation
import Testing

@testable import SiftCLI

private let gzipPath = ["/usr/bin/gzip", "/bin/gzip"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// Docs/Formats.md, Compressed input: a damaged multi-megabyte `.gz` writes the records before
/// the damage, whole, then an error naming the file and the compressed byte offset, status 2.
/// The files are made at test time with the `gzip` command.
@Suite(.enabled(if: gzipPath != nil, "the gzip command is absent"))
struct CompressedInputTests {

  /// `count` CSV records numbered from `first`, about 40 bytes each.
  static func records(from first: Int, count: Int) -> [UInt8] {
    var text = ""
    for i in first..<(first + count) {
      text += "\(i),widget \(i % 97),\(["north", "south", "east"][i % 3]),\(i % 1000).25\n"
    }
    return Array(text.utf8)
  }

  static let header = Array("id,name,region,price\n".utf8)

  /// What the gzip command writes given `bytes` (compressed by default).
  static func gzip(_ bytes: [UInt8], _ arguments: [String] = ["-c", "-6", "-n"]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(gzipPath))
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread {
      input.fileHandleForWriting.write(Data(bytes))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let compressed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Array(compressed)
  }

  /// Writes `bytes` to a fresh `name` in a temporary folder; its path.
  static func write(_ bytes: [UInt8], as name: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sift-gz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  /// The lines of `bytes`, each with its LF; a last line without one is dropped.
  static func wholeLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lines.append(bytes[start...i])
      start = i + 1
    }
    return lines
  }

  @Test func aTruncatedFileWritesEveryWholeRecordBeforeTheCut() throws {
    let plain = Self.header + Self.records(from: 0, count: 200_000)  // about 7 MB
    let compressed = try Self.gzip(plain)
    let cut = compressed.count / 2
    let truncated = Array(compressed[..<cut])
    let path = try Self.write(truncated, as: "cut.csv.gz")
    let result = sift(["", path, "-o", "csv"])
    #expect(result.status == .error)
    #expect(
      result.stderr
        == "sift: \(path): corrupt gzip data at byte \(cut): "
        + "unexpected end of file (the file is truncated)\n"
    )
    // Whole records of the input, in order, up to the cut: half the compressed file holds
    // about half the text, so more than a third of it comes out, and no record is cut short.
    // (Expectations on Bools: a failing one on arrays of megabytes would print them whole.)
    let wholeRecordsOfTheInput =
      result.stdout.last == UInt8(ascii: "\n") && plain.starts(with: result.stdout)
    #expect(wholeRecordsOfTheInput)
    #expect(result.stdout.count > plain.count / 3, "\(result.stdout.count) bytes written")
    // Every record inflated before the cut is written (the last chunk read before the error
    // too): at most one record short of the whole ones `gzip -dc` recovers.
    let recovered = Self.wholeLines(try Self.gzip(truncated, ["-dc"])).count
    #expect(Self.wholeLines(result.stdout).count >= recovered - 1, "gzip -dc: \(recovered) lines")
  }

  /// Two gzip members; the second one's magic bytes are damaged, or the first one's CRC-32.
  @Test(arguments: [
    ("second member's header", 0, "not a gzip member (no 1f 8b magic)"),
    ("first member's CRC-32", -8, "CRC-32 mismatch (the data is damaged)"),
  ])
  func damageWritesTheRecordsBeforeIt(what: String, at delta: Int, message: String) throws {
    let first = Self.header + Self.records(from: 0, count: 100_000)
    let second = Self.records(from: 100_000, count: 100_000)
    let member = try Self.gzip(first)
    var compressed = member + (try Self.gzip(second))
    let damage = member.count + delta
    compressed[damage] ^= 0x55
    let path = try Self.write(compressed, as: "damaged.csv.gz")
    let result = sift(["", path, "-o", "csv"])
    #expect(result.status == .error, "\(what)")
    #expect(result.stderr == "sift: \(path): corrupt gzip data at byte \(damage): \(message)\n")
    let firstMemberOnly = result.stdout == first
    #expect(firstMemberOnly, "\(what): \(result.stdout.count) bytes written, not \(first.count)")
  }

  @Test func aMalformedRecordInDamagedDataReportsTheDamage() throws {
    // Damage that still inflates (here: the first member's length field) is found at the end
    // of its member; the malformed record before it is reported as that damage.
    let first = Self.header + Self.records(from: 0, count: 100_000)
    let member = try Self.gzip(first + Array("1,2,3,4,5\n".utf8))
    var compressed = member
    compressed[member.count - 1] ^= 0x01
    let path = try Self.write(compressed, as: "damaged.csv.gz")
    let result = sift(["", path, "-o", "csv"])
    #expect(result.status == .error)
    #expect(
      result.stderr
        == "sift: \(path): corrupt gzip data at byte \(member.count - 4): "
        + "length mismatch (the data is damaged)\n"
    )
    let recordsBeforeTheMalformedOne = result.stdout == first
    #expect(
      recordsBeforeTheMalformedOne, "\(result.stdout.count) bytes written, not \(first.count)")
  }
}
