import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// `group:date/UNIT` (Docs/QueryLanguage.md, Time buckets) through `--sql duckdb` in a real
/// DuckDB gives the buckets, counts, summaries and records of sift's own run; and the week
/// labels of sift's SQL agree with DuckDB's own ISO calendar (`date_part('isoyear'…)`,
/// `week`) on every day of a range. Skipped, and said so, without `duckdb`.
@Suite struct TimeBucketDifferentialTests {
  static let duckdb = SQLDifferentialTests.duckdb
  static let grn = SQLDifferentialTests.grn
  /// ISO-week edges: 31 December 2020 to 1 January 2027, empty values, local date-times.
  static let edges = "Tests/SiftCLITests/Fixtures/time-buckets.csv"

  static let countQueries: [(String, String)] = [
    "group:date/day", "group:date/week", "group:date/month", "group:date/quarter", "group:date/year",
    "group:updated/hour", "status:received group:date/week,warehouse", "group:date/year sort:-date",
    "group:date/month sort:-count limit:5", "group:warehouse,date/quarter",
  ].map { ($0, grn) } + ["group:day/week", "group:day/year", "group:day/day,id"].map { ($0, edges) }

  static let summaryQueries: [(String, String)] = [
    "group:date/month sum:amount avg:qty", "group:date/week,status sum:qty limit:1/group",
    "group:updated/day max:amount sort:-amount_max limit:10", "group:date/quarter sum:amount sort:-date",
  ].map { ($0, grn) } + [("group:day/week sum:amount", edges)]

  static let recordQueries: [(String, String)] = [
    "group:date/quarter sort:-amount limit:2/group", "group:date/week limit:40",
    "status:pending group:date/month,warehouse sort:qty", "group:date/year sort:-date limit:5",
  ].map { ($0, grn) } + [("group:day/week", edges)]

  /// DuckDB's answers to the queries above, all from one `duckdb` client.
  static let countAnswers = SQLDifferentialTests.throughDuckDB(
    countQueries.map { .init($0.0, $0.1, count: true) })
  static let summaryAnswers = SQLDifferentialTests.throughDuckDB(summaryQueries.map { .init($0.0, $0.1) })
  static let recordAnswers = SQLDifferentialTests.throughDuckDB(recordQueries.map { .init($0.0, $0.1) })

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: countQueries.indices)
  func sameCounts(index: Int) throws {
    let (query, file) = Self.countQueries[index]
    let own = sift(["-c", "--", query, file])
    let engine = CSVText.rows(Self.countAnswers[index].csv()).dropFirst()
    let expected = own.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    #expect(!expected.isEmpty)
    #expect(Array(engine) == expected, "\(query)")
  }

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: summaryQueries.indices)
  func sameSummaries(index: Int) throws {
    let (query, file) = Self.summaryQueries[index]
    let own = sift(["-q", "-o", "csv", "--", query, file])
    let engine = Self.summaryAnswers[index].csv()
    #expect(CSVText.rows(engine) == CSVText.ownRows(own.text), "\(query)")
  }

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: recordQueries.indices)
  func sameRecordsInTheSameOrder(index: Int) throws {
    let (query, file) = Self.recordQueries[index]
    let own = sift(["-q", "-o", "csv", "--", query, file])
    let engine = Self.recordAnswers[index].csv()
    #expect(CSVText.rows(engine) == CSVText.ownRows(own.text), "\(query)")
  }

  /// Every day from December 1999 to January 2031 counted per week, month and quarter by
  /// sift, and by DuckDB's own calendar (`isoyear`, `week`, `month`, `quarter`), which sift's SQL
  /// does not use for the month and quarter.
  @Test(
    .enabled(if: duckdb != nil, "duckdb is not installed"),
    arguments: [
      ("week", "printf('%04d-W%02d', date_part('isoyear', d), date_part('week', d))"),
      ("month", "printf('%04d-%02d', year(d), month(d))"),
      ("quarter", "printf('%04d-Q%d', year(d), quarter(d))"),
    ])
  func countsAgreeWithDuckDBsCalendar(unit: String, label: String) throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-days-\(unit)-\(getpid()).csv")
    defer { try? FileManager.default.removeItem(at: file) }
    let first = Calendar.days(year: 1999, month: 12, day: 1)
    let days = (first..<Calendar.days(year: 2031, month: 2, day: 1)).map {
      Calendar.isoDate(days: WallTime($0))
    }
    try Data((["d"] + days).joined(separator: "\n").utf8 + [0x0a]).write(to: file)
    let own = sift(["-c", "-q", "--", "group:d/\(unit)", file.path])
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.duckdb!)
    process.arguments = [
      "-csv", "-noheader", "-separator", "\t", "-c",
      "SELECT \(label) AS b, count(*) FROM read_csv('\(file.path)', columns = {'d': 'DATE'}, "
        + "header = true) GROUP BY b ORDER BY b",
    ]
    let stdout = Pipe()
    process.standardOutput = stdout
    try process.run()
    let engine = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(own.text.split(separator: "\n").count > 100)
    #expect(own.text == engine, "group:d/\(unit)")
  }
}
