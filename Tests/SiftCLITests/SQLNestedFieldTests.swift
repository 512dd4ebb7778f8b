import Foundation
import Testing

/// Nested JSON fields (`medals.gold`) in SQL (Docs/Engines.md, Nested fields): through
/// `--sql duckdb` in a real DuckDB, over the same records as NDJSON and as a JSON array, every
/// query gives sift's own records, counts and summaries; filters, sort, groups and aggregates on
/// nested fields, a missing key, an empty object, a string that holds JSON text, and a top-level
/// key with a dot in its name. Spark is checked through `--engine spark` where `spark-sql` is
/// installed.
@Suite struct SQLNestedFieldTests {
  static let files = [
    "Tests/SiftCLITests/Fixtures/medals.ndjson", "Tests/SiftCLITests/Fixtures/medals.json",
  ]

  static let queries = [
    "medals.gold:>3", "medals.gold:16", "medals.gold:2..12", "medals.gold:<=2.5",
    "medals.silver:7", "medals.bronze:n/a", "team.lead:ingrid", "team.lead:*a*",
    "team.lead:/^[a-j]/", "team.since:2018", "team.since:>2020", "team.since:2022-01..2025-12",
    "has:medals.silver", "medals.silver:\"\"", "-has:medals.gold", "-medals.gold:>3",
    "\"x.y\":\"dot one\"", "x.y:dot*", "sort:medals.gold", "sort:-medals.bronze,country",
    "sort:team.since,-medals.silver", "sort:team.lead", "group:team.since",
    "group:medals.silver sort:country", "group:team.since/year sort:-medals.gold",
    "medals.gold:>0 fields:country,medals.gold,team.lead sort:-medals.gold",
    "group:team.since limit:1/group",
    "group:team.since sum:medals.gold avg:medals.silver min:medals.bronze max:team.lead",
    "sum:medals.gold,medals.silver p50:medals.bronze distinct:team.since",
    "group:x.y min:team.since max:team.since",
    // A key the object lacks is missing, as a top-level field is: empty for `field:""`.
    "medals.gold:\"\"", "team.since:\"\"", "-medals.silver:\"\"", "-has:team.since",
  ]

  static let countQueries = [
    "medals.gold:>3", "group:team.since", "group:medals.silver,x.y", "medals.silver:\"\"",
  ]

  @Test(
    .enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: files, queries)
  func duckDBGivesSiftsAnswer(file: String, query: String) throws {
    let own = sift(["-q", "-o", "csv"] + SQLDifferentialTests.now + ["--", query, file])
    #expect(own.status == .matched || own.status == .noMatch, "\(query): \(own.stderr)")
    let engine = SQLDifferentialTests.throughDuckDB(query, file)
    #expect(CSVText.rows(engine) == CSVText.ownRows(own.text), "\(query)")
  }

  @Test(
    .enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: files, countQueries)
  func duckDBCountsAsSiftDoes(file: String, query: String) throws {
    let own = sift(["-c"] + SQLDifferentialTests.now + ["--", query, file])
    let engine = CSVText.rows(SQLDifferentialTests.throughDuckDB(query, file, count: true))
    let expected = own.text.split(separator: "\n").map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(Array(engine.dropFirst()) == expected, "\(query)")
  }

  /// `--engine duckdb` writes what sift's own run writes, bar included.
  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"))
  func duckDBEngineWritesAsSiftDoes() throws {
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": SQLDifferentialTests.duckdb!]
    let query = "medals.gold:>1 group:team.since sort:-medals.gold"
    for format in ["csv", "table"] {
      let own = sift(["-o", format, query, Self.files[0]], environment: environment)
      let engine = sift(["--engine", "duckdb", "-o", format, query, Self.files[0]], environment: environment)
      #expect(engine.text == own.text && engine.stderr == own.stderr, "-o \(format): \(engine.stderr)")
    }
  }

  /// A path through a JSON array: sift tests every element, the SQL reads one value, so the
  /// statement stops with an error naming the field instead of answering otherwise.
  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"))
  func arrayOnThePathStopsTheStatement() throws {
    let statement = sift(["--sql", "duckdb", "events.medal:silver", "Tests/SiftCLITests/Fixtures/medal-events.ndjson"])
    try #require(statement.status == .matched, "\(statement.stderr)")
    let process = try runProcess(SQLDifferentialTests.duckdb!, ["-csv", "-c", statement.text])
    #expect(process.status != 0)
    #expect((process.stdout + process.stderr).contains("sift: events.medal meets a JSON array on its path"))
  }

  /// One Spark run (about a minute): a filter, a sort and a group on nested fields.
  @Test(
    .enabled(
      if: EngineExactSumOtherDialectsTests.sparkSQL != nil,
      "spark-sql is not installed (pip install pyspark)"))
  func sparkGivesSiftsAnswer() throws {
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC"]
    let query = "medals.gold:>0 -team.lead:acme group:team.since sort:-medals.gold,team.lead"
    let own = sift(["-q", "-o", "csv", query, Self.files[0]], environment: environment)
    let engine = sift(["--engine", "spark", "-q", "-o", "csv", query, Self.files[0]], environment: environment)
    #expect(own.text.split(separator: "\n").count == 6)
    #expect(engine.text == own.text, "\(engine.stderr)")
  }
}
