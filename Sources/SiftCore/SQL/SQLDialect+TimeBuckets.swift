/// The labels of `group:date/UNIT` in SQL (Docs/QueryLanguage.md, Time buckets;
/// Docs/Engines.md), made from a value's date key, the 20 digits `YYYYMMDDhhmmssffffff` of its
/// wall time: the same text sift's own run gives (`2024-06-12T09:00`, `2024-06-12`,
/// `2024-W23`, `2024-06`, `2024-Q2`, `2024`).
extension SQLDialect {
  /// The label of `bucket` for the date key `key` (an expression that is not NULL).
  func bucketLabel(_ bucket: TimeBucket, dateKey key: String) -> String {
    func part(_ from: Int, _ length: Int) -> String { "substr(\(key), \(from), \(length))" }
    let day = "\(part(1, 4)) || '-' || \(part(5, 2)) || '-' || \(part(7, 2))"
    switch bucket {
    case .year: return part(1, 4)
    case .month: return "\(part(1, 4)) || '-' || \(part(5, 2))"
    case .day: return day
    case .hour: return "\(day) || 'T' || \(part(9, 2)) || ':00'"
    case .quarter:
      // Compared as text, so no engine's integer division is needed.
      let month = part(5, 2)
      return "\(part(1, 4)) || '-Q' || (CASE WHEN \(month) <= '03' THEN '1' "
        + "WHEN \(month) <= '06' THEN '2' WHEN \(month) <= '09' THEN '3' ELSE '4' END)"
    case .week: return isoWeek(ofDate: "CAST(\(day) AS DATE)")
    }
  }

  /// The ISO week of a DATE as `2024-W23`: week-numbering year, `-W`, two-digit week.
  private func isoWeek(ofDate d: String) -> String {
    switch self {
    case .duckdb: return "strftime(\(d), '%G-W%V')"
    case .postgres: return "to_char(\(d), 'IYYY-\"W\"IW')"
    case .trino: return "format('%04d-W%02d', year_of_week(\(d)), week_of_year(\(d)))"
    case .spark:
      return "concat(CAST(extract(YEAROFWEEK FROM \(d)) AS STRING), '-W', "
        + "lpad(CAST(weekofyear(\(d)) AS STRING), 2, '0'))"
    case .clickhouse:
      return "concat(toString(toISOYear(\(d))), '-W', leftPad(toString(toISOWeek(\(d))), 2, '0'))"
    }
  }
}
