/// Spark's and ClickHouse's `sum:` in a fixed-point decimal (Docs/Engines.md, Exact sums in
/// Spark and ClickHouse): every number is summed exactly or the statement stops with an error
/// naming it, never a rounded or dropped value. A number with more decimals than the decimal's
/// scale (its exponent applied: `1.5e-11`, `0.000000000001`), or too large for its precision
/// (`1e30`, `1e400`), stops the run (Spark `raise_error`, ClickHouse `throwIf`); so does a sum
/// that overflows the decimal. The sum is written with the most decimals of its numbers, an
/// exponent's counted as sift counts them (`5E-3` has 3, `1.5e3` none).
enum ExactSumGuard {
  /// The decimals every number is held with, and the digits in all.
  static let scale = 10
  static let precision = 38

  /// A number's decimals as sift counts them: its fraction's digits less its exponent (may be
  /// negative; NULL for an exponent too long to read, which the cast refuses anyway). `t` is the
  /// number's text in canonical form (`1234.50`, `-5E-3`).
  static func decimals(_ dialect: SQLDialect, canonical t: String) -> String {
    switch dialect {
    case .spark:
      let fraction = "length(regexp_extract(\(t), '^[^eE]*[.]([0-9]+)', 1))"
      let exponent = "CAST(CASE WHEN \(t) RLIKE '[eE][+-]?[0-9]{1,6}$' THEN regexp_extract(\(t), "
        + "'[eE]([+-]?[0-9]+)$', 1) WHEN \(t) RLIKE '[eE]' THEN NULL ELSE '0' END AS INT)"
      return "(\(fraction) - \(exponent))"
    case .clickhouse:
      let fraction = "length(extract(\(t), '^[^eE]*[.]([0-9]+)'))"
      let exponent = "if(match(\(t), '[eE][+-]?[0-9]{1,6}$'), toInt32OrNull(replaceOne("
        + "extract(\(t), '[eE]([+-]?[0-9]+)$'), '+', '')), if(match(\(t), '[eE]'), NULL, 0))"
      return "(\(fraction) - \(exponent))"
    case .duckdb, .postgres, .trino:
      return "NULL"
    }
  }

  /// The sum of a group's numbers as sift writes it: `v` the value's text as read, `t` its
  /// canonical form, `n` its number (NULL when it is not one), `field` the field's name.
  static func sum(
    _ dialect: SQLDialect, value v: String, canonical t: String, number n: String, field: String
  ) throws(SQLError) -> String {
    let d = decimals(dialect, canonical: t)
    let tooLarge = try dialect.literal(
      "sift: \(name(dialect)) cannot sum \(field) exactly: the sum reaches 10^\(precision - scale)")
    switch dialect {
    case .spark:
      let cast = "CAST(\(t) AS DECIMAL(\(precision), \(scale)))"
      let refusal = "raise_error(concat('sift: Spark cannot sum ', \(v), ' exactly: it has more than "
        + "\(scale) decimals or reaches 10^\(precision - scale)'))"
      let kept = "CASE WHEN \(n) IS NOT NULL THEN CASE WHEN coalesce(\(d) > \(scale), TRUE) "
        + "OR \(cast) IS NULL THEN \(refusal) ELSE \(cast) END END"
      let places = "coalesce(max(CASE WHEN \(n) IS NOT NULL THEN greatest(\(d), 0) END), 0)"
      let total = "sum(\(kept))"
      let text = "CAST(\(total) AS STRING)"
      return "CASE WHEN \(total) IS NULL AND count(\(kept)) > 0 THEN raise_error(\(tooLarge)) "
        + "WHEN \(places) = 0 THEN substring_index(\(text), '.', 1) "
        + "ELSE substring(\(text), 1, instr(\(text), '.') + \(places)) END"
    case .clickhouse:
      return "NULL"
    case .duckdb, .postgres, .trino:
      throw SQLError("\(dialect.rawValue) sums are not written by ExactSumGuard")
    }
  }

  private static func name(_ dialect: SQLDialect) -> String {
    switch dialect {
    case .spark: return "Spark"
    case .clickhouse: return "ClickHouse"
    case .duckdb: return "DuckDB"
    case .postgres: return "PostgreSQL"
    case .trino: return "Trino"
    }
  }
}
