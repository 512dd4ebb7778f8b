/// A FILE's path as the engines read it (Docs/Engines.md, Sources): DuckDB, Spark and
/// ClickHouse read a path with `*`, `?`, `[` or `{` as a pattern of file names, so `grn?.csv`
/// would read `grn1.csv` and `grn2.csv` too. Such a path is refused by name, never read as a
/// pattern. Postgres's `COPY` reads the path as it is.
enum SQLFileName {
  /// The characters a dialect's file reader takes as a pattern.
  static func patternCharacters(_ dialect: SQLDialect) -> Set<Character> {
    switch dialect {
    case .duckdb: return ["*", "?", "["]
    case .spark: return ["*", "?", "[", "{", "\\"]
    case .clickhouse: return ["*", "?", "{"]
    case .postgres, .trino: return []
    }
  }

  /// Throws where `path` holds a character the dialect reads as a pattern, or (Spark) a `:`.
  static func check(_ path: String, _ dialect: SQLDialect) throws(SQLError) {
    if path.contains(":") && !permitsColon(dialect) {
      throw SQLError(
        "the file name \(SQLError.shown(path)) holds ':', which \(dialect.rawValue)'s file system "
          + "(Hadoop's paths) cannot read in a file's name; copy or rename the file")
    }
    let special = patternCharacters(dialect)
    guard let c = path.first(where: { special.contains($0) }) else { return }
    throw SQLError(
      "the file name \(SQLError.shown(path)) holds '\(c)', which \(dialect.rawValue) reads as a "
        + "pattern of file names (it could read other files too); copy or rename the file")
  }

  /// Whether the dialect reads a file whose path holds a `:`. Spark's Hadoop paths take what is
  /// before a `:` as a scheme, and a `:` in a file's name fails even in an absolute path (its
  /// checksum file `.a:b.csv.crc` is made a relative path): `Relative path in absolute URI`.
  static func permitsColon(_ dialect: SQLDialect) -> Bool {
    switch dialect {
    case .spark: return false
    case .duckdb, .postgres, .trino, .clickhouse: return true
    }
  }
}
