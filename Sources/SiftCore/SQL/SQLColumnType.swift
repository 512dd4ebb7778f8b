/// How an engine holds a column of a Parquet file or a table, as DuckDB's `DESCRIBE` names it
/// (Docs/Engines.md, Typed columns): the statement reads a typed column in its own type, so its
/// terms are plain comparisons the engine pushes into the scan; every other column is text.
public enum SQLColumnType: Sendable, Equatable {
  /// `VARCHAR`.
  case text
  /// Every other type, which sift reads as its text (`BOOLEAN`, `TIME`, lists, structs…): cast
  /// to text where it is read.
  case other
  /// `TINYINT` … `HUGEINT`, signed or not.
  case integer
  /// `DECIMAL(p, s)`: exact, `scale` decimals.
  case decimal(scale: Int)
  /// `FLOAT`, `DOUBLE`: binary floating point, with `nan` and infinities.
  case double
  /// `DATE`.
  case date
  /// `TIMESTAMP` (and its `_S`, `_MS`, `_NS` forms): a wall time, no zone.
  case timestamp
  /// `TIMESTAMP WITH TIME ZONE`: an instant.
  case timestampWithZone

  /// The type of DuckDB's name for it (`BIGINT`, `DECIMAL(12,2)`, `TIMESTAMP WITH TIME ZONE`).
  public init(engineType: String) {
    let t = engineType.uppercased().filter { $0 != " " }
    let integers = [
      "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER",
      "UBIGINT", "UHUGEINT", "INT", "INT1", "INT2", "INT4", "INT8",
    ]
    if integers.contains(t) {
      self = .integer
    } else if t.hasPrefix("DECIMAL(") || t.hasPrefix("NUMERIC(") {
      let scale = t.split(separator: ",").last.flatMap { Int($0.dropLast()) }
      self = scale.map { .decimal(scale: $0) } ?? .other
    } else if t == "DOUBLE" || t == "FLOAT" || t == "REAL" {
      self = .double
    } else if t == "DATE" {
      self = .date
    } else if ["TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "DATETIME"].contains(t) {
      self = .timestamp
    } else if t == "TIMESTAMPWITHTIMEZONE" || t == "TIMESTAMPTZ" {
      self = .timestampWithZone
    } else if t == "VARCHAR" || t.hasPrefix("VARCHAR(") || t == "TEXT" || t == "STRING" {
      self = .text
    } else {
      self = .other
    }
  }

  /// Whether every value that is not NULL is a number (sift reads no `nan` or `inf` as one).
  var alwaysNumber: Bool {
    switch self {
    case .integer, .decimal: return true
    case .text, .other, .double, .date, .timestamp, .timestampWithZone: return false
    }
  }

  /// Whether the values can be numbers.
  var holdsNumbers: Bool {
    switch self {
    case .integer, .decimal, .double: return true
    case .text, .other, .date, .timestamp, .timestampWithZone: return false
    }
  }

  /// Whether the values are dates or times (every one that is not NULL).
  var holdsDates: Bool {
    switch self {
    case .date, .timestamp, .timestampWithZone: return true
    case .text, .other, .integer, .decimal, .double: return false
    }
  }
}
