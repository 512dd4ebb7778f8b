import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Issue 26 item 3 (Docs/Engines.md, Spark reads files in parts): Spark reads a Parquet file
/// itself (`parquet.\`path\``), its typed columns in their own types, so that a filter is pushed
/// into the scan and the file is read in more than one part; input order is the file's own row
/// index, never a single-partition window. DuckDB describes the file (and makes it); Spark's
/// plan and answers are checked where `spark-sql` is installed.
@Suite struct SparkParquetTests {
  static let duckdb = SQLDifferentialTests.duckdb
  static let sparkSQL = EngineExactSumOtherDialectsTests.sparkSQL

  /// `grn.parquet` (200,000 records in row groups of 10,000, about 4 MB: more than one part at
  /// Spark's `maxPartitionBytes` of 400 KB) and `grn.csv`, DuckDB's export of it, in the build
  /// folder; made again by each run.
  static let folder: String? = {
    guard let duckdb else { return nil }
    let folder = FileManager.default.currentDirectoryPath + "/.build/spark-parquet"
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let records = """
      SELECT i AS id, (i * 7) % 1000 AS qty, CAST(i * 1.25 AS DECIMAL(12,2)) AS price,
        (i % 4000) * 0.25 AS amount, DATE '2024-01-01' + (i % 300)::INT AS date,
        TIMESTAMP '2024-01-01 10:00:00' + INTERVAL (i) MINUTE AS updated, 'c' || (i % 5) AS customer
      FROM range(200000) t(i)
      """
    let script = "COPY (\(records)) TO '\(folder)/grn.parquet' (FORMAT parquet, "
      + "ROW_GROUP_SIZE 10000);"
      + " COPY (SELECT * FROM '\(folder)/grn.parquet') TO '\(folder)/grn.csv' (FORMAT csv, HEADER);"
    guard let made = try? runProcess(duckdb, ["-c", script]), made.status == 0 else { return nil }
    return folder
  }()

  static var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["LANG"] = "C.UTF-8"
    environment["TZ"] = "UTC"
    environment["SIFT_DUCKDB"] = duckdb ?? ""
    return environment
  }

  /// What `--sql spark` writes for `query` over the Parquet file.
  static func statement(_ arguments: [String]) throws -> String {
    let folder = try #require(folder)
    let result = sift(
      ["--sql", "spark"] + arguments + ["\(folder)/grn.parquet"], environment: environment)
    #expect(result.status == .matched, "\(result.stderr)")
    return result.text
  }

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed (it describes the Parquet file)"))
  func aFilterIsATypedComparisonOverTheFileWithItsOwnRowIndex() throws {
    let records = try Self.statement(["qty:100..500 date:2024-05 updated:>=2024-01-02 sort:-price"])
    #expect(records.contains("FROM parquet.`"))
    #expect(records.contains("`qty` BETWEEN 100 AND 500"))
    #expect(records.contains("`date` >= DATE '2024-05-01' AND `date` < DATE '2024-06-01'"))
    #expect(records.contains("`updated` >= TIMESTAMP_NTZ '2024-01-02 00:00:00.000000'"))
    #expect(records.contains("_metadata.row_index AS sift_row"))
    #expect(!records.contains("OVER ()") && !records.contains("monotonically_increasing_id"))
    #expect(!records.contains("RLIKE"), "a typed column is compared, not matched by a pattern")
    // A count and a summary read no input order.
    let count = try Self.statement(["-c", "qty:>100"])
    #expect(!count.contains("sift_row") && count.contains("`qty` > 100"))
    let summary = try Self.statement(["qty:>100 group:customer sum:price"])
    #expect(!summary.contains("sift_row"))
  }

  /// The plan of a filter over the Parquet file: its predicate in the scan's `PushedFilters`,
  /// no single-partition exchange, and the file read in more than one part.
  @Test(.enabled(if: duckdb != nil && sparkSQL != nil, "duckdb or spark-sql is not installed"))
  func sparksPlanPushesTheFilterAndReadsInParts() throws {
    let folder = try #require(Self.folder)
    let query = try Self.statement(["qty:100..500"])
    let script = "EXPLAIN \(query)"
      + "SELECT concat('parts=', count(*)) FROM (SELECT DISTINCT spark_partition_id() AS p "
      + "FROM parquet.`\(folder)/grn.parquet`);\n"
    let file = "\(folder)/explain.sql"
    try script.write(toFile: file, atomically: true, encoding: .utf8)
    let run = try runProcess(
      try #require(Self.sparkSQL),
      ["-S", "--conf", "spark.sql.ansi.enabled=false",
       "--conf", "spark.sql.catalogImplementation=in-memory",
       "--conf", "spark.sql.files.maxPartitionBytes=400000",
       "--conf", "spark.sql.warehouse.dir=\(folder)/warehouse", "-f", file],
      environment: Self.environment)
    #expect(run.status == 0, "\(run.stderr.suffix(2000))")
    let plan = run.stdout
    let lines = plan.split(separator: "\n")
    let scan = lines.first { $0.contains("FileScan parquet") }.map(String.init) ?? ""
    let pushed =
      "PushedFilters: [IsNotNull(qty), GreaterThanOrEqual(qty,100), LessThanOrEqual(qty,500)]"
    #expect(scan.contains(pushed), "\(plan)")
    #expect(!plan.contains("SinglePartition"), "\(plan)")
    let parts = lines.first { $0.hasPrefix("parts=") }.flatMap { Int($0.dropFirst(6)) }
    #expect((parts ?? 0) > 1, "\(plan)")
  }

  /// `--engine spark` over the Parquet file writes what sift writes over DuckDB's CSV export of
  /// it: typed filters, a sort with ties in the file's order, timestamps as their text.
  @Test(.enabled(if: duckdb != nil && sparkSQL != nil, "duckdb or spark-sql is not installed"),
    arguments: ["qty:100..140 date:2024-05 sort:-amount limit:40",
      "qty:>900 group:customer sum:price avg:qty min:updated p50:amount"])
  func sparkOnParquetAnswersAsSiftOnTheCSV(query: String) throws {
    let folder = try #require(Self.folder)
    let own = sift(["-q", "-o", "csv", query, "\(folder)/grn.csv"])
    let engine = sift(
      ["-q", "--engine", "spark", "-o", "csv", query, "\(folder)/grn.parquet"],
      environment: Self.environment)
    #expect(engine.status == own.status, "\(engine.stderr)")
    #expect(engine.text == own.text)
    #expect(CSVText.rows(own.text).count > 4)
  }
}
