import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Formats.md, Pipes and devices: a FILE that is a named pipe (or a process substitution)
/// is read once, like standard input: no record is lost to a second pass over it.
@Suite struct PipeInputTests {
  static let recordCount = 100_000

  /// `count` NDJSON records with the same three keys.
  static func ndjson(count: Int) -> [UInt8] {
    var text = ""
    for i in 0..<count { text += "{\"id\":\(i),\"sku\":\"S-\(i % 97)\",\"qty\":\(i % 13)}\n" }
    return Array(text.utf8)
  }

  /// Runs sift with `arguments` after the path of a named pipe whose writer thread writes
  /// `bytes`, named with `suffix`.
  static func siftOverPipe(
    _ bytes: [UInt8], suffix: String, _ arguments: [String], open opened: Bool = true
  ) throws -> SiftResult {
    signal(SIGPIPE, SIG_IGN)  // a writer the reader left gets EPIPE, not a signal
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-pipe-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("records" + suffix).path
    try #require(mkfifo(path, 0o600) == 0)
    let writer = Thread {
      let fd = open(path, O_WRONLY)
      guard fd >= 0 else { return }
      bytes.withUnsafeBytes { b in
        var offset = 0
        while offset < b.count {
          let n = write(fd, b.baseAddress! + offset, b.count - offset)
          if n <= 0 { break }
          offset += n
        }
      }
      close(fd)
    }
    writer.start()
    let result = sift(arguments + [path])
    if !opened {
      // sift did not open the pipe: open and close its reading end, so the writer ends.
      let fd = open(path, O_RDONLY)
      if fd >= 0 { close(fd) }
    }
    return result
  }

  @Test(arguments: ["csv", "tsv", "markdown", "html", "table"])
  func everyNDJSONRecordFromANamedPipeIsWrittenWithAColumnPerField(format: String) throws {
    let result = try Self.siftOverPipe(Self.ndjson(count: Self.recordCount), suffix: ".ndjson", ["", "-o", format])
    #expect(result.status == .matched, "\(result.stderr)")
    #expect(!result.stderr.contains("sift:"), "\(result.stderr)")
    let lines = result.text.split(separator: "\n")
    #expect(lines.contains { $0.contains("S-\((Self.recordCount - 1) % 97)") && $0.contains("\(Self.recordCount - 1)") })
    let rows = lines.filter { $0.contains("S-") }.count
    #expect(rows == Self.recordCount)
  }

  @Test func everyJSONArrayRecordFromANamedPipeIsWrittenAsCSV() throws {
    let lines = Self.ndjson(count: Self.recordCount).split(separator: UInt8(ascii: "\n"))
    let array = Array("[".utf8) + Array(lines.joined(separator: Array(",\n".utf8))) + Array("]\n".utf8)
    let result = try Self.siftOverPipe(array, suffix: ".json", ["", "-o", "csv"])
    #expect(result.status == .matched, "\(result.stderr)")
    #expect(result.text.split(separator: "\n").count == Self.recordCount + 1)
  }

  @Test func countOfNDJSONFromANamedPipeIsEveryRecord() throws {
    let result = try Self.siftOverPipe(Self.ndjson(count: Self.recordCount), suffix: ".ndjson", ["", "-c"])
    #expect(result.text == "\(Self.recordCount)\n")
  }

  @Test func fieldsOfANamedPipeCountEveryRecord() throws {
    let result = try Self.siftOverPipe(Self.ndjson(count: Self.recordCount), suffix: ".ndjson", ["--fields"])
    #expect(result.status == .matched, "\(result.stderr)")
    #expect(result.stderr == "3 fields · 100,000 records\n")
  }

  /// `--engine` reads FILE itself after sift samples it: a pipe is refused before either reads.
  @Test func engineRefusesANamedPipe() throws {
    let result = try Self.siftOverPipe(Self.ndjson(count: 10), suffix: ".ndjson", ["--engine", "duckdb", ""], open: false)
    #expect(result.status == .error)
    #expect(result.stderr.contains("is not a regular file (a pipe or a device): --engine duckdb reads FILE"))
    #expect(result.stdout.isEmpty)
  }

  /// A key first seen after the sample cannot be found by reading a pipe again: it is an
  /// error after the records before it, as for standard input, never a silent loss.
  @Test func keyFirstSeenAfterTheSampleInANamedPipeIsAnErrorNotALoss() throws {
    var bytes = Self.ndjson(count: 5_000)
    bytes += Array("{\"id\":5000,\"sku\":\"late\",\"qty\":1,\"note\":\"new\"}\n".utf8)
    let piped = try Self.siftOverPipe(bytes, suffix: ".ndjson", ["", "-o", "csv"])
    let standardInput = sift(["", "-o", "csv"], stdin: bytes)
    #expect(piped.status == standardInput.status)
    #expect(piped.stdout == standardInput.stdout)
    #expect(piped.status != .matched || piped.text.contains("new"))
  }
}
