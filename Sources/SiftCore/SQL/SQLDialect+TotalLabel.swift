extension SQLDialect {
  /// The `Total` row's label (Docs/Aggregates.md, Output), as sift's own run writes it
  /// (`SummaryRows.totalLabel`): `Total (all 40 groups)` when `groupsLeftOut` holds, the count
  /// `groups` with its digits grouped, else `Total`.
  func totalLabel(groups: String, groupsLeftOut: String) -> String {
    "CASE WHEN \(groupsLeftOut) THEN 'Total (all ' || \(groupedDigits(groups)) || ' groups)' "
      + "ELSE 'Total' END"
  }

  /// A whole number's text with its digits in threes, `1,500` (`groupedDigits`).
  func groupedDigits(_ integer: String) -> String {
    switch self {
    case .duckdb: return "format('{:,}', \(integer))"
    case .postgres: return "to_char(\(integer), 'FM999,999,999,999,999,999')"
    case .spark: return "format_number(\(integer), 0)"
    case .trino: return "format('%,d', \(integer))"
    case .clickhouse:
      // Commas after each three digits of the reversed text, the last one dropped.
      return "reverse(replaceRegexpOne(replaceRegexpAll(reverse(toString(\(integer))), "
        + "'([0-9]{3})', '\\\\1,'), ',$', ''))"
    }
  }
}
