/// A nested JSON field (`medals.gold`, Docs/QueryLanguage.md, Filter terms) in SQL
/// (Docs/Engines.md, Nested fields): the value its path reaches inside a top-level column, as
/// text, NULL where a key is missing. sift takes the first value a path reaches and fans out over
/// arrays on the way; the SQL reads one value, so a record whose path meets a non-empty array
/// stops the statement with an error naming the field, never a different answer.
enum SQLNestedField {
  /// The column a DuckDB statement reads a nested field's top-level JSON from (`sift_j3` for
  /// field 3): the file's column in DuckDB's `JSON` type, in which a string that holds JSON text
  /// is still a string.
  static func jsonColumn(_ index: Int) -> String { "sift_j\(index)" }

  /// The column that holds a nested field's value in the statement (`sift_v7`): `slot` is the
  /// field's place after the top-level fields.
  static func valueColumn(_ slot: Int) -> String { "sift_v\(slot)" }

  /// The expression of the value at `path` inside the top-level column `column` (DuckDB: its
  /// `JSON` column, `jsonColumn`), for the field named `name`; throws where the dialect reads no
  /// nested JSON (Docs/Engines.md, Nested fields).
  static func value(
    _ dialect: SQLDialect, column: String, path: [String], name: String
  ) throws(SQLError) -> String {
    let message = try dialect.literal(
      "sift: \(name) meets a JSON array on its path, whose elements SQL cannot test as sift "
        + "does; run this query with sift itself")
    switch dialect {
    case .duckdb:
      // A JSON pointer (RFC 6901): any key, `.` included, with `~` and `/` escaped.
      let pointer = { (keys: ArraySlice<String>) throws(SQLError) in
        try dialect.literal(keys.map {
          "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1")
        }.joined())
      }
      var arrays: [String] = []
      for end in 0...path.count {
        let at = end == 0 ? "" : ", \(try pointer(path[..<end]))"
        arrays.append("(json_type(\(column)\(at)) = 'ARRAY' AND json_array_length(\(column)\(at)) > 0)")
      }
      return "CASE WHEN \(arrays.joined(separator: " OR ")) THEN error(\(message)) "
        + "ELSE json_extract_string(\(column), \(try pointer(path[...]))) END"
    case .spark:
      // `get_json_object`'s path in brackets reads any key but one holding `'` or `]`.
      if let key = path.first(where: { $0.contains("'") || $0.contains("]") }) {
        throw SQLError(
          "the nested field '\(name)' has a key (\(SQLError.shown(key))) that a Spark JSON path "
            + "cannot name; name a top-level field")
      }
      let jsonPath = { (keys: ArraySlice<String>) throws(SQLError) in
        try dialect.literal("$" + keys.map { "['\($0)']" }.joined())
      }
      var arrays: [String] = []
      for end in 0...path.count {
        let at = end == 0 ? column : "get_json_object(\(column), \(try jsonPath(path[..<end])))"
        arrays.append("coalesce(json_array_length(\(at)), 0) > 0")
      }
      return "CASE WHEN \(arrays.joined(separator: " OR ")) THEN raise_error(\(message)) "
        + "ELSE get_json_object(\(column), \(try jsonPath(path[...]))) END"
    case .clickhouse:
      throw SQLError(
        "the nested field '\(name)' cannot be written for clickhouse: sift reads its JSON files "
          + "with every field as text and writes no JSONExtract paths; use --sql duckdb or "
          + "--sql spark, or name a top-level field")
    case .postgres, .trino:
      throw SQLError(
        "the nested field '\(name)' cannot be written for \(dialect.rawValue), which reads no "
          + "JSON files here (a table's columns are read as text); use --sql duckdb or "
          + "--sql spark, or name a top-level field")
    }
  }
}
