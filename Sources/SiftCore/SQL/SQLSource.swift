/// Where a statement reads its records (Docs/Engines.md, Sources): a file through the dialect's
/// own reader, or a table of the engine.
public enum SQLSource: Sendable {
  /// A file read as text in every column; `delimiter` for CSV, `header` false with `--no-header`.
  /// `lineBreakInQuotes`: the line of the file's first quoted value that holds a line break, if
  /// the CLI looked and found one (Spark then reads the file with `multiLine`, in one part).
  case file(
    path: String, format: InputFormat, delimiter: UInt8, header: Bool, lineBreakInQuotes: Int? = nil)
  /// A table or view of the engine, `schema.table` allowed.
  case table(String)
  /// A Parquet file, which DuckDB and Spark read.
  case parquet(path: String)

  /// The settings a statement reading this source ends with: ClickHouse's `file` reader takes a
  /// CSV delimiter other than a comma only as a setting of the query (`format_csv_delimiter`);
  /// `nil` where none is needed.
  func settings(_ dialect: SQLDialect) throws(SQLError) -> String? {
    guard dialect == .clickhouse, case .file(_, .csv, let delimiter, _, _) = self,
      delimiter != UInt8(ascii: ",")
    else { return nil }
    let text = String(decoding: [delimiter], as: UTF8.self)
    return "SETTINGS format_csv_delimiter = \(try dialect.literal(text))"
  }

  /// Whether a NULL column means a missing field (JSON keys) rather than an empty value.
  var nullIsMissing: Bool {
    if case .file(_, let format, _, _, _) = self { return format == .json || format == .ndjson }
    return false
  }

  /// What the statement's `source` stage reads (Docs/Engines.md, Readable statements): the
  /// statements that must run first, the select list and the reader, each its own part.
  struct Relation {
    /// Spark's temporary view, Postgres's loaded table.
    var setup: [String]
    /// `*`, or the columns as read (each in its type, or cast to text) and the input order.
    var columns: String
    /// The dialect's reader call, a table's name, or Spark's and Postgres's loaded input.
    var reader: String

    /// The `SELECT` and `FROM` lines of the `source` stage.
    var lines: [String] { ["SELECT \(columns)", "FROM \(reader)"] }
  }

  /// The relation the query reads: every field as text, or with `types` (DuckDB reading a
  /// Parquet file or a table, Docs/Engines.md, Typed columns) each typed column in its own type;
  /// with `row`, the input order in a column of that name. The fields at `json` (DuckDB reading
  /// JSON, for nested fields) are read in DuckDB's `JSON` type too (SQLNestedField.jsonColumn).
  func relation(
    _ dialect: SQLDialect, fields: [String], row: String?, types: [SQLColumnType]? = nil,
    json: Set<Int> = []
  ) throws(SQLError) -> Relation {
    let columns = try fields.map { (f: String) throws(SQLError) in try dialect.identifier(f) }
    let rowNumber: String
    switch dialect {
    case .spark: rowNumber = "monotonically_increasing_id()"
    case .clickhouse: rowNumber = "rowNumberInAllBlocks()"
    case .duckdb, .postgres, .trino: rowNumber = "row_number() OVER ()"
    }
    switch self {
    case .table, .parquet:
      let read = zip(columns, types ?? columns.map { _ in .other }).map { (c, type) in
        type == .other ? "CAST(\(c) AS \(dialect.text)) AS \(c)" : c
      }
      var reader = try typedRelation(dialect)
      var position: [String] = []
      if let row {
        position = ["\(parquetRowPosition(dialect, reader: &reader) ?? rowNumber) AS \(row)"]
      }
      return Relation(setup: [], columns: (read + position).joined(separator: ", "), reader: reader)
    case .file(let path, let format, let delimiter, let header, let lineBreak):
      let (setup, reader) = try fileReader(
        dialect, path: path, format: format, delimiter: delimiter, header: header, fields: fields,
        lineBreakInQuotes: lineBreak, json: json)
      guard let row, !dialect.loadsNumberedRows else {
        return Relation(setup: setup, columns: "*", reader: reader)
      }
      return Relation(setup: setup, columns: "*, \(rowNumber) AS \(row)", reader: reader)
    }
  }

  /// A Parquet file's own row position, where the dialect reads one (the reader made to give
  /// it): DuckDB's `file_row_number`, Spark's `_metadata.row_index`, each the row's place in the
  /// file and deterministic, so the filter is still pushed into the scan (Docs/Engines.md,
  /// Input order). `nil` for a table, or another dialect.
  private func parquetRowPosition(_ dialect: SQLDialect, reader: inout String) -> String? {
    guard case .parquet = self else { return nil }
    switch dialect {
    case .duckdb:
      reader.removeLast()
      reader += ", file_row_number = true)"
      return "file_row_number"
    case .spark: return "_metadata.row_index"
    case .postgres, .trino, .clickhouse: return nil
    }
  }

  /// A table's name, or the reader of a Parquet file: columns of the engine's own types.
  public func typedRelation(_ dialect: SQLDialect) throws(SQLError) -> String {
    switch self {
    case .table(let name):
      return try name.split(separator: ".", omittingEmptySubsequences: false).map {
        (p: Substring) throws(SQLError) in try dialect.identifier(String(p))
      }.joined(separator: ".")
    case .parquet(let path):
      guard dialect.readsParquet else {
        throw SQLError("\(dialect.rawValue) does not read Parquet files here; use --table NAME")
      }
      try SQLFileName.check(path, dialect)
      switch dialect {
      case .spark: return "parquet.\(try dialect.identifier(path))"
      case .duckdb, .postgres, .trino, .clickhouse:
        return "read_parquet(\(try dialect.literal(path)))"
      }
    case .file:
      throw SQLError("a CSV or JSON file has no engine types")
    }
  }

  /// The dialect's reader of a file, every column as text.
  private func fileReader(
    _ dialect: SQLDialect, path: String, format: InputFormat, delimiter: UInt8, header: Bool,
    fields: [String], lineBreakInQuotes: Int?, json: Set<Int>
  ) throws(SQLError) -> (setup: [String], reader: String) {
    // A workbook's cells are read by sift's own rules (Docs/Formats.md, Workbooks), which no
    // engine's reader follows: refused rather than answered differently.
    if ReaderFactory.isWorkbookName(path) || path.lowercased().hasSuffix(".zip") {
      throw SQLError(
        "\(dialect.rawValue) would not read \(path) as sift does (a workbook or ZIP archive);"
          + " write it as CSV first: sift -o csv '' \(path) > table.csv")
    }
    try SQLFileName.check(path, dialect)
    let file = try dialect.literal(path)
    let names = try fields.map { (f: String) throws(SQLError) in try dialect.literal(f) }
    let columns = try fields.map { (f: String) throws(SQLError) in try dialect.identifier(f) }
    let separator = try dialect.literal(
      format == .tsv ? "\t" : String(decoding: [delimiter], as: UTF8.self))
    let delimited = format == .csv || format == .tsv
    let gzip = path.hasSuffix(".gz")
    switch dialect {
    case .duckdb:
      if delimited {
        let quoting = format == .tsv ? "quote = '', escape = ''" : "quote = '\"', escape = '\"'"
        return ([], "read_csv(\(file), header = \(header), all_varchar = true, delim = \(separator), "
          + "\(quoting), null_padding = true, auto_detect = false, columns = {"
          + names.map { "\($0): 'VARCHAR'" }.joined(separator: ", ") + "})")
      }
      let shape = format == .json ? "array" : "newline_delimited"
      let reader = "read_json(\(file), format = '\(shape)', columns = {"
        + names.enumerated().map { "\($1): '\(json.contains($0) ? "JSON" : "VARCHAR")'" }
          .joined(separator: ", ") + "})"
      if json.isEmpty { return ([], reader) }
      // A column read as JSON keeps its JSON for nested paths and gives the text a VARCHAR
      // column would hold (`->>'$'`: a string without its quotes).
      let sorted = json.sorted()
      let texts = sorted.map { "\(columns[$0])->>'$' AS \(columns[$0])" }
      let kept = sorted.map { "\(columns[$0]) AS \(SQLNestedField.jsonColumn($0))" }
      return ([], "(SELECT * REPLACE (\(texts.joined(separator: ", "))), "
        + "\(kept.joined(separator: ", ")) FROM \(reader))")
    case .postgres:
      guard delimited, !gzip else {
        throw SQLError("postgres loads CSV and TSV files only (not \(format.rawValue)"
          + (gzip ? ".gz" : "") + "); load it into a table and use --table NAME")
      }
      let table = "sift_input"
      let create = "CREATE TEMPORARY TABLE \(table) ("
        + columns.map { "\($0) TEXT" }.joined(separator: ", ") + ", sift_row BIGSERIAL)"
      let copy = "COPY \(table) (\(columns.joined(separator: ", "))) FROM \(file) WITH (FORMAT "
        + (format == .tsv ? "text" : "csv") + ", HEADER \(header), DELIMITER \(separator))"
      return ([create, copy], table)
    case .spark:
      let view = "sift_input"
      let schema = columns.map { "\($0) STRING" }.joined(separator: ", ")
      let options: String
      var why = ""
      if delimited {
        // `multiLine` reads the whole file in one part: only where a quoted value holds a line
        // break (or a `.gz`, which is one part anyway), which the CLI looked for in the file.
        let multiLine = format == .csv && (gzip || lineBreakInQuotes != nil)
        if let line = lineBreakInQuotes, format == .csv, !gzip {
          why = "-- multiLine: line \(line) of the file holds a line break inside quotes, so Spark "
            + "reads it in one part\n"
        }
        options = "USING csv OPTIONS (path \(file), header '\(header)', sep \(separator), "
          + (format == .tsv ? "quote ''" : "quote '\"', escape '\"'")
          + (multiLine ? ", multiLine 'true'" : "") + ")"
      } else {
        options = "USING json OPTIONS (path \(file), multiLine '\(format == .json)')"
      }
      return (["\(why)CREATE OR REPLACE TEMPORARY VIEW \(view) (\(schema)) \(options)"], view)
    case .trino:
      throw SQLError("trino reads tables, not files; load the file into a table and use --table NAME")
    case .clickhouse:
      let clickFormat: String
      switch format {
      case .csv: clickFormat = header ? "CSVWithNames" : "CSV"
      case .tsv: clickFormat = header ? "TSVRawWithNames" : "TSVRaw"
      case .json, .ndjson: clickFormat = "JSONEachRow"
      }
      let structure = try dialect.literal(
        columns.map { "\($0) Nullable(String)" }.joined(separator: ", "))
      return ([], "file(\(file), '\(clickFormat)', \(structure))")
    }
  }
}
