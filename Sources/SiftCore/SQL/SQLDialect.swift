/// An SQL engine that `--sql` writes for (Docs/Engines.md, Dialects): how it quotes names and
/// text, and the few functions whose names or forms differ between engines.
public enum SQLDialect: String, Sendable, CaseIterable {
  case duckdb, postgres, spark, trino, clickhouse

  /// A name as a quoted identifier: nothing in it can end the quotes. NUL cannot be written.
  public func identifier(_ name: String) throws(SQLError) -> String {
    try SQLDialect.refuseNUL(name, what: "the field name")
    switch self {
    case .duckdb, .postgres, .trino:
      return "\"" + name.replacing("\"", with: "\"\"") + "\""
    case .spark:
      return "`" + name.replacing("`", with: "``") + "`"
    case .clickhouse:
      return "`" + name.replacing("\\", with: "\\\\").replacing("`", with: "\\`") + "`"
    }
  }

  /// Text as a string literal: nothing in it can end the literal. NUL cannot be written.
  public func literal(_ text: String) throws(SQLError) -> String {
    try SQLDialect.refuseNUL(text, what: "the value")
    switch self {
    case .duckdb, .trino:
      return "'" + text.replacing("'", with: "''") + "'"
    case .postgres:
      // An escape string means the same whatever `standard_conforming_strings` says.
      return "E'" + text.replacing("\\", with: "\\\\").replacing("'", with: "''") + "'"
    case .spark, .clickhouse:
      return "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
  }

  private static func refuseNUL(_ text: String, what: String) throws(SQLError) {
    if text.utf8.contains(0) {
      throw SQLError("\(what) \(SQLError.shown(text)) holds a NUL character, which SQL text cannot hold")
    }
  }

  /// Lowercase by Unicode rules.
  func lower(_ e: String) -> String {
    switch self {
    case .duckdb, .postgres, .spark, .trino: return "lower(\(e))"
    case .clickhouse: return "lowerUTF8(\(e))"
    }
  }

  /// Text in byte (code point) order, whatever the database's collation.
  func byteOrder(_ e: String) -> String {
    switch self {
    case .postgres: return "(\(e)) COLLATE \"C\""
    case .duckdb, .spark, .trino, .clickhouse: return e
    }
  }

  /// Whether `e` holds a match of the regular expression (the literal `pattern`), unanchored.
  func matches(_ e: String, _ pattern: String) -> String {
    switch self {
    case .duckdb: return "regexp_matches(\(e), \(pattern))"
    case .postgres: return "(\(e) ~ \(pattern))"
    case .spark: return "(\(e) RLIKE \(pattern))"
    case .trino: return "regexp_like(\(e), \(pattern))"
    case .clickhouse: return "match(\(e), \(pattern))"
    }
  }

  /// `e` with the first match of `pattern` replaced by `groups` concatenated (1-based).
  func replaceFirst(_ e: String, _ pattern: String, groups: ClosedRange<Int>) throws(SQLError) -> String {
    let group: (Int) -> String
    switch self {
    case .spark, .trino: group = { "$\($0)" }
    case .duckdb, .postgres, .clickhouse: group = { "\\\($0)" }
    }
    let replacement = try literal(groups.map(group).joined())
    switch self {
    case .clickhouse: return "replaceRegexpOne(\(e), \(pattern), \(replacement))"
    case .duckdb, .postgres, .spark, .trino: return "regexp_replace(\(e), \(pattern), \(replacement))"
    }
  }

  /// `e` padded on the right with `0` to `width` characters.
  func padRight(_ e: String, width: Int) -> String {
    switch self {
    case .clickhouse: return "rightPad(\(e), \(width), '0')"
    case .duckdb, .postgres, .spark, .trino: return "rpad(\(e), \(width), '0')"
    }
  }

  /// Whether `needle` (already lowercase) is inside `haystack`.
  func contains(_ haystack: String, _ needle: String) -> String {
    switch self {
    case .spark: return "(instr(\(haystack), \(needle)) > 0)"
    case .clickhouse: return "(positionUTF8(\(haystack), \(needle)) > 0)"
    case .duckdb, .postgres, .trino: return "(strpos(\(haystack), \(needle)) > 0)"
    }
  }

  /// `e` with every `from` replaced by `to` (both literals).
  func replaceAll(_ e: String, _ from: String, _ to: String) -> String {
    switch self {
    case .clickhouse: return "replaceAll(\(e), \(from), \(to))"
    case .duckdb, .postgres, .spark, .trino: return "replace(\(e), \(from), \(to))"
    }
  }

  /// Number text (already without separators) cast to the floating-point type: where the
  /// dialect has it, a cast that gives NULL instead of failing.
  func castToNumber(_ e: String) -> String {
    switch self {
    case .duckdb, .trino: return "TRY_CAST(\(e) AS \(double))"
    case .postgres, .spark, .clickhouse: return "CAST(\(e) AS \(double))"
    }
  }

  /// The character that escapes `%`, `_` and itself in a `LIKE` pattern.
  var likeEscape: Character {
    switch self {
    case .clickhouse: return "\\"
    case .duckdb, .postgres, .spark, .trino: return "!"
    }
  }

  /// `e LIKE pattern` with `likeEscape` as the escape; ClickHouse has no `ESCAPE` clause and
  /// escapes with a backslash.
  func like(_ e: String, _ pattern: String) -> String {
    switch self {
    case .clickhouse: return "(\(e) LIKE \(pattern))"
    case .duckdb, .postgres, .spark, .trino: return "(\(e) LIKE \(pattern) ESCAPE '!')"
    }
  }

  /// Whether it reads Parquet files itself (DuckDB `read_parquet`, Spark `parquet.\`path\``).
  var readsParquet: Bool {
    switch self {
    case .duckdb, .spark: return true
    case .postgres, .trino, .clickhouse: return false
    }
  }

  /// Whether the statement reads a Parquet file's or a table's typed columns in their own types
  /// (Docs/Engines.md, Typed columns); the other dialects read every column as text.
  var readsTypedColumns: Bool {
    switch self {
    case .duckdb, .spark: return true
    case .postgres, .trino, .clickhouse: return false
    }
  }

  /// Whether a floating-point `e` is a number: neither `nan` nor an infinity (sift reads
  /// neither as a number).
  func isFinite(_ e: String) -> String {
    switch self {
    case .duckdb: return "isfinite(\(e))"
    case .spark: return "(NOT isnan(\(e)) AND abs(\(e)) < CAST('Infinity' AS DOUBLE))"
    case .postgres: return "(\(e) <> 'NaN' AND abs(\(e)) <> 'Infinity')"
    case .trino: return "is_finite(\(e))"
    case .clickhouse: return "isFinite(\(e))"
    }
  }

  /// A wall time `text` (`2024-06-01 10:00:00.000000`) as a literal of a typed column's type:
  /// `TIMESTAMP` (Spark `TIMESTAMP_NTZ`), or with `inUTC` an instant in UTC for a column of
  /// instants (DuckDB `TIMESTAMPTZ`, Spark's `TIMESTAMP`).
  func timestampLiteral(_ text: String, inUTC: Bool) -> String {
    switch self {
    case .spark: return inUTC ? "TIMESTAMP '\(text)Z'" : "TIMESTAMP_NTZ '\(text)'"
    case .duckdb, .postgres: return inUTC ? "TIMESTAMPTZ '\(text)+00'" : "TIMESTAMP '\(text)'"
    case .trino: return inUTC ? "TIMESTAMP '\(text) UTC'" : "TIMESTAMP '\(text)'"
    case .clickhouse:
      return inUTC ? "toDateTime64('\(text)', 6, 'UTC')" : "toDateTime64('\(text)', 6)"
    }
  }

  /// A `DATE` (`date`) or timestamp literal after (`later`) or before every value of a typed
  /// column, for a bound before year 0 or from year 10000 on; Spark has no such value.
  func beyondEveryTime(later: Bool, date: Bool) throws(SQLError) -> String {
    switch self {
    case .duckdb, .postgres, .trino, .clickhouse:
      return (later ? "'infinity'" : "'-infinity'") + "::" + (date ? "DATE" : "TIMESTAMP")
    case .spark:
      throw SQLError(
        "spark cannot compare a typed date column with a date before year 0 or after 9999")
    }
  }

  /// A column `c` of `type` as an output column: ClickHouse writes a NULL as `\N` in CSV, so an
  /// empty or missing value is written empty; Spark's CSV writes a timestamp in ISO form
  /// (`2024-06-12T07:47:02.000`), so it is written as its text (`2024-06-12 07:47:02`), as
  /// DuckDB writes it.
  func output(_ c: String, type: SQLColumnType) -> String {
    switch self {
    case .clickhouse: return "ifNull(\(c), '')"
    case .spark:
      switch type {
      case .timestamp, .timestampWithZone: return "CAST(\(c) AS STRING)"
      case .text, .other, .integer, .decimal, .double, .date: return c
      }
    case .duckdb, .postgres, .trino: return c
    }
  }

  /// Whether a file is loaded into a table that already numbers its rows (Postgres's `COPY`
  /// into a table with an identity column), so the relation needs no row number of its own.
  var loadsNumberedRows: Bool {
    switch self {
    case .postgres: return true
    case .duckdb, .spark, .trino, .clickhouse: return false
    }
  }

  /// The binary floating-point type.
  var double: String {
    switch self {
    case .postgres: return "DOUBLE PRECISION"
    case .clickhouse: return "Float64"
    case .duckdb, .spark, .trino: return "DOUBLE"
    }
  }

  /// The text type (Spark refuses a `VARCHAR` without a length).
  var text: String {
    switch self {
    case .clickhouse: return "String"
    case .spark: return "STRING"
    case .duckdb, .postgres, .trino: return "VARCHAR"
    }
  }

  /// A number as a literal of the floating-point type, exactly.
  func number(_ n: Double) throws(SQLError) -> String {
    "CAST(\(try literal("\(n)")) AS \(double))"
  }

  /// The aggregate that picks a value at the smallest (or largest) key, ties in no fixed
  /// order, where no ordered aggregate is written (Trino; ClickHouse's and Spark's largest text
  /// or date).
  func valueAtExtreme(largest: Bool) -> String {
    switch self {
    case .clickhouse: return largest ? "argMax" : "argMin"
    case .duckdb, .postgres, .spark, .trino: return largest ? "max_by" : "min_by"
    }
  }
}

/// A query that a dialect cannot express, or a name or value SQL cannot hold: an error naming
/// it, never a silently different statement (Docs/Engines.md).
public struct SQLError: Error, Sendable, Equatable {
  public var message: String
  public init(_ message: String) { self.message = message }

  /// Text quoted for a message, control characters shown as escapes.
  static func shown(_ text: String) -> String {
    var out = "'"
    for u in text.unicodeScalars {
      if u.value < 0x20 || u.value == 0x7F {
        out += "\\u{" + String(u.value, radix: 16) + "}"
      } else {
        out.unicodeScalars.append(u)
      }
    }
    return out + "'"
  }
}
