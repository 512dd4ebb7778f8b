import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Engines.md, Dialects: `--sql clickhouse` writes empty and missing values empty, as sift
/// does, not as ClickHouse's `\N` for NULL (run in chdb, `pip install chdb`).
@Suite struct ClickHouseOutputTests {
  @Test(
    .enabled(if: EngineExactSumOtherDialectsTests.chdbPresent, "chdb is not installed (pip install chdb)"),
    arguments: [("a,b\n1,\n,2\n", "csv"), ("{\"a\":\"x\"}\n{\"b\":\"y\"}\n", "ndjson")])
  func emptyAndMissingValuesAreWrittenEmpty(text: String, suffix: String) throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-clickhouse-\(UInt32.random(in: 0...UInt32.max)).\(suffix)").path
    try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let statement = sift(["--sql", "clickhouse", "", path])
    try #require(statement.status == .matched, "\(statement.stderr)")
    let engine = try runProcess(
      try #require(EngineExactSumOtherDialectsTests.python3), [EngineExactSumOtherDialectsTests.client],
      input: Array(statement.text.utf8))
    #expect(engine.status == 0, "\(engine.stderr)")
    #expect(!engine.stdout.contains("\\N"), "\(engine.stdout)")
    #expect(EngineExactSumOtherDialectsTests.unquoted(engine.stdout)
      == EngineExactSumOtherDialectsTests.unquoted(sift(["-o", "csv", "", path]).text))
  }
}
