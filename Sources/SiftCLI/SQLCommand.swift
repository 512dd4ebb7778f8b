#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

/// `--sql DIALECT`: prints the query as SQL, planned against the FILE's sample, and reads no
/// more records than the sample (Docs/Engines.md).
struct SQLCommand {
  let options: Options
  let query: Query
  let context: ProcessContext
  /// "Now" for relative dates, resolved once with the job.
  let now: WallTime
  var console: Console { Console(context: context) }

  func run() -> ExitStatus {
    do throws(Problem) {
      let prepared = try SQLCommand.prepare(options, query: query, context: context, now: now)
      return console.output(try SQLCommand.sql(prepared.writer.source, prepared.writer.text)) ?? .matched
    } catch {
      return console.report(error)
    }
  }

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
  static func prepare(
    _ options: Options, query: Query, context: ProcessContext, now: WallTime
  ) throws(Problem) -> Prepared {
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
      return try described(.table(table), database: file, dialect: dialect, options, query: query,
        context: context, now: now)
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
      return try described(.parquet(path: path), database: nil, dialect: dialect, options, query: query,
        context: context, now: now)
    }
    let inputs = try Inputs.open(options, context: context)
    let dataset = inputs.dataset(parallel: options.parallel)
    let plan = try dataset.plan(
      query, now: now, for: options.intent, text: options.query, view: nil)
    for note in query.notes { Console(context: context).note(note + "\n") }
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
    let source: SQLSource = options.table.map { .table($0) } ?? .file(
      path: path, format: quotedTSV ? .csv : inputs.formats[0],
      delimiter: inputs.first?.textStyle.delimiter ?? UInt8(ascii: ","), header: !options.noHeader)
    let writer = SQLWriter(plan: plan, dialect: dialect, source: source)
    return Prepared(plan: plan, writer: writer, inputs: inputs, database: nil)
  }

  /// A Parquet file or a table (in `database`, a DuckDB file, else the client's own): its
  /// names and types from DuckDB's `DESCRIBE`, a text column's type from its first records
  /// (Docs/Engines.md, Sources).
  private static func described(
    _ source: SQLSource, database: String?, dialect: SQLDialect, _ options: Options, query: Query,
    context: ProcessContext, now: WallTime
  ) throws(Problem) -> Prepared {
    // The dialect must read the source (only DuckDB reads Parquet); DuckDB describes it.
    _ = try sql(source) { () throws(SQLError) in try source.typedRelation(dialect) }
    let relation = try sql(source) { () throws(SQLError) in try source.typedRelation(.duckdb) }
    let client = EngineClient(engine: .duckdb, context: context)
    let files = try client.run(
      setup: [], queries: ["DESCRIBE SELECT * FROM \(relation)",
        "SELECT * FROM \(relation) LIMIT \(TypeInference.sampleSize)"], database: database)
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
    let plan: Plan
    do throws(PlanError) {
      plan = try Plan(query: query, schema: schema, now: now, intent: options.intent) {
        engineTypes[$0.index] == .text ? sample.type(of: $0) : engineTypes[$0.index]
      }
    } catch {
      throw .plan(error, query: options.query, view: nil)
    }
    var inputs = Inputs()
    inputs.formats = [.csv]
    let writer = SQLWriter(plan: plan, dialect: dialect, source: source)
    return Prepared(plan: plan, writer: writer, inputs: inputs, database: database)
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
  /// The type sift gives a column of an engine's type (`BIGINT`, `DECIMAL(10,2)`, `DATE`).
  init(engineType: String) {
    let t = engineType.uppercased()
    if ["INT", "DECIMAL", "NUMERIC", "DOUBLE", "FLOAT", "REAL"].contains(where: { t.contains($0) }) {
      self = .number
    } else if t == "DATE" {
      self = .date
    } else if t.hasPrefix("TIMESTAMP") || t.hasPrefix("DATETIME") {
      self = .dateTime
    } else if t == "BOOLEAN" {
      self = .boolean
    } else {
      self = .text
    }
  }
}
