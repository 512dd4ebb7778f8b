import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Engines.md, Engines: `--engine duckdb` starts DuckDB's client once per run, its
/// `DESCRIBE` of a Parquet file or a table and the statement written from it sent to the same
/// client; a client that is missing, fails after the `DESCRIBE` or is killed is a clear error,
/// exit 2, with nothing left in `$TMPDIR`.
@Suite struct DuckDBSessionTests {
  static let duckdb = SQLDifferentialTests.duckdb

  /// Calls `body` with the path of a Parquet file DuckDB makes from `select`, removed after.
  static func withParquet<R>(_ select: String, _ body: (String) throws -> R) throws -> R {
    try EngineTemporaryFolderTests.withTemporaryFolder(named: "sift-session-parquet") { folder in
      let path = folder + "/data.parquet"
      let made = try runProcess(duckdb!, ["-c", "COPY (\(select)) TO '\(path)' (FORMAT parquet)"])
      #expect(made.status == 0, "\(made.stderr)")
      return try body(path)
    }
  }

  /// `arguments` run with `--engine duckdb` through the client wrapper `client`, `$TMPDIR` a
  /// fresh folder that must be empty after the run.
  static func onEngine(_ arguments: [String], client: String) throws -> SiftResult {
    try EngineTemporaryFolderTests.withTemporaryFolder(named: "sift-session-tmp") { tmp in
      let result = sift(["--engine", "duckdb"] + arguments, environment: [
        "LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": client, "TMPDIR": tmp,
      ])
      let left = try FileManager.default.contentsOfDirectory(atPath: tmp)
      #expect(left == [], "left in $TMPDIR: \(left)")
      return result
    }
  }

  /// SampleData's GRN file as Parquet gives sift's own answers on the CSV, from one start of
  /// the client: the `DESCRIBE`, the sample and the statement share it (the boolean and the
  /// timestamp left out: on Parquet they are the engine's text, Engines).
  @Test(
    .enabled(if: duckdb != nil, "duckdb is not installed"),
    arguments: [
      "group:customer sum:amount", "status:received qty:>400 sort:-date fields:-empty_stock,-updated",
      "qty:>100 fields:-empty_stock,-updated",
    ])
  func aParquetRunStartsTheClientOnce(query: String) throws {
    try Self.withParquet("FROM read_csv('\(SQLDifferentialTests.grn)')") { parquet in
      try ViewsOnEngineTests.withViews("{}", program: Self.duckdb!) { _, client, log in
        let engine = try Self.onEngine(["-o", "csv", "--now", "2024-06-12", query, parquet], client: client)
        let own = sift(["-o", "csv", "--now", "2024-06-12", query, SQLDifferentialTests.grn])
        #expect(engine.status == own.status, "\(engine.stderr)")
        #expect(engine.text == own.text)
        #expect(ViewsOnEngineTests.runs(log) == 1)
      }
    }
  }

  /// A statement that fails after the `DESCRIBE` (an exact sum DuckDB cannot hold, on a text
  /// column of a Parquet file) is DuckDB's message, exit 2, in that one client.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func aStatementThatFailsAfterTheDescribeIsTheEnginesError() throws {
    try Self.withParquet("SELECT * FROM (VALUES ('1'), ('1.5e-38')) AS t(v)") { parquet in
      try ViewsOnEngineTests.withViews("{}", program: Self.duckdb!) { _, client, log in
        let engine = try Self.onEngine(["sum:v", parquet], client: client)
        #expect(engine.status == .error)
        #expect(engine.stderr.hasPrefix("sift: duckdb failed (exit 1): "), "\(engine.stderr)")
        #expect(engine.stderr.contains("cannot sum 1.5e-38 exactly"), "\(engine.stderr)")
        #expect(engine.stderr.hasSuffix("\nsift --sql duckdb shows the statement\n"), "\(engine.stderr)")
        #expect(engine.text.isEmpty)
        #expect(ViewsOnEngineTests.runs(log) == 1)
      }
    }
  }

  /// A client killed after it answered the `DESCRIBE` (a wrapper that gives its first batch to
  /// DuckDB, then kills itself) is an error saying so, exit 2, and sift does not wait forever.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func aClientKilledMidwayIsAnError() throws {
    let script = """
      batch=$(mktemp)
      while IFS= read -r line; do
        printf '%s\\n' "$line" >> "$batch"
        case "$line" in .print*) '\(Self.duckdb!)' "$@" < "$batch"; rm -f "$batch"; kill -9 $$;; esac
      done
      """
    try Self.withParquet("FROM read_csv('\(SQLDifferentialTests.grn)')") { parquet in
      try ViewsOnEngineTests.withViews("{}", program: "", script: script) { _, client, log in
        let engine = try Self.onEngine(["group:customer sum:amount", parquet], client: client)
        #expect(engine.status == .error)
        #expect(engine.stderr == """
          sift: duckdb failed (exit 137): the client was killed by signal 9
          sift --sql duckdb shows the statement

          """)
        #expect(engine.text.isEmpty)
        #expect(ViewsOnEngineTests.runs(log) == 1)
      }
    }
  }

  /// A client that ends before the end line without an error (here at once, on a CSV file)
  /// is an error too, never an empty answer.
  @Test func aClientThatEndsEarlyIsAnError() throws {
    try ViewsOnEngineTests.withViews("{}", program: "", script: "exit 0") { _, client, _ in
      let engine = try Self.onEngine(["qty:>1", SQLDifferentialTests.grn], client: client)
      #expect(engine.status == .error)
      #expect(engine.stderr == """
        sift: duckdb failed (exit 0): the client ended before its last statement
        sift --sql duckdb shows the statement

        """)
    }
  }

  /// A missing client is the same error as ever, on a Parquet file too (where the `DESCRIBE`
  /// is the first thing sent).
  @Test func aMissingClientIsAnError() throws {
    let engine = try Self.onEngine(["qty:>1", "/nonexistent/data.parquet"], client: "/nonexistent/duckdb")
    #expect(engine.status == .error)
    #expect(engine.stderr == """
      sift: cannot run the engine '/nonexistent/duckdb': No such file or directory
      install DuckDB (https://duckdb.org) or set SIFT_DUCKDB to its client

      """)
  }

  /// A client that prints far more than a socket holds while sift still writes a long batch
  /// answers without either side waiting on the other, and the next batch goes to the same
  /// client (it still holds the table the first made).
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func largeAnswersAndLargeBatchesDoNotWaitOnEachOther() throws {
    let session = DuckDBSession(program: Self.duckdb!, environment: [:])
    defer { session.close() }
    let padding = String(repeating: "-- padding to fill the socket\n", count: 40_000)
    let said = try #require(session.send(
      "CREATE TABLE t AS SELECT range AS n FROM range(300000);\nSELECT n FROM t;\n" + padding,
      database: nil).finished)
    // The header and 300,000 rows, nothing else (the end line left out).
    let lines = said.split(separator: "\n")
    #expect(lines.count == 300_001)
    #expect(lines.last == "299999")
    let count = try #require(session.send("SELECT count(*) AS c FROM t;\n", database: nil).finished)
    #expect(count == "c\n300000\n")
  }

  /// A failing statement ends the client (`-bail`) with its message; the next batch starts a
  /// new client.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func aFailingStatementEndsTheClientAndTheNextBatchStartsAnother() throws {
    let session = DuckDBSession(program: Self.duckdb!, environment: [:])
    defer { session.close() }
    let failed = try #require(
      session.send("SELECT * FROM no_such_table\n;\nSELECT 1;\n", database: nil).ended)
    #expect(failed.status == 1)
    #expect(failed.said.hasPrefix("Catalog Error: Table with name no_such_table does not exist!"), "\(failed.said)")
    let again = try #require(session.send("SELECT 2 AS x;\n", database: nil).finished)
    #expect(again == "x\n2\n")
  }

  /// A last batch whose statement leaves a quote open (it would take the end line in) ends the
  /// client with DuckDB's error instead of waiting for more input: the input is closed once
  /// written.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func aLastBatchLeftOpenEndsWithTheEnginesError() throws {
    let session = DuckDBSession(program: Self.duckdb!, environment: [:])
    defer { session.close() }
    let failed = try #require(session.send("SELECT 'open\n;\n", database: nil, last: true).ended)
    #expect(failed.status == 1)
    #expect(failed.said.hasPrefix("Parser Error: unterminated quoted string"), "\(failed.said)")
  }
}

extension DuckDBSession.Answer {
  /// What the client printed, where every statement ran.
  var finished: String? {
    guard case .finished(let said) = self else { return nil }
    return said
  }

  /// The exit status and messages, where the client ended before the end line.
  var ended: (status: Int32, said: String)? {
    guard case .ended(let status, let said) = self else { return nil }
    return (status, said)
  }
}
