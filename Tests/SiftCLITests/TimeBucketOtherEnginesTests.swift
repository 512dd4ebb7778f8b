import Foundation
import Testing

/// `group:date/UNIT` (Docs/QueryLanguage.md, Time buckets) run by Spark (`--engine spark`) and
/// ClickHouse (`--sql clickhouse` in chdb): every unit gives sift's own groups, counts and sums,
/// byte for byte, on ISO week 53, 1 January in the previous year's week, the quarters' edges, a
/// leap day, an empty date and, past the type sample, a value that is not a date. Gated as
/// EngineExactSumOtherDialectsTests is.
@Suite struct TimeBucketOtherEnginesTests {
  static let units = ["hour", "day", "week", "month", "quarter", "year"]

  /// 1,020 records cycling through the edges (so the field is a date-time by its sample,
  /// Docs/Formats.md), then `soon`.
  static let csv: String = {
    let edges = [
      "2024-06-12T09:41", "2024-06-12T09:05", "2021-01-01T00:30", "2020-12-31T23:59",
      "2024-12-30T08:00", "2023-01-01T12:00", "2026-03-31T10:15", "2026-04-01T00:00",
      "2026-10-05T17:45", "2020-02-29T06:00", "", "2024-06-12T23:00",
    ]
    let rows = (0..<1020).map { "\($0 + 1),\(edges[$0 % edges.count]),\($0 % 7)\n" }
    return "id,at,v\n" + rows.joined() + "1021,soon,5\n"
  }()

  @Test(
    .enabled(
      if: EngineExactSumOtherDialectsTests.chdbPresent, "chdb is not installed (pip install chdb)"),
    arguments: units)
  func clickHouseBucketsAreSifts(unit: String) throws {
    let (own, engine) = try EngineExactSumOtherDialectsTests.throughClickHouse(
      "group:at/\(unit) sum:v", csv: Self.csv)
    #expect(engine.status == 0, "\(engine.stderr)")
    #expect(own.text.contains("\nsoon,1,5\n,85,255\n"))
    #expect(EngineExactSumOtherDialectsTests.unquoted(engine.stdout) == own.text)
  }

  /// One Spark run (about a minute) for every unit: the buckets nested, one field per unit.
  @Test(
    .enabled(
      if: EngineExactSumOtherDialectsTests.sparkSQL != nil,
      "spark-sql is not installed (pip install pyspark)"))
  func sparkBucketsAreSifts() throws {
    let query = "group:" + Self.units.map { "\($0)/\($0)" }.joined(separator: ",") + " sum:v"
    let lines = Self.csv.split(separator: "\n").dropFirst().map { line in
      let cells = line.split(separator: ",", omittingEmptySubsequences: false)
      return ([cells[0]] + Array(repeating: cells[1], count: Self.units.count) + [cells[2]])
        .joined(separator: ",")
    }
    let header = "id," + Self.units.joined(separator: ",") + ",v\n"
    let csv = header + lines.joined(separator: "\n") + "\n"
    let (own, engine) = try EngineExactSumOtherDialectsTests.throughSpark(query, csv: csv)
    #expect(own.text.split(separator: "\n").count == 13)
    #expect(engine.text == own.text, "\(engine.stderr)")
  }
}
