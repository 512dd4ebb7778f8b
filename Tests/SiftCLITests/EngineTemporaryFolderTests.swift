import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Engines.md, Engines: `--engine duckdb` writes its results in a folder of its own under
/// `$TMPDIR`, whatever that path holds (a line break too, on a line of the client's script),
/// and leaves nothing there after the run.
@Suite struct EngineTemporaryFolderTests {
  /// A fresh `$TMPDIR` named `name`, removed after `body`.
  static func withTemporaryFolder<R>(named name: String, _ body: (String) throws -> R) throws -> R {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(name)-\(UInt32.random(in: 0...UInt32.max))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try body(folder)
  }

  @Test(
    .enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: ["sift tmp", "sift \"quoted\" 'tmp'", "sift back\\slash", "sift line\nbreak"])
  func aTemporaryFolderWithSpacesAndQuotesWorksAndIsLeftEmpty(name: String) throws {
    try Self.withTemporaryFolder(named: name) { tmp in
      let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": SQLDifferentialTests.duckdb!, "TMPDIR": tmp]
      let query = "group:status sum:amount sort:-amount_sum"
      let engine = sift(["--engine", "duckdb", "-o", "csv", query, "SampleData/grn.csv"], environment: environment)
      let own = sift(["-o", "csv", query, "SampleData/grn.csv"])
      #expect(engine.status == .matched, "\(engine.stderr)")
      #expect(engine.text == own.text)
      let left = try FileManager.default.contentsOfDirectory(atPath: tmp)
      #expect(left == [])
    }
  }

  /// A failing statement leaves nothing behind either.
  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"))
  func aFailedRunLeavesTheTemporaryFolderEmpty() throws {
    try Self.withTemporaryFolder(named: "sift-failed") { tmp in
      let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": SQLDifferentialTests.duckdb!, "TMPDIR": tmp]
      let engine = sift(["--engine", "duckdb", "--table", "no_such_table", "qty:>1", "SampleData/grn.csv"], environment: environment)
      #expect(engine.status == .error)
      let left = try FileManager.default.contentsOfDirectory(atPath: tmp)
      #expect(left == [])
    }
  }
}
