import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Issue 26 (Docs/Engines.md, Typed columns): the differential queries over a Parquet file whose
/// columns have engine types (`BIGINT`, `DOUBLE` with `nan` and infinities, `DECIMAL(12,2)`,
/// `DATE`, `TIMESTAMP`, `BOOLEAN`, `VARCHAR`), through `--sql duckdb` in a real DuckDB, give the
/// same records in the same order as sift's own run over the same data as CSV (DuckDB's own
/// export of the file, so that each value is the text the engine writes). Without `duckdb` the
/// suite is skipped, and says so.
@Suite struct SQLTypedDifferentialTests {
  static let duckdb = SQLDifferentialTests.duckdb

  /// The folder with `typed.parquet` and `typed.csv`, made again by each run, in the build
  /// folder (relative paths, as the statements write them).
  static let folder: String? = {
    guard let duckdb else { return nil }
    let folder = ".build/sql-typed-differential"
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // The sample's GRN records, typed, and records that hold what only typed columns hold: a
    // double's `nan` and infinities, NULLs in every column, a negative decimal, and doubles
    // that an exact sum cannot take as millionths (seven decimals, beyond 4 × 10^9).
    let typed = """
      SELECT grn_no, date, status, customer, warehouse, sku, item, TRY_CAST(qty AS BIGINT) AS qty,
        TRY_CAST(unit_price AS DOUBLE) AS unit_price,
        TRY_CAST(replace(amount, ',', '') AS DECIMAL(12,2)) AS amount, empty_stock, updated
      FROM read_csv('\(SQLDifferentialTests.grn)')
      UNION ALL SELECT * FROM (VALUES
        ('GRN-X1', DATE '2024-06-01', 'received', 'Acme', 'WH-01', 'SKU-1', 'Bolt', 150, 'nan'::DOUBLE, -12.50, true,
          TIMESTAMP '2024-06-01 10:00:00'),
        ('GRN-X2', NULL, 'received', NULL, 'WH-02', NULL, NULL, NULL, 'inf'::DOUBLE, NULL, NULL, NULL),
        ('GRN-X3', DATE '2024-06-03', 'pending', 'Acme', 'WH-01', 'SKU-2', 'Nut', 450, '-inf'::DOUBLE, 0.05, false,
          TIMESTAMP '2024-06-03 23:59:59.5'),
        ('GRN-X4', DATE '2024-06-04', 'pending', 'Acme', 'WH-01', 'SKU-2', 'Nut', 1, 0.1234567, 1.00, false,
          TIMESTAMP '2024-06-04 00:00:00'),
        ('GRN-X5', DATE '2024-06-05', 'received', 'Acme', 'WH-01', 'SKU-2', 'Nut', 2, 12345678901.25, 2.00, false,
          TIMESTAMP '2024-06-05 00:00:00'))
      """
    let script = "COPY (\(typed)) TO '\(folder)/typed.parquet' (FORMAT parquet);"
      + " COPY (SELECT * FROM '\(folder)/typed.parquet') TO '\(folder)/typed.csv' (FORMAT csv, HEADER);"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: duckdb)
    process.arguments = ["-c", script]
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? folder : nil
  }()

  /// The queries of the differential suite that name the GRN fields, and more on the typed ones.
  static let recordQueries: [String] = SQLDifferentialTests.recordQueries.filter {
    $0.1 == SQLDifferentialTests.grn
  }.map(\.0) + [
    "qty:100..500", "qty:>100", "qty:<=0", "qty:150", "qty:-3..10", "unit_price:>3", "unit_price:<1",
    "unit_price:0.03", "unit_price:*..0.5", "-unit_price:>3", "amount:>100", "amount:-12.5",
    "amount:0.05..1", "NOT amount:>100", "date:2024-05", "date:2024-06-01..2024-06-03",
    "-date:2024", "updated:>2024-06-01T10:00", "updated:2024-06-03", "has:unit_price",
    "unit_price:\"\"", "sort:-unit_price", "sort:unit_price", "sort:-amount limit:100",
    "sort:amount,-date", "group:unit_price limit:20", "empty_stock:yes", "qty:n/a",
  ]

  static let countQueries: [String] = SQLDifferentialTests.countQueries.filter { $0.1 == SQLDifferentialTests.grn }
    .map(\.0) + ["group:unit_price", "qty:>100 group:empty_stock"]

  static let summaryQueries: [String] = SQLDifferentialTests.summaryQueries.filter { $0.1 == SQLDifferentialTests.grn }
    .map(\.0) + [
      "group:customer sum:amount avg:amount", "sum:qty avg:qty", "group:status sum:unit_price avg:unit_price",
      "group:warehouse min:unit_price max:unit_price p50:unit_price", "min:amount max:amount p90:amount",
      "group:empty_stock min:updated max:date",
    ]

  static let enabled = duckdb != nil

  /// DuckDB's answers to the queries above, all from one `duckdb` client.
  static let recordAnswers = answers(recordQueries)
  static let countAnswers = answers(countQueries, count: true)
  static let summaryAnswers = answers(summaryQueries)

  @Test(.enabled(if: enabled, "duckdb is not installed"), arguments: recordQueries)
  func sameRecordsInTheSameOrder(query: String) throws {
    try Self.compare(query, try Self.answer(query, in: Self.recordQueries, Self.recordAnswers))
  }

  @Test(.enabled(if: enabled, "duckdb is not installed"), arguments: countQueries)
  func sameCounts(query: String) throws {
    let folder = try #require(Self.folder)
    let own = sift(["-c"] + SQLDifferentialTests.now + ["--", query, "\(folder)/typed.csv"])
    let answer = try Self.answer(query, in: Self.countQueries, Self.countAnswers)
    let engine = CSVText.rows(answer.csv()).dropFirst()
    let expected = own.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    #expect(Array(engine) == expected, "\(query)")
  }

  @Test(.enabled(if: enabled, "duckdb is not installed"), arguments: summaryQueries)
  func sameSummaries(query: String) throws {
    try Self.compare(query, try Self.answer(query, in: Self.summaryQueries, Self.summaryAnswers))
  }

  /// The statement reads the typed columns as they are: a plain comparison the engine pushes
  /// into its scan, no number or date pattern, and no input order for a count or a summary.
  @Test(.enabled(if: enabled, "duckdb is not installed"))
  func typedTermsArePlainComparisons() throws {
    let folder = try #require(Self.folder)
    let filter = Self.statement("qty:100..500 date:2024-05 unit_price:>3", folder)
    #expect(filter.contains("\"qty\" BETWEEN 100 AND 500"), "\(filter)")
    #expect(filter.contains("\"date\" >= DATE '2024-05-01' AND \"date\" < DATE '2024-06-01'"), "\(filter)")
    #expect(filter.contains("isfinite(\"unit_price\")"), "\(filter)")
    #expect(!filter.contains("regexp"), "\(filter)")
    for query in ["group:customer sum:amount", "qty:>100 group:status"] {
      let text = Self.statement(query, folder, count: query.contains("qty"))
      #expect(!text.contains("sift_row") && !text.contains("OVER ()"), "\(text)")
    }
  }

  /// A `TIMESTAMP WITH TIME ZONE` column is compared as instants: `ts:2024-06` under
  /// `--tz Europe/Paris` is June in Paris, whatever the engine's own zone.
  @Test(.enabled(if: enabled, "duckdb is not installed"))
  func instantsAreComparedInTheZoneOfTz() throws {
    let folder = try #require(Self.folder)
    let instants = "\(folder)/instants.parquet"
    try Self.duckdbRun("SET TimeZone = 'UTC'; COPY (SELECT * FROM (VALUES (1, TIMESTAMPTZ "
      + "'2024-05-31 21:30:00+00'), (2, TIMESTAMPTZ '2024-05-31 22:30:00+00'), (3, TIMESTAMPTZ "
      + "'2024-06-30 22:30:00+00')) t(id, ts)) TO '\(instants)' (FORMAT parquet)")
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": Self.duckdb!]
    for (zone, ids) in [("Europe/Paris", ["2"]), ("UTC", ["3"]), ("America/New_York", ["3"])] {
      let result = sift(
        ["--engine", "duckdb", "--tz", zone, "-q", "-o", "csv", "--", "ts:2024-06", instants],
        environment: environment)
      let rows = CSVText.rows(result.text).dropFirst().map { $0[0] }
      #expect(rows == ids, "\(zone): \(result.text) \(result.stderr)")
    }
  }

  /// A column whose name holds ` FROM ` is read whole: the `source` stage is written from the
  /// select list and the reader as parts, not taken apart from a relation's text (which split
  /// `"a FROM b"` and made the statement fail).
  @Test(.enabled(if: enabled, "duckdb is not installed"))
  func aColumnNamedLikeAClauseIsReadWhole() throws {
    let folder = try #require(Self.folder)
    let file = "\(folder)/clause-names.parquet"
    try Self.duckdbRun("COPY (SELECT * FROM (VALUES (1, 'x'), (2, 'y'), (3, 'x')) "
      + "t(\"a FROM b\", name)) TO '\(file)' (FORMAT parquet)")
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": Self.duckdb!]
    let result = sift(["--engine", "duckdb", "-q", "-o", "csv", "--", "name:x", file], environment: environment)
    #expect(CSVText.rows(result.text) == [["a FROM b", "name"], ["1", "x"], ["3", "x"]], "\(result.stderr)")
  }

  /// Runs `script` in the DuckDB client (writing a Parquet file for a test).
  static func duckdbRun(_ script: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(duckdb))
    process.arguments = ["-c", script]
    try process.run()
    process.waitUntilExit()
  }

  /// sift's own run over the CSV export against the statement over the Parquet file.
  static func compare(_ query: String, _ answer: SQLDifferentialTests.EngineAnswer) throws {
    let folder = try #require(folder)
    let own = sift(["-q", "-o", "csv"] + SQLDifferentialTests.now + ["--", query, "\(folder)/typed.csv"])
    #expect(CSVText.rows(answer.csv()) == CSVText.ownRows(own.text), "\(query)")
  }

  static func statement(_ query: String, _ folder: String, count: Bool = false) -> String {
    let result = statementRun(query, folder, count: count)
    #expect(result.status == .matched, "\(query): \(result.stderr)")
    return result.text
  }

  static func statementRun(_ query: String, _ folder: String, count: Bool = false) -> SiftResult {
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": duckdb ?? ""]
    return sift(
      ["--sql", "duckdb"] + (count ? ["-c"] : []) + SQLDifferentialTests.now
        + ["--", query, "\(folder)/typed.parquet"], environment: environment)
  }

  /// The answer to `query`, one of `queries`.
  static func answer(
    _ query: String, in queries: [String], _ answers: [SQLDifferentialTests.EngineAnswer]
  ) throws -> SQLDifferentialTests.EngineAnswer {
    answers[try #require(queries.firstIndex(of: query))]
  }

  /// The statements over the Parquet file, all run by one `duckdb` client; without the file,
  /// an answer saying so.
  static func answers(_ queries: [String], count: Bool = false) -> [SQLDifferentialTests.EngineAnswer] {
    guard let folder else {
      return queries.map { .init(query: $0, answer: .failed("the typed files were not made")) }
    }
    return SQLDifferentialTests.answers(queries.map { ($0, statementRun($0, folder, count: count)) })
  }
}
