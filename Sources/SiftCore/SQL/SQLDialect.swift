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
    self == .clickhouse ? "lowerUTF8(\(e))" : "lower(\(e))"
  }

  /// Text in byte (code point) order, whatever the database's collation.
  func byteOrder(_ e: String) -> String {
    self == .postgres ? "(\(e)) COLLATE \"C\"" : e
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
    let dollar = self == .spark || self == .trino
    let replacement = try literal(groups.map { dollar ? "$\($0)" : "\\\($0)" }.joined())
    switch self {
    case .clickhouse: return "replaceRegexpOne(\(e), \(pattern), \(replacement))"
    default: return "regexp_replace(\(e), \(pattern), \(replacement))"
    }
  }

  /// `e` padded on the right with `0` to `width` characters.
  func padRight(_ e: String, width: Int) -> String {
    self == .clickhouse ? "rightPad(\(e), \(width), '0')" : "rpad(\(e), \(width), '0')"
  }

  /// Whether `needle` (already lowercase) is inside `haystack`.
  func contains(_ haystack: String, _ needle: String) -> String {
    switch self {
    case .spark: return "(instr(\(haystack), \(needle)) > 0)"
    case .clickhouse: return "(positionUTF8(\(haystack), \(needle)) > 0)"
    default: return "(strpos(\(haystack), \(needle)) > 0)"
    }
  }

  /// The binary floating-point type.
  var double: String {
    switch self {
    case .postgres: return "DOUBLE PRECISION"
    case .clickhouse: return "Float64"
    default: return "DOUBLE"
    }
  }

  /// The text type (Spark refuses a `VARCHAR` without a length).
  var text: String {
    switch self {
    case .clickhouse: return "String"
    case .spark: return "STRING"
    default: return "VARCHAR"
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
    self == .clickhouse ? (largest ? "argMax" : "argMin") : (largest ? "max_by" : "min_by")
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
