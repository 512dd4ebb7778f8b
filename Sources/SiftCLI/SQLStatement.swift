#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

/// A query made ready for `--sql` and `--engine` (Docs/Engines.md): planned against the FILE's
/// sample (reading no more records than the sample), a Parquet file's or a table's fields.
struct SQLStatement: ModeSteps {
  let job: Job
  let frontend: Frontend
  /// DuckDB's client kept open for the run (`--engine duckdb`): a Parquet file's or a table's
  /// `DESCRIBE` goes to it, and the statement after (Docs/Engines.md, Engines). Without one
  /// (`--sql`), the `DESCRIBE` starts a client of its own.
  var session: DuckDBSession? = nil

  /// A query ready for an engine: its plan, its statement's writer, the inputs it was planned
  /// against, and the DuckDB database its table lives in.
  struct Prepared {
    var plan: Plan
    var writer: SQLWriter
    var inputs: Inputs
    var database: String?
  }

  /// The query planned against the names and types of its source (Docs/Engines.md, Sources):
  /// the one FILE's sample; a Parquet file's or a table's from the engine's `DESCRIBE`. Its
  /// writer is for `options.sql` or the engine's dialect. The job has checked that there is
  /// one FILE, or a table.
  func prepare() throws(Problem) -> Prepared {
    let dialect = options.sql ?? options.engine?.dialect ?? .duckdb
    let file = options.files.count == 1 && options.files[0] != "-" ? options.files[0] : nil
    if options.skipBad {
      // The engines' readers neither skip bad records as sift does nor say which they left out:
      // refused, never dropped (Docs/Engines.md, Sources).
      let mode = options.engine.map { "--engine \($0.rawValue)" } ?? "--sql \(dialect.rawValue)"
      throw .usage(UsageError(
        "--skip-bad cannot be passed to \(mode): the engine's reader does not skip bad records as "
          + "sift does, nor say which it left out",
        hint: "drop --skip-bad, or run the query with sift itself"))
    }
    if let table = options.table, file.map({ $0.hasSuffix(".duckdb") }) ?? true {
      // Only an engine knows a table's fields; a query's own names have no types, and a
      // number compared as text is a different query.
      guard options.engine == .duckdb || (options.engine == nil && file != nil) else {
        let mode = options.engine.map { "--engine \($0.rawValue)" } ?? "--sql \(dialect.rawValue)"
        throw .usage(UsageError(
          "\(mode) --table NAME needs a FILE with the table's fields (a sample export) for their names"
            + " and types" + (options.engine == nil ? "" : "; only DuckDB is asked for a table's fields"),
          hint: "sift \(mode) --table \(table) QUERY SAMPLE.csv"))
      }
      return try described(.table(table), database: file, dialect: dialect)
    }
    guard let path = file else { throw .noInput }
    // The engine reads FILE itself after sift has sampled it: a pipe's bytes come only once
    // (Docs/Formats.md, Pipes and devices).
    var status = stat()
    if let engine = options.engine, stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
      throw .input(
        InputError(
          name: path, line: 0, column: 0,
          message: "is not a regular file (a pipe or a device): --engine \(engine.rawValue) reads"
            + " FILE after sift samples it, and a pipe's bytes come only once; save it to a file first"),
        hint: nil)
    }
    if path.hasSuffix(".parquet") {
      return try described(.parquet(path: path), database: nil, dialect: dialect)
    }
    let inputs = try frontend.open(options)
    let dataset = inputs.dataset(parallel: frontend.parallel(options))
    let plan = try frontend.plan(
      query, over: dataset, now: now, for: job.intent, text: options.query, view: view)
    for note in query.notes { frontend.console.note(note + "\n") }
    let decided = inputs.decisions.first
    if options.table == nil, let decided, decided.encoding != .utf8 {
      // The dialects read the file's bytes as UTF-8 (Docs/Formats.md, Encodings).
      throw .usage(UsageError(
        "--sql and --engine read \(path) as UTF-8, but sift reads it as \(decided.encoding.name)",
        hint: "convert it first: iconv -f "
          + (decided.encoding == .latin1 ? "ISO-8859-1" : decided.encoding.name)
          + " -t UTF-8 \(path) > utf8.csv"))
    }
    // A TSV quoted as CSV is CSV with a tab as the delimiter (Docs/Formats.md, TSV).
    let quotedTSV = inputs.formats[0] == .tsv && decided?.options.quoting == true
    let format = quotedTSV ? .csv : inputs.formats[0]
    let delimiter = inputs.first?.textStyle.delimiter ?? UInt8(ascii: ",")
    // Spark reads a CSV file in parallel parts unless a quoted value holds a line break
    // (Docs/Engines.md, Spark reads files in parts); a `.gz` is one part anyway.
    var lineBreak: Int?
    if dialect == .spark, options.table == nil, format == .csv, !path.hasSuffix(".gz") {
      lineBreak = try SQLStatement.lineBreakInQuotes(path, delimiter: delimiter)
      if let lineBreak {
        frontend.console.note("note: spark reads \(path) with multiLine, in one part: line "
          + "\(lineBreak) holds a line break inside quotes\n")
      }
    }
    // Postgres's `COPY … FROM` reads the file on the server, from the server's own directory:
    // a relative path is made absolute, and said (Docs/Engines.md, Dialects), where Postgres
    // loads the file at all (CSV and TSV, not `.gz`: SQLSource refuses the others).
    var serverPath = path
    if dialect == .postgres, options.table == nil, !path.hasPrefix("/"),
      format == .csv || format == .tsv, !path.hasSuffix(".gz")
    {
      serverPath = absolutePath(path, from: frontend.currentDirectory)
      frontend.console.note("note: postgres reads \(path) on the server (COPY … FROM), not from your "
        + "directory: the statement names \(serverPath), which a server on another machine must "
        + "see at that path\n")
    }
    let source: SQLSource = options.table.map { .table($0) } ?? .file(
      path: serverPath, format: format, delimiter: delimiter, header: !options.noHeader,
      lineBreakInQuotes: lineBreak)
    var writer = SQLWriter(plan: plan, dialect: dialect, source: source)
    writer.queryText = options.query
    return Prepared(plan: plan, writer: writer, inputs: inputs, database: nil)
  }

  /// A Parquet file or a table (in `database`, a DuckDB file, else the client's own): its
  /// names and types from DuckDB's `DESCRIBE`, a text column's type from its first records
  /// (Docs/Engines.md, Sources).
  private func described(_ source: SQLSource, database: String?, dialect: SQLDialect)
    throws(Problem) -> Prepared
  {
    // The dialect must read the source (only DuckDB reads Parquet); DuckDB describes it.
    _ = try SQLStatement.sql(source) { () throws(SQLError) in try source.typedRelation(dialect) }
    let relation = try SQLStatement.sql(source) { () throws(SQLError) in
      try source.typedRelation(.duckdb)
    }
    let client = frontend.engineClient(.duckdb)
    let files = try client.run(
      setup: [], queries: ["DESCRIBE SELECT * FROM \(relation)",
        "SELECT * FROM \(relation) LIMIT \(TypeInference.sampleSize)"], database: database,
      session: session, more: true)
    defer { EngineClient.remove(files) }
    let described = try client.rows(files[0])
    let schema = Schema(names: described.map { $0[0] })
    let engineTypes = described.map { ColumnType(engineType: $0[1]) }
    // A text column (`VARCHAR`) is typed by its first records, as a file's field is.
    let sample: Dataset
    do throws(InputError) {
      sample = Dataset(inputs: [DatasetInput(reader: try ReaderFactory.makeReader(
        source: try ByteSource(path: files[1]), format: .csv, options: ReaderOptions(name: "duckdb")
      ).reader)], parallel: ParallelOptions(workers: 1))
    } catch {
      throw .input(error, hint: nil)
    }
    // Typed date columns are compared with bounds in `--tz`'s zone (Docs/Engines.md, Typed columns).
    let zone = DateConvention(order: .ymd, zone: try frontend.zone(options))
    let plan = try frontend.plan(text: options.query, view: view) { () throws(PlanError) in
      try Plan(
        query: query, schema: schema, now: now, intent: job.intent,
        typeOf: { engineTypes[$0.index] == .text ? sample.type(of: $0) : engineTypes[$0.index] },
        conventionOf: { _ in zone })
    }
    var inputs = Inputs()
    inputs.formats = [.csv]
    var writer = SQLWriter(plan: plan, dialect: dialect, source: source)
    writer.columnTypes = described.map { SQLColumnType(engineType: $0[1]) }
    writer.queryText = options.query
    return Prepared(plan: plan, writer: writer, inputs: inputs, database: database)
  }

  /// The line of the file's first quoted value that holds a line break, read through the
  /// whole file: a break after the sample, read without `multiLine`, would split its record
  /// in silence.
  static func lineBreakInQuotes(_ path: String, delimiter: UInt8) throws(Problem) -> Int? {
    var finder = QuotedLineBreakFinder(delimiter: delimiter)
    let failed = { () -> Problem in
      .input(InputError(name: path, line: 0, column: 0, message: String(cString: strerror(errno))),
        hint: nil)
    }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw failed() }
    defer { close(fd) }
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
    defer { chunk.deallocate() }
    while finder.found == nil {
      let n = read(fd, chunk.baseAddress, chunk.count)
      if n < 0 && errno == EINTR { continue }
      if n < 0 { throw failed() }
      if n == 0 { break }
      finder.feed(UnsafeBufferPointer(rebasing: chunk[..<n]))
    }
    return finder.found
  }

  /// What `make` writes; a query the dialect cannot express is an error naming it, exit 2,
  /// with a hint that suits `source`: sift itself reads files, not Parquet or tables.
  static func sql<T>(_ source: SQLSource, _ make: () throws(SQLError) -> T) throws(Problem) -> T {
    do throws(SQLError) { return try make() } catch {
      throw .usage(UsageError(error.message, hint: hint(source)))
    }
  }

  /// Where to go when the SQL cannot be written.
  static func hint(_ source: SQLSource) -> String {
    switch source {
    case .file: return "run the query with sift itself"
    case .parquet(let path):
      return "sift does not read Parquet itself; to run the query with sift, export the columns "
        + "you need as CSV first: duckdb -c \"COPY (FROM '\(path)') TO 'data.csv'\""
    case .table(let name):
      return "sift does not read tables itself; to run the query with sift, export \(name) as CSV first"
    }
  }
}

extension ColumnType {
  /// The type sift gives a column of an engine's type (`BIGINT`, `DECIMAL(10,2)`, `DATE`), as
  /// `SQLColumnType` reads the type's name.
  init(engineType: String) {
    switch SQLColumnType(engineType: engineType) {
    case .integer, .decimal, .double: self = .number
    case .date: self = .date
    case .timestamp, .timestampWithZone: self = .dateTime
    case .text: self = .text
    case .other: self = engineType.uppercased() == "BOOLEAN" ? .boolean : .text
    }
  }
}
