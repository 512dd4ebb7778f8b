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

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: countQueries.indices)
  func sameCounts(index: Int) throws {
    let (query, file) = Self.countQueries[index]
    let own = sift(["-c", "--", query, file])
    let engine = CSVText.rows(try SQLDifferentialTests.throughDuckDB(query, file, count: true)).dropFirst()
    let expected = own.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    #expect(!expected.isEmpty)
    #expect(Array(engine) == expected, "\(query)")
  }

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: summaryQueries.indices)
  func sameSummaries(index: Int) throws {
    let (query, file) = Self.summaryQueries[index]
    let own = sift(["-q", "-o", "csv", "--", query, file])
    let engine = try SQLDifferentialTests.throughDuckDB(query, file)
    #expect(CSVText.rows(engine) == CSVText.ownRows(own.text), "\(query)")
  }

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: recordQueries.indices)
  func sameRecordsInTheSameOrder(index: Int) throws {
    let (query, file) = Self.recordQueries[index]
    let own = sift(["-q", "-o", "csv", "--", query, file])
    let engine = try SQLDifferentialTests.throughDuckDB(query, file)
    #expect(CSVText.rows(engine) == CSVText.ownRows(own.text), "\(query)")
  }

  /// Every day from December 1999 to January 2031: sift's week, month and quarter labels
  /// against DuckDB's own calendar (`isoyear`, `week`, `month`, `quarter`), which sift's SQL
  /// does not use for the month and quarter.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func labelsAgreeWithDuckDBsCalendar() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.duckdb!)
    process.arguments = [
      "-csv", "-noheader", "-c",
      """
      SELECT strftime(d, '%Y-%m-%d'),
        printf('%04d-W%02d', date_part('isoyear', d), date_part('week', d)),
        printf('%04d-%02d', year(d), month(d)), printf('%04d-Q%d', year(d), quarter(d))
      FROM (SELECT CAST(range AS DATE) AS d FROM range(DATE '1999-12-01', DATE '2031-02-01', INTERVAL 1 DAY))
      ORDER BY d
      """,
    ]
    let stdout = Pipe()
    process.standardOutput = stdout
    try process.run()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: out, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 11_385)
    var wrong: [String] = []
    for line in lines {
      let parts = line.split(separator: ",").map(String.init)
      let mine = [TimeBucket.week, .month, .quarter].map {
        TimeBucketTestsLabel.label(parts[0], $0) ?? "?"
      }
      if mine != Array(parts.dropFirst()) { wrong.append("\(parts[0]): \(mine) vs \(parts.dropFirst())") }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }
}

/// A day written `YYYY-MM-DD` and its bucket's label.
private enum TimeBucketTestsLabel {
  static func label(_ day: String, _ bucket: TimeBucket) -> String? {
    DateParser.parse(day, .iso, partial: false).map { bucket.label(of: $0.time) }
  }
}
