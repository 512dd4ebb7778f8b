// The `Total` row's statement labels the row as sift's own run does (Docs/Aggregates.md,
// Output): `Total (all 40 groups)` when `limit:` left groups out, in every dialect; the
// count's grouped digits checked in a real DuckDB against sift's own.

import Foundation
import Testing

@testable import SiftCore

@Suite struct SQLTotalLabelTests {
  static let schema = Schema(names: ["status", "warehouse", "qty"])

  static func totalRow(_ query: String, _ dialect: SQLDialect) throws -> String {
    let plan = try Plan(
      query: try Parser.parse(query), schema: schema, now: 0, intent: .records
    ) { $0.name == "qty" ? .number : .text }
    let text = try SQLWriter(plan: plan, dialect: dialect, source: .table("grn")).totalRow()
    // The final query, after the stages (Docs/Engines.md, Readable statements), whose lines are
    // indented.
    guard let final = text.range(of: "\nSELECT ", options: .backwards) else { return text }
    return String(text[text.index(after: final.lowerBound)...])
  }

  @Test(arguments: SQLDialect.allCases)
  func theLabelSaysWhenTheLimitLeftGroupsOut(dialect: SQLDialect) throws {
    let label = "CASE WHEN count(DISTINCT "
    // The dialect's grouped digits, up to the count it groups.
    let grouping = dialect.groupedDigits("\u{0}").split(separator: "\u{0}")[0]
    let said = "THEN 'Total (all ' || \(grouping)count(DISTINCT "
    // `limit:N`: more groups than N.
    let limited = try Self.totalRow("group:status sum:qty limit:3", dialect)
    #expect(limited.hasPrefix("SELECT " + label) && limited.contains(") > 3 THEN "), "\(limited)")
    #expect(limited.contains(said) && limited.contains(" groups)' ELSE 'Total' END AS "))
    // `limit:N/group`: an outer group with more than N.
    let perGroup = try Self.totalRow("group:warehouse,status sum:qty limit:2/group", dialect)
    #expect(perGroup.contains(" AS o) > 2 THEN 'Total (all '"), "\(perGroup)")
    #expect(perGroup.contains("\nGROUP BY "))
    // No limit: `Total`.
    let whole = try Self.totalRow("group:status sum:qty", dialect)
    #expect(whole.hasPrefix("SELECT 'Total' AS ") && !whole.contains("Total (all"), "\(whole)")
  }

  @Test(
    .enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: [0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890])
  func duckDBGroupsDigitsAsSiftDoes(n: Int) throws {
    let statement = "SELECT \(SQLDialect.duckdb.groupedDigits("CAST(\(n) AS BIGINT)")) AS n"
    let text = SQLDifferentialTests.runDuckDB(statement, statement)
    #expect(CSVText.rows(text).dropFirst().first == [groupedDigits(n)], "\(text)")
  }
}
