import Foundation
import SiftCore
import Testing

/// The conformance matrix (Docs/EngineMatrix.md, issue 26 item 7): for each dialect, typed test
/// and column type, whether the statement was run and gave sift's own answer (`verified`), was
/// refused with an error (`refused`), or was not run here (`not run`; `differs` or `error` if a
/// run went wrong). `SIFT_WRITE_MATRIX=1` writes the document from what these tests find; the
/// other tests fail when the committed document says otherwise, so it cannot go stale.
@Suite(.serialized) struct EngineMatrixTests {
  static let folder = "Tests/SiftCLITests/Fixtures/matrix"
  static let csv = "\(folder)/typed.csv"
  static let parquet = "\(folder)/typed.parquet"
  static let document = "Docs/EngineMatrix.md"
  static let options = ["--now", "2024-06-12T10:00", "--tz", "UTC"]

  /// A column of `typed.parquet`, its engine type, and values its probes compare with.
  struct Column: Sendable {
    let type: String, name: String, equal: String, greater: String, list: String
  }

  static let columns: [Column] = [
    Column(type: "VARCHAR", name: "s", equal: "banana", greater: "b", list: "apple,fig"),
    Column(type: "BIGINT", name: "i", equal: "10", greater: "5", list: "1,42"),
    Column(type: "DECIMAL", name: "d", equal: "2.25", greater: "2", list: "1.5,10"),
    Column(type: "DOUBLE", name: "f", equal: "3.25", greater: "1", list: "0.5,100"),
    Column(type: "DATE", name: "dt", equal: "2024-02-29", greater: "2024-02-01", list: "2024-01-15,2024-12-01"),
    Column(type: "TIMESTAMP", name: "ts", equal: "2024-02-29", greater: "2024-02-01", list: "2024-01-15,2024-12-01"),
    Column(type: "TIMESTAMPTZ", name: "tz", equal: "2024-02-29", greater: "2024-02-01", list: "2024-01-15,2024-12-01"),
  ]

  /// A typed test, as the query that exercises it on column `c`; `count` for `-c`.
  struct Probe: Sendable {
    let name: String
    var count = false
    let query: @Sendable (Column) -> String
  }

  static let probes: [Probe] = [
    Probe(name: "equality") { "\($0.name):\($0.equal) fields:id" },
    Probe(name: "list") { "\($0.name):\($0.list) fields:id" },
    Probe(name: "contains (glob)") { "\($0.name):*5* fields:id" },
    Probe(name: "regular expression") { "\($0.name):/^1/ fields:id" },
    Probe(name: "comparison") { "\($0.name):>\($0.greater) fields:id" },
    Probe(name: "number range") { "\($0.name):1..50 fields:id" },
    Probe(name: "date range") { "\($0.name):2024-02..2024-06 fields:id" },
    Probe(name: "text range") { "\($0.name):a..c fields:id" },
    Probe(name: "negation") { "-\($0.name):>\($0.greater) fields:id" },
    Probe(name: "empty") { "\($0.name):\"\" fields:id" },
    Probe(name: "present") { "has:\($0.name) fields:id" },
    Probe(name: "sort") { "sort:-\($0.name) fields:id" },
    Probe(name: "group") { "group:\($0.name) fields:id" },
    Probe(name: "count per group", count: true) { "group:\($0.name)" },
    Probe(name: "time bucket") { "group:\($0.name)/month fields:id" },
    Probe(name: "sum") { "sum:\($0.name)" },
    Probe(name: "avg") { "avg:\($0.name)" },
    Probe(name: "min") { "min:\($0.name)" },
    Probe(name: "max") { "max:\($0.name)" },
    Probe(name: "distinct") { "distinct:\($0.name)" },
    Probe(name: "p50") { "p50:\($0.name)" },
  ]

  static let dialects: [SQLDialect] = [.duckdb, .spark, .clickhouse, .postgres, .trino]

  /// What a cell says.
  enum Cell: String, Sendable {
    case verified, refused, notRun = "not run", differs, error
    /// sift's own run rejects the query (`dt:1..50`: a number range on dates).
    case notSift = "n/a"
  }

  /// Whether sift's own run rejects the query on that column as a query error.
  static func siftRejects(_ probe: Probe, _ column: Column) -> Bool {
    sift(["-q", "-o", "csv"] + (probe.count ? ["-c"] : []) + options + ["--", probe.query(column), csv])
      .status == .error
  }

  /// The FILE and options a dialect's statements read: DuckDB the Parquet file (typed columns),
  /// Trino a table with the CSV as its sample, the others the CSV.
  static func source(_ dialect: SQLDialect) -> [String] {
    switch dialect {
    case .duckdb: return [parquet]
    case .trino: return ["--table", "typed", csv]
    case .spark, .clickhouse, .postgres: return [csv]
    }
  }

  /// The statement of a probe, or `nil` where sift refuses it.
  static func statement(_ dialect: SQLDialect, _ probe: Probe, _ column: Column) -> String? {
    var environment = ["LANG": "C.UTF-8", "TZ": "UTC"]
    if let duckdb = SQLDifferentialTests.duckdb { environment["SIFT_DUCKDB"] = duckdb }
    let result = sift(
      ["--sql", dialect.rawValue] + (probe.count ? ["-c"] : []) + options + source(dialect).dropLast()
        + ["--", probe.query(column), source(dialect).last!], environment: environment)
    return result.status == .matched ? result.text : nil
  }

  /// sift's own rows over the CSV, without a header.
  static func ownRows(_ probe: Probe, _ column: Column) -> [[String]] {
    let query = probe.query(column)
    if probe.count {
      return sift(["-c"] + options + ["--", query, csv]).text.split(separator: "\n").map {
        $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      }
    }
    return Array(CSVText.ownRows(sift(["-q", "-o", "csv"] + options + ["--", query, csv]).text).dropFirst())
  }

  /// Every cell of `dialect`: refused, else the engine's rows (`run`, nil where it is not
  /// installed) compared with sift's own.
  static func cells(
    _ dialect: SQLDialect, run: (([String]) throws -> [[[String]]?])?
  ) throws -> [[Cell]] {
    var statements: [String] = []
    var places: [(Int, Int)] = []
    var cells = probes.map { _ in columns.map { _ in Cell.notRun } }
    for (p, probe) in probes.enumerated() {
      for (c, column) in columns.enumerated() {
        if siftRejects(probe, column) {
          cells[p][c] = .notSift
          continue
        }
        guard let text = statement(dialect, probe, column) else {
          cells[p][c] = .refused
          continue
        }
        statements.append(text)
        places.append((p, c))
      }
    }
    guard let run else { return cells }
    let results = try run(statements)
    for ((p, c), rows) in zip(places, results) {
      guard let rows else {
        cells[p][c] = .error
        continue
      }
      cells[p][c] = rows == ownRows(probes[p], columns[c]) ? .verified : .differs
    }
    return cells
  }

  // MARK: Engines

  static func runDuckDB(_ statements: [String]) throws -> [[[String]]?] {
    let duckdb = try #require(SQLDifferentialTests.duckdb)
    return try statements.map { statement in
      let run = try runProcess(duckdb, ["-csv", "-nullvalue", "", "-c", statement])
      return run.status == 0 ? Array(CSVText.rows(run.stdout).dropFirst()) : nil
    }
  }

  static func runClickHouse(_ statements: [String]) throws -> [[[String]]?] {
    let python3 = try #require(EngineExactSumOtherDialectsTests.python3)
    let input = statements.map { $0 + "-- sift-probe-end\n" }.joined()
    let run = try runProcess(
      python3, ["Tests/SiftCLITests/Clients/chdb-batch-client.py"], input: Array(input.utf8))
    return results(run.stdout, count: statements.count) {
      CSVText.rows($0).map { $0.map { $0 == "\\N" ? "" : $0 } }
    }
  }

  /// All statements in one `spark-sql` run, each result ended by a marker row.
  static func runSpark(_ statements: [String]) throws -> [[[String]]?] {
    let sparkSQL = try #require(EngineExactSumOtherDialectsTests.sparkSQL)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-matrix-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("probes.sql").path
    try statements.map { $0 + "SELECT 'sift-probe-end';\n" }.joined().write(toFile: script, atomically: true, encoding: .utf8)
    let run = try runProcess(sparkSQL, [
      "-S", "--conf", "spark.sql.ansi.enabled=false", "--conf", "spark.sql.catalogImplementation=in-memory",
      "--conf", "spark.sql.warehouse.dir=\(folder.path)/warehouse", "-f", script,
    ])
    return results(run.stdout, count: statements.count) { text in
      text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
        $0.split(separator: "\t", omittingEmptySubsequences: false).map { $0 == "NULL" ? "" : String($0) }
      }
    }
  }

  /// A batch client's output cut at its markers; a probe without its marker is an error.
  static func results(_ output: String, count: Int, rows: (String) -> [[String]]) -> [[[String]]?] {
    var out: [[[String]]?] = []
    var current = ""
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "sift-probe-end" {
        out.append(rows(current))
        current = ""
      } else if line.hasPrefix("sift-probe-error") {
        out.append(nil)
        current = ""
      } else {
        current += line + "\n"
      }
    }
    return (out + Array(repeating: nil, count: max(0, count - out.count))).prefix(count).map { $0 }
  }

  // MARK: The document

  /// The document's table of one dialect.
  static func table(_ dialect: SQLDialect, _ cells: [[Cell]]) -> String {
    var lines = ["## \(dialect.rawValue)", "",
      "| test | " + columns.map(\.type).joined(separator: " | ") + " |",
      "| --- |" + String(repeating: " --- |", count: columns.count)]
    for (p, probe) in probes.enumerated() {
      lines.append("| \(probe.name) | " + cells[p].map(\.rawValue).joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static let header = """
    # The engine conformance matrix

    Written by `EngineMatrixTests` (`SIFT_WRITE_MATRIX=1 swift test --filter EngineMatrixTests`),
    never by hand; the same tests fail when this page says otherwise. For each dialect of `--sql`
    (Docs/Engines.md), each typed test (the query in `EngineMatrixTests.probes`, over one column)
    and each column type of `Tests/SiftCLITests/Fixtures/matrix/typed.parquet`:

    - `verified`: the statement ran in the engine and gave sift's own rows over the same values
      as CSV (`typed.csv`), in the same order;
    - `refused`: `--sql` stops with an error naming what it cannot write (exit 2);
    - `not run`: the statement is written, but no engine of that dialect ran here;
    - `n/a`: sift's own run rejects the query as a query error (`dt:1..50`, a number range on a
      date field; `sum:s` of a text field), so there is nothing to write;
    - `differs`, `error`: the engine's rows are not sift's, or the engine failed. DuckDB writes a
      `TIMESTAMPTZ` value as `2024-01-15 08:30:00+00` where sift's CSV (and the CSV it reads)
      has `+00:00`: the same instants, other text, in group values, `min:` and `max:`.

    DuckDB reads the Parquet file, each column in its own type (Docs/Engines.md, Typed columns).
    Spark, ClickHouse and Postgres read the CSV, every column as text: for them a column type
    says what its values are, which sift's text grammar reads. Trino reads a table, with the CSV
    as its sample. Spark ran through `spark-sql` (pyspark 4), ClickHouse in chDB; Postgres and
    Trino were not run.


    """

  static func text(_ tables: [SQLDialect: [[Cell]]]) -> String {
    header + dialects.map { table($0, tables[$0]!) }.joined(separator: "\n")
  }

  /// The committed cells of `dialect`, read back from the document.
  static func committed(_ dialect: SQLDialect) throws -> [[String]] {
    let text = try String(contentsOfFile: document, encoding: .utf8)
    let section = try #require(text.components(separatedBy: "## \(dialect.rawValue)\n").dropFirst().first)
    return section.split(separator: "\n")
      .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| test") && !$0.hasPrefix("| ---") }
      .prefix(probes.count).map {
        $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      }
  }

  static func expectCommitted(_ dialect: SQLDialect, _ cells: [[Cell]]) throws {
    let written = try committed(dialect)
    #expect(written.map { $0.first ?? "" } == probes.map(\.name), "\(dialect): the probes changed")
    #expect(written.map { Array($0.dropFirst()) } == cells.map { $0.map(\.rawValue) },
      "\(dialect): Docs/EngineMatrix.md is stale; SIFT_WRITE_MATRIX=1 writes it again")
  }

  static let writing = ProcessInfo.processInfo.environment["SIFT_WRITE_MATRIX"] == "1"
  static let chdbPresent = EngineExactSumOtherDialectsTests.chdbPresent
  static let sparkPresent = EngineExactSumOtherDialectsTests.sparkSQL != nil

  // MARK: Tests

  /// Without any engine: the dialects not run here say `refused` exactly where `--sql` refuses,
  /// `not run` elsewhere.
  @Test(.enabled(if: !writing, "SIFT_WRITE_MATRIX=1 writes the document instead"),
    arguments: [SQLDialect.postgres, .trino])
  func unrunDialectsAreCurrent(dialect: SQLDialect) throws {
    try Self.expectCommitted(dialect, try Self.cells(dialect, run: nil))
  }

  /// For a dialect that was run, the refusals and statements are still where the page says
  /// (its `verified` cells need the engine: the tests below).
  @Test(.enabled(if: !writing, "SIFT_WRITE_MATRIX=1 writes the document instead"),
    arguments: [SQLDialect.spark, .clickhouse])
  func refusalsAreCurrent(dialect: SQLDialect) throws {
    let now = try Self.cells(dialect, run: nil)
    let written = try Self.committed(dialect).map { Array($0.dropFirst()) }
    #expect(written.map { $0.map { $0 == Cell.refused.rawValue } } == now.map { $0.map { $0 == .refused } })
  }

  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil && !writing, "duckdb is not installed"))
  func duckDBIsCurrent() throws {
    try Self.expectCommitted(.duckdb, try Self.cells(.duckdb, run: { try Self.runDuckDB($0) }))
  }

  @Test(.enabled(if: chdbPresent && !writing, "chdb is not installed (pip install chdb)"))
  func clickHouseIsCurrent() throws {
    try Self.expectCommitted(.clickhouse, try Self.cells(.clickhouse, run: { try Self.runClickHouse($0) }))
  }

  /// One `spark-sql` run for every probe (a few minutes).
  @Test(.enabled(if: sparkPresent && !writing, "spark-sql is not installed (pip install pyspark)"))
  func sparkIsCurrent() throws {
    try Self.expectCommitted(.spark, try Self.cells(.spark, run: { try Self.runSpark($0) }))
  }

  /// `SIFT_WRITE_MATRIX=1`: runs every engine installed here and writes the document.
  @Test(.enabled(if: writing, "set SIFT_WRITE_MATRIX=1 to write Docs/EngineMatrix.md"))
  func writeTheMatrix() throws {
    var tables: [SQLDialect: [[Cell]]] = [:]
    for dialect in Self.dialects {
      var run: (([String]) throws -> [[[String]]?])? = nil
      switch dialect {
      case .duckdb: if SQLDifferentialTests.duckdb != nil { run = { try Self.runDuckDB($0) } }
      case .clickhouse: if Self.chdbPresent { run = { try Self.runClickHouse($0) } }
      case .spark: if Self.sparkPresent { run = { try Self.runSpark($0) } }
      case .postgres, .trino: break
      }
      tables[dialect] = try Self.cells(dialect, run: run)
    }
    try Self.text(tables).write(toFile: Self.document, atomically: true, encoding: .utf8)
  }
}
