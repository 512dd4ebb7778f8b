import Foundation
import Testing

/// Docs/Formats.md, Encodings and TSV: what sift decides about a file, seen from the command line.
@Suite struct EncodingAndQuotingTests {
  static let fixtures = "Tests/SiftCLITests/Fixtures/"

  /// Issue 27 item 8: a CSV whose header starts with FE FF after blank lines is not UTF-16, and
  /// sift's CSV output of it (which no longer has the blank lines) reads back as the same bytes.
  @Test func ownOutputStartingWithFEFFReadsBackTheSame() throws {
    let first = sift(["--encoding", "utf-8", "-q", "-o", "csv", "", Self.fixtures + "blank-lines-then-fe-ff.csv"])
    #expect(first.status == .matched)
    #expect(first.stdout.starts(with: [UInt8(ascii: "\""), 0xFE, 0xFF, UInt8(ascii: "\"")]))
    let second = sift(["--encoding", "utf-8", "-q", "-o", "csv", "-f", "csv", ""], stdin: first.stdout)
    #expect(second.status == .matched)
    #expect(second.stdout == first.stdout)
  }

  /// The same records from a windows-1252 file, sniffed, as from its UTF-8 transcoding made by
  /// Python's codec (an independent decoder).
  @Test(.enabled(if: Self.python3 != nil, "python3 is not installed"))
  func windows1252MatchesPythonsDecoding() throws {
    let path = Self.fixtures + "kunden-cp1252.csv"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.python3 ?? "")
    process.arguments = ["-c", "import sys; sys.stdout.buffer.write(open(sys.argv[1],'rb').read().decode('cp1252').encode())", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let utf8 = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let sniffed = sift(["-q", "-o", "csv", "", path])
    let given = sift(["-q", "-o", "csv", "-f", "csv", ""], stdin: Array(utf8))
    #expect(sniffed.status == .matched)
    #expect(sniffed.stdout == given.stdout)
    #expect(sniffed.text.contains("„Bäckerei“ – Süd;Zürich;80,00 €"))
  }

  /// Differential: DuckDB reading Excel's quoted TSV (as CSV with a tab) finds what sift finds.
  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: ["", "Notiz:*14*", "Notiz:*dringend*", "Kunde:m*"])
  func quotedTSVThroughDuckDBMatchesSift(query: String) {
    let environment = ["LANG": "C.UTF-8", "SIFT_DUCKDB": SQLDifferentialTests.duckdb ?? ""]
    let file = Self.fixtures + "excel-text-ascii.tsv"
    let own = sift(["-q", "-o", "ndjson", "--", query, file], environment: environment)
    let engine = sift(["--engine", "duckdb", "-q", "-o", "ndjson", "--", query, file], environment: environment)
    #expect(own.status == engine.status)
    #expect(own.text == engine.text)
    #expect(!own.text.isEmpty)
  }

  static let python3: String? = {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let path = "\(folder)/python3"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }()
}
