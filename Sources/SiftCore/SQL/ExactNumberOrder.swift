/// The exact second sort key of a number, after its double (Docs/Engines.md, Sorting long
/// numbers): numbers whose doubles tie are ordered by their exact value, as sift orders them
/// (Docs/QueryLanguage.md, How numbers compare). A double tells numbers of at most 15
/// significant digits apart, so the key matters only where a longer number ties with another:
///
/// - a number of more than 15 significant digits, written without an exponent, of at most 27
///   digits before the point and 10 after, is its `DECIMAL(38, 10)`, exactly;
/// - a longer one, or one with an exponent, stops the statement with an error naming it;
/// - so does a number the double cannot hold apart from its neighbours (`1e400`, `1e-400`,
///   below 2.2 × 10^-308);
/// - any other number is its `DECIMAL(38, 10)` where it fits (exact: an exponent's text is cast
///   as written), else ±10^27, beyond every long number kept.
///
/// Postgres's `NUMERIC` holds every number exactly: its key is the cast, never an error.
/// DuckDB's key is the number's units of 10^-38 as a `BIGNUM` (DuckDBExactSum.parts), exact
/// at any size: only a number of more than 38 decimals is refused.
enum ExactNumberOrder {
  /// Whether the number's text (canonical: `-1234.50`, `5E-3`) has more than 15 significant
  /// digits: two non-zero digits 16 or more digits apart, before any exponent.
  static let longPattern = "'[1-9]([.]?[0-9]){14}[.]?[0-9]*[1-9][0.]*([eE].*)?$'"

  /// A number without an exponent of at most 27 digits before the point and 10 decimals
  /// (trailing zeros aside): one `DECIMAL(38, 10)` holds exactly, below the ±10^27 of the rest.
  static let fitsPattern = "'^[+-]?0*[0-9]{0,27}([.][0-9]{0,10}0*)?$'"

  /// The key of `n` (the number, a double, NULL for what is not one) whose canonical text is `t`
  /// and whose text as read is `v`.
  static func key(
    _ dialect: SQLDialect, value v: String, canonical t: String, number n: String
  ) throws(SQLError) -> String {
    let decimal = "DECIMAL(38, 10)"
    if dialect == .postgres {
      return "(CASE WHEN \(n) IS NOT NULL THEN CAST(\(t) AS NUMERIC) END)"
    }
    if dialect == .duckdb {
      // Units of 10^-38 as a `BIGNUM`, exact at any size (Exact sums in DuckDB).
      return "(CASE WHEN \(n) IS NOT NULL THEN list_transform([\(DuckDBExactSum.parts(ofCanonical: t))], "
        + "lambda sift_key: CASE WHEN sift_key.d > \(DuckDBExactSum.scale) OR sift_key.u IS NULL "
        + "THEN \(try refusal(dialect, value: v)) ELSE sift_key.u END)[1] END)"
    }
    let long = "length(\(t)) > 15 AND \(dialect.matches(t, longPattern)) AND NOT "
      + dialect.matches(t, fitsPattern)
    let tiny = "2.2250738585072014e-308"
    let beyond = "(\(infinite(dialect, n)) OR (\(n) = 0 AND \(dialect.matches(t, "'^[^eE]*[1-9]'")))"
      + " OR (\(n) <> 0 AND abs(\(n)) < \(tiny)))"
    let cast: String
    switch dialect {
    case .duckdb, .trino: cast = "TRY_CAST(\(t) AS \(decimal))"
    case .spark: cast = "CAST(\(t) AS \(decimal))"
    case .clickhouse: cast = "toDecimal128OrNull(\(t), 10)"
    case .postgres: cast = "CAST(\(t) AS NUMERIC)"
    }
    let bound = dialect == .clickhouse
      ? "toDecimal128('1000000000000000000000000000', 10)" : "CAST(1E27 AS \(decimal))"
    let kept = "coalesce(\(cast), CASE WHEN \(n) > 0 THEN \(bound) ELSE -\(bound) END)"
    let refused = try refusal(dialect, value: v)
    if dialect == .clickhouse {
      return "if(\(n) IS NULL, NULL, if(throwIf((\(long)) OR \(beyond), \(refused)) = 0, \(kept), NULL))"
    }
    return "(CASE WHEN \(n) IS NULL THEN NULL WHEN (\(long)) OR \(beyond) THEN \(refused) "
      + "ELSE \(kept) END)"
  }

  /// Whether the double is infinite.
  private static func infinite(_ dialect: SQLDialect, _ n: String) -> String {
    switch dialect {
    case .duckdb, .trino: return "isinf(\(n))"
    case .spark: return "(abs(\(n)) = double('Infinity'))"
    case .clickhouse: return "isInfinite(\(n))"
    case .postgres: return "(abs(\(n)) = 'Infinity'::float8)"
    }
  }

  /// The error that stops the statement, naming the value (ClickHouse's `throwIf` takes a
  /// message that is the same for every row).
  private static func refusal(_ dialect: SQLDialect, value v: String) throws(SQLError) -> String {
    let reason = " exactly: the SQL orders numbers by a double and a DECIMAL(38, 10)"
    switch dialect {
    case .duckdb:
      return "error('sift: cannot sort ' || \(v) || ' exactly: it has more than "
        + "\(DuckDBExactSum.scale) decimals')"
    case .spark: return "raise_error(concat('sift: cannot sort ', \(v), \(try dialect.literal(reason))))"
    case .trino: return "CAST(fail('sift: cannot sort ' || \(v) || \(try dialect.literal(reason))) AS DECIMAL(38, 10))"
    case .clickhouse: return try dialect.literal("sift: cannot sort a number" + reason)
    case .postgres: return "NULL"
    }
  }
}
