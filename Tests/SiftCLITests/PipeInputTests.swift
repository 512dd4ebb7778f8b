import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Formats.md, Pipes and devices: a FILE that is a named pipe (or a process substitution)
/// is read once, like standard input: no record is lost to a second pass over it.
@Suite struct PipeInputTests {
  /// About 1.8 MB of NDJSON: past the first chunk of 1 MiB, which the sample reads, so a second
  /// pass over the pipe would lose records.
  static let recordCount = 40_000
  /// About 1.6 MB of `csv(count:)`: past the first chunk too.
  static let csvRecordCount = 100_000

  /// `count` NDJSON records with the same three keys.
  static func ndjson(count: Int) -> [UInt8] {
    var text = ""
    for i in 0..<count { text += "{\"id\":\(i),\"sku\":\"S-\(i % 97)\",\"qty\":\(i % 13)}\n" }
    return Array(text.utf8)
  }

  /// Calls `body` with the path of a named pipe (named with `suffix`) whose writer thread
  /// writes `bytes` once a reader opens it. With `opened` false, `body` is not expected to
  /// open it: its reading end is opened and closed after, so the writer ends.
  static func withNamedPipe<R>(
    _ bytes: [UInt8], suffix: String, opened: Bool = true, _ body: (String) throws -> R
  ) throws -> R {
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
    let result = try body(path)
    if !opened {
      let fd = open(path, O_RDONLY)
      if fd >= 0 { close(fd) }
    }
    return result
  }

  /// Runs sift with `arguments` after the path of a named pipe whose writer thread writes
  /// `bytes`, named with `suffix`.
  static func siftOverPipe(
    _ bytes: [UInt8], suffix: String, _ arguments: [String], open opened: Bool = true
  ) throws -> SiftResult {
    try withNamedPipe(bytes, suffix: suffix, opened: opened) { sift(arguments + [$0]) }
  }

  @Test(arguments: ["csv", "tsv", "markdown", "html", "table"])
  func everyNDJSONRecordFromANamedPipeIsWrittenWithAColumnPerField(format: String) throws {
    let result = try Self.siftOverPipe(Self.ndjson(count: Self.recordCount), suffix: ".ndjson", ["", "-o", format])
    #expect(result.status == .matched, "\(result.stderr)")
    #expect(!result.stderr.contains("sift:"), "\(result.stderr)")
    let lines = result.text.split(separator: "\n")
    // An HTML report groups the number's digits (Docs/Reports.md, The table).
    let last = format == "html" ? groupedDigits(Self.recordCount - 1) : "\(Self.recordCount - 1)"
    #expect(lines.contains { $0.contains("S-\((Self.recordCount - 1) % 97)") && $0.contains(last) })
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
    #expect(result.stderr == "3 fields · 40,000 records\n")
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

  /// `count` CSV records `id,status,qty`, half of them `open`.
  static func csv(count: Int) -> [UInt8] {
    var text = "id,status,qty\n"
    for i in 0..<count { text += "\(i),\(i % 2 == 0 ? "open" : "shut"),\(i % 7)\n" }
    return Array(text.utf8)
  }

  /// `--changes` reads a pipe once: its first run finds every matching record new, its
  /// second (the same stream again) none changed.
  @Test func changesOverANamedPipeSeeEveryRecord() throws {
    let state = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-pipe-state-\(UInt32.random(in: 0...UInt32.max))").path
    defer { try? FileManager.default.removeItem(atPath: state) }
    let bytes = Self.csv(count: Self.csvRecordCount)
    let arguments = ["--changes", "id", "status:open", "-o", "csv"]
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_STATE_DIR": state]
    let first = try Self.withNamedPipe(bytes, suffix: ".csv") { sift(arguments + [$0], environment: environment) }
    #expect(first.status == .matched, "\(first.stderr)")
    #expect(first.text.split(separator: "\n").filter { $0.hasPrefix("new,") }.count == Self.csvRecordCount / 2)
    let second = try Self.withNamedPipe(bytes, suffix: ".csv") { sift(arguments + [$0], environment: environment) }
    #expect(second.stderr.contains("0 new · 0 changed · 0 gone"), "\(second.stderr)")
    #expect(second.stderr.contains("50,000 of 100,000 records"), "\(second.stderr)")
  }

  /// `--against` a pipe reads the earlier export once and compares every record of it.
  @Test func againstANamedPipeComparesEveryRecord() throws {
    let bytes = Self.csv(count: Self.csvRecordCount)
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-pipe-now-\(UInt32.random(in: 0...UInt32.max)).csv").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    // Now: the same records, and one more that is new.
    try Data(bytes + Array("\(Self.csvRecordCount),open,1\n".utf8)).write(to: URL(fileURLWithPath: file))
    let result = try Self.withNamedPipe(bytes, suffix: ".csv") {
      sift(["--changes", "id", "--against", $0, "status:open", "-o", "csv", file])
    }
    #expect(result.status == .matched, "\(result.stderr)")
    #expect(result.text == "change,id,status,qty,was\nnew,\(Self.csvRecordCount),open,1,\n")
  }

  /// Two views over one pipe in a views workbook: the pipe is read once, its bytes kept, and
  /// each view's sheet has all of its records.
  @Test func viewsWorkbookWithTwoViewsOverOneNamedPipeHasEveryRecord() throws {
    let bytes = Self.csv(count: 10_000)
    let result = try Self.withNamedPipe(bytes, suffix: ".csv") { path in
      let config = FileManager.default.temporaryDirectory
        .appendingPathComponent("sift-pipe-views-\(UInt32.random(in: 0...UInt32.max)).json").path
      defer { try? FileManager.default.removeItem(atPath: config) }
      let views = """
        {"views": {"open": {"source": "\(path)", "query": "status:open"},
                   "shut": {"source": "\(path)", "query": "status:shut qty:>3"}}}
        """
      try Data(views.utf8).write(to: URL(fileURLWithPath: config))
      return sift(["--config", config, "--views", "-o", "xlsx"])
    }
    #expect(result.status == .matched, "\(result.stderr)")
    // Read each sheet back through sift: 5,000 open records, and the shut ones with qty > 3.
    let shutWithQtyOver3 = (0..<10_000).filter { $0 % 2 == 1 && $0 % 7 > 3 }.count
    let book = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-pipe-views-\(UInt32.random(in: 0...UInt32.max)).xlsx").path
    defer { try? FileManager.default.removeItem(atPath: book) }
    try Data(result.stdout).write(to: URL(fileURLWithPath: book))
    #expect(sift(["", "--sheet", "1", "-c", book]).text == "5000\n")
    #expect(sift(["", "--sheet", "2", "-c", book]).text == "\(shutWithQtyOver3)\n")
  }
}
