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

  /// The aggregates a sum (or mean) is written from (`written`), each named by what it is
  /// (`total`, `count`, `places`, `overflow`), so that a statement can compute each once, as a
  /// column of its grouped rows (Docs/Engines.md, Readable statements): `v` the value's text as
  /// read, `t` its canonical form, `n` its number (NULL when it is not one), `field` the
  /// field's name.
  static func totals(
    _ dialect: SQLDialect, mean: Bool, value v: String, canonical t: String, number n: String,
    field: String
  ) throws(SQLError) -> [(what: String, expression: String)] {
    let d = decimals(dialect, canonical: t)
    switch dialect {
    case .spark:
      let cast = "CAST(\(t) AS DECIMAL(\(precision), \(scale)))"
      let refusal = "raise_error(concat('sift: Spark cannot sum ', \(v), ' exactly: it has more than "
        + "\(scale) decimals or reaches 10^\(precision - scale)'))"
      let kept = "CASE WHEN \(n) IS NOT NULL THEN CASE WHEN coalesce(\(d) > \(scale), TRUE) "
        + "OR \(cast) IS NULL THEN \(refusal) ELSE \(cast) END END"
      let places = "coalesce(max(CASE WHEN \(n) IS NOT NULL THEN greatest(\(d), 0) END), 0)"
      return [("total", "sum(\(kept))"), ("count", "count(\(kept))"), ("places", places)]
    case .clickhouse:
      let scale = mean ? 36 : 38
      let digits = 38
      let cast = "toDecimal256OrNull(\(t), 38)"
      let bad = "ifNull(\(n) IS NOT NULL AND (ifNull(\(d) > \(scale), 1) OR isNull(\(cast)) "
        + "OR abs(\(n)) >= 1e\(digits)), 0)"
      let refusal = try SQLDialect.clickhouse.literal(
        "sift: ClickHouse cannot \(mean ? "average" : "sum") \(field) exactly: a value has more "
          + "than \(scale) decimals or reaches 10^\(digits)")
      let kept = "if(throwIf(\(bad), \(refusal)) = 0 AND \(n) IS NOT NULL, \(cast), NULL)"
      let places = "toUInt8(coalesce(max(if(\(n) IS NOT NULL, greatest(\(d), 0), NULL)), 0))"
      let tooLarge = try SQLDialect.clickhouse.literal(
        "sift: ClickHouse cannot sum \(field) exactly: the sum reaches 10^\(digits)")
      let overflow =
        "throwIf(ifNull(abs(sumIf(\(n), \(n) IS NOT NULL)) >= 1e\(digits), 0), \(tooLarge))"
      return [("total", "sum(\(kept))"), ("places", places), ("overflow", overflow)]
        + (mean ? [("count", "count(\(kept))")] : [])
    case .duckdb, .postgres, .trino:
      throw SQLError("\(dialect.rawValue) sums are not written by ExactSumGuard")
    }
  }

  /// The totals of Spark's sum (or mean) of an integer or `DECIMAL(p, s)` column `c` of a
  /// Parquet file or a table (Docs/Engines.md, Typed columns): each value cast to
  /// `DECIMAL(38, 10)` without a pattern, written with the declared scale `s`, as sift writes the
  /// sum of the text the engine writes for them (`1.20` has 2 decimals). `nil` for another type,
  /// or a scale past 10.
  static func sparkTypedTotals(column c: String, type: SQLColumnType)
    -> [(what: String, expression: String)]?
  {
    let declared: Int
    switch type {
    case .integer: declared = 0
    case .decimal(let s) where s <= scale: declared = s
    case .decimal, .text, .other, .double, .date, .timestamp, .timestampWithZone: return nil
    }
    let cast = "CAST(\(c) AS DECIMAL(\(precision), \(scale)))"
    let refusal = "raise_error(concat('sift: Spark cannot sum ', CAST(\(c) AS STRING), "
      + "' exactly: it reaches 10^\(precision - scale)'))"
    let kept = "CASE WHEN \(c) IS NOT NULL THEN CASE WHEN \(cast) IS NULL THEN \(refusal) "
      + "ELSE \(cast) END END"
    return [("total", "sum(\(kept))"), ("count", "count(\(kept))"), ("places", "\(declared)")]
  }

  /// The text of a sum (or mean) from its `totals`, each read through `column` by what it is.
  static func written(
    _ dialect: SQLDialect, mean: Bool, field: String, _ column: (String) -> String
  ) throws(SQLError) -> String {
    let (total, places) = (column("total"), column("places"))
    switch dialect {
    case .spark:
      if mean {
        return try sparkMean(total: total, count: column("count"), places: places, field: field)
      }
      let tooLarge = try dialect.literal(
        "sift: \(name(dialect)) cannot sum \(field) exactly: the sum reaches "
          + "10^\(precision - scale)")
      // A decimal below 10^-6 is written with an exponent (`1.0E-7`): one below 1 is written
      // as its sum with 1, whose leading `1` becomes `0`.
      let text = "CASE WHEN abs(\(total)) < 1 THEN concat(CASE WHEN \(total) < 0 THEN '-' ELSE '' END, '0', "
        + "substring(CAST(CAST(abs(\(total)) AS DECIMAL(20, \(scale))) + 1 AS STRING), 2)) "
        + "ELSE CAST(\(total) AS STRING) END"
      return "CASE WHEN \(total) IS NULL AND \(column("count")) > 0 THEN raise_error(\(tooLarge)) "
        + "WHEN \(places) = 0 THEN substring_index(\(text), '.', 1) "
        + "ELSE substring(\(text), 1, instr(\(text), '.') + \(places)) END"
    case .clickhouse:
      // ClickHouse's sum and mean in `Decimal256(38)`: 38 decimals and 38 digits before the
      // point, as DuckDB's (Exact sums in DuckDB). The mean is the sum's units divided by the
      // count in `Int256`, rounded half to even, so a mean's numbers may have at most 36
      // decimals. `throwIf` takes one message for every row: it names the field, not the value.
      let text = "toDecimalString(\(total), 38)"
      let written = mean
        ? meanText(
          units: "toInt256(replaceOne(\(text), '.', ''))", count: column("count"), places: places)
        : "if(\(places) = 0, splitByChar('.', \(text))[1], "
          + "substring(\(text), 1, position(\(text), '.') + \(places)))"
      return "if(\(column("overflow")) = 0 AND \(total) IS NOT NULL, \(written), NULL)"
    case .duckdb, .postgres, .trino:
      throw SQLError("\(dialect.rawValue) sums are not written by ExactSumGuard")
    }
  }

  /// Spark's mean of a sum `total` (`DECIMAL(38, 10)`, its numbers of at most `places`
  /// decimals) over `count` numbers, with `places + 2` decimals, rounded half to even, as sift
  /// writes a mean (Docs/Aggregates.md). The quotient in `DECIMAL(38, 20)` is exact to 20
  /// decimals, which tells a tie at `places + 2` decimals from a value beside it while the count
  /// is below 10^(18 - places) (a mean of such numbers is at least 1 / (2 · count ·
  /// 10^(places + 2)) from a tie it is not): a sum from 10^18 on, or a larger count, stops the
  /// statement rather than risk a wrong last digit. Rounded by hand (`bround` takes only a
  /// constant scale), every step exact in `DECIMAL(38, 20)`: `u` is the last kept decimal, `h`
  /// half of it. Each value is named once by a lambda (`transform` of a one-element array) whose
  /// parameter is one of DuckDBExactSum's `lambdaNames`, which no field may be named.
  private static func sparkMean(total: String, count: String, places: String, field: String)
    throws(SQLError) -> String
  {
    let refusal = try SQLDialect.spark.literal(
      "sift: Spark cannot average \(field) exactly: the sum reaches 10^18 or the count "
        + "10^(18 - its decimals)")
    let quotient = "CAST(\(total) AS DECIMAL(28, 10)) / CAST(\(count) AS DECIMAL(10, 0))"
    let parts = "named_struct('q', \(quotient), "
      + "'u', CAST(concat('1E-', \(places) + 2) AS DECIMAL(38, 20)), "
      + "'h', CAST(concat('5E-', \(places) + 3) AS DECIMAL(38, 20)), 'p', \(places) + 2)"
    let below = "(abs(sift_parts.q) % sift_parts.u)"
    let kept = "(abs(sift_parts.q) - \(below))"
    let odd = "(CAST(\(kept) / sift_parts.u AS DECIMAL(38, 0)) % 2 <> 0)"
    let rounded = "CASE WHEN \(below) > sift_parts.h OR (\(below) = sift_parts.h AND \(odd)) "
      + "THEN \(kept) + sift_parts.u ELSE \(kept) END"
    // A decimal below 10^-6 is written with an exponent: written as its sum with 1, whose
    // leading `1` becomes `0`; then cut to its `places + 2` decimals.
    let text = "CASE WHEN sift_quot.r < 1 THEN concat('0', "
      + "substring(CAST(sift_quot.r + 1 AS STRING), 2)) ELSE CAST(sift_quot.r AS STRING) END"
    let written = "concat(CASE WHEN sift_quot.negative AND sift_quot.r > 0 THEN '-' ELSE '' END, "
      + "substring(\(text), 1, instr(\(text), '.') + sift_quot.p))"
    let mean = "element_at(transform(transform(array(\(parts)), sift_parts -> "
      + "named_struct('r', \(rounded), 'negative', sift_parts.q < 0, 'p', sift_parts.p)), "
      + "sift_quot -> \(written)), 1)"
    return "CASE WHEN \(count) = 0 THEN NULL WHEN \(total) IS NULL OR abs(\(total)) >= 1e18 "
      + "OR \(count) >= power(10, 18 - \(places)) THEN raise_error(\(refusal)) ELSE \(mean) END"
  }

  /// The mean of a sum of `units` (units of 10^-38, an `Int256` with at most `places` decimals)
  /// over `count` numbers, with `places + 2` decimals, rounded half to even.
  private static func meanText(units: String, count c: String, places: String) -> String {
    let power = "toInt256(concat('1', repeat('0', 38 - \(places))))"
    let scaled = "(intDiv(abs(\(units)), \(power)) * 100)"
    let quotient = "intDiv(\(scaled), \(c))"
    let remainder = "(\(scaled) % \(c))"
    let rounded = "(\(quotient) + if(2 * \(remainder) > \(c) OR (2 * \(remainder) = \(c) "
      + "AND \(quotient) % 2 = 1), 1, 0))"
    // `leftPad` cuts a longer text to the width.
    let digits = "toString(\(rounded))"
    let padded = "leftPad(\(digits), greatest(length(\(digits)), \(places) + 3), '0')"
    return "concat(if(\(units) < 0 AND \(rounded) != 0, '-', ''), "
      + "substring(\(padded), 1, length(\(padded)) - \(places) - 2), '.', "
      + "substring(\(padded), length(\(padded)) - \(places) - 1))"
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
