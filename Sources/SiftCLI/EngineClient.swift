#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

extension SQLEngine {
  /// The environment variable that names the engine's client.
  var clientVariable: String {
    switch self {
    case .duckdb: return "SIFT_DUCKDB"
    case .spark: return "SIFT_SPARK_SQL"
    }
  }

  /// The client's name on `PATH`.
  var clientName: String {
    switch self {
    case .duckdb: return "duckdb"
    case .spark: return "spark-sql"
    }
  }

  /// Where the client comes from.
  var installHint: String {
    switch self {
    case .duckdb: return "install DuckDB (https://duckdb.org) or set SIFT_DUCKDB to its client"
    case .spark: return "install Spark (pip install pyspark, and a Java runtime) or set SIFT_SPARK_SQL to its spark-sql"
    }
  }
}

/// An engine's command-line client (Docs/Engines.md, Engines): `duckdb` (`$SIFT_DUCKDB`) or
/// `spark-sql` (`$SIFT_SPARK_SQL`), else the name on `PATH`.
struct EngineClient {
  let engine: SQLEngine
  /// The process's environment: the client's variable, `$TMPDIR`, and the client's own.
  let environment: [String: String]

  /// The statements of one query in a run of the client: its setup, then its queries, each
  /// giving one result. A `--views` run has one part per view (Docs/Engines.md, Views on an
  /// engine).
  struct Part {
    var setup: [String]
    var queries: [String]
  }

  /// Why a run stopped: the part whose statement failed, the client's exit status, and the
  /// lines of its messages that say why (`reason`).
  struct Failure {
    var part: Int
    var status: Int32
    var reason: [Substring]

    /// The failure as an error: `on` names what the part was (`view @grn`), `hint` where to
    /// see its statement.
    func problem(_ engine: SQLEngine, on: String?, hint: String) -> Problem {
      .usage(UsageError(
        "\(engine.rawValue) failed\(on.map { " on \($0)" } ?? "") (exit \(status)): "
          + reason.prefix(6).joined(separator: "\n  "),
        hint: hint))
    }
  }

  /// What a run of several parts gave: the result files of the parts that finished, in order,
  /// and the failure that stopped the others (the parts after it did not run).
  struct Outcome {
    var files: [[String]]
    var failure: Failure?
  }

  /// Runs `setup`, then each query, in one run of the client; returns one CSV file per query,
  /// with a header row. `database`: a DuckDB database file, opened read-only. `readsTable`: the
  /// statements read a table of the engine's catalog (so Spark keeps the catalog its
  /// configuration names). `session`: DuckDB's client kept open for the run, where one was
  /// (else one is started and ended here); `more`: statements will follow in it. A client that
  /// cannot start, or that fails, is an error with its message.
  func run(
    setup: [String], queries: [String], database: String? = nil, readsTable: Bool = false,
    session: DuckDBSession? = nil, more: Bool = false
  ) throws(Problem) -> [String] {
    let outcome = try run(
      [Part(setup: setup, queries: queries)], database: database, readsTable: readsTable,
      session: session, more: more)
    if let failure = outcome.failure {
      throw failure.problem(engine, on: nil, hint: "sift --sql \(engine.dialect.rawValue) shows the statement")
    }
    return outcome.files[0]
  }

  /// The program that runs the engine's client: `$SIFT_DUCKDB` or `$SIFT_SPARK_SQL`, else its
  /// name on `PATH`.
  var program: String {
    environment[engine.clientVariable].flatMap { $0.isEmpty ? nil : $0 } ?? engine.clientName
  }

  /// A DuckDB client kept open for a run: the `DESCRIBE` of a Parquet file or a table and the
  /// statement sift writes from it go to one start (Docs/Engines.md, Engines).
  func session() -> DuckDBSession {
    DuckDBSession(program: program, environment: environment)
  }

  /// Runs every part, in order, in one run of the client: one process however many parts
  /// (a `--views` run starts Spark once, not once per view; DuckDB's client is `session` where
  /// one is given, and takes further statements after these where `more`). Returns each
  /// finished part's CSV files, one per query with a header row, and where a statement failed,
  /// which part's it was: the parts before it keep their results. A client that cannot start is
  /// an error.
  func run(
    _ parts: [Part], database: String? = nil, readsTable: Bool = false,
    session: DuckDBSession? = nil, more: Bool = false
  ) throws(Problem) -> Outcome {
    let program = self.program
    var template = Array(((environment["TMPDIR"] ?? "/tmp") + "/sift-engine-XXXXXX").utf8CString)
    guard let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw .usage(UsageError("cannot make a temporary folder for the engine's results"))
    }
    // A relative `$TMPDIR` is made `./…`, so that no result path begins with DuckDB's `|` (a pipe).
    let made = String(cString: dir)
    let folder = made.hasPrefix("/") ? made : "./" + made
    let queries = parts.flatMap(\.queries)
    let files = queries.indices.map { "\(folder)/result\($0).csv" }
    // The client's exit status: 0 where every statement ran.
    let status: Int32
    var said = ""
    // How many queries, from the first, gave their whole result.
    var finished = 0
    defer { rmdir(folder) }
    switch engine {
    case .duckdb:
      let client = session ?? self.session()
      defer { if session == nil { client.close() } }
      var script = ""
      var next = 0
      for part in parts {
        for statement in part.setup { script += EngineClient.scriptStatement(statement) }
        for query in part.queries {
          script += ".once \(EngineClient.dotCommandArgument(files[next]))\n"
            + EngineClient.scriptStatement(query)
          next += 1
        }
      }
      switch client.send(script, database: database, last: session == nil || !more) {
      case .finished(let text):
        (status, said) = (0, text)
      case .ended(let code, let text):
        (status, said) = (code, text)
      case .cannotStart(let reason):
        throw cannotStart(reason)
      }
      // `.once` makes its file before the query runs, and a result has at least its header:
      // the first empty or missing file is the query that failed.
      var info = stat()
      finished = files.prefix { stat($0, &info) == 0 && info.st_size > 0 }.count
    case .spark:
      let messages = "\(folder)/messages.txt"
      defer { unlink(messages) }
      let ran = try runSpark(program, parts: parts, readsTable: readsTable,
        folder: folder, files: files, messages: messages)
      said = (try? EngineClient.contents(messages)).map { String(decoding: $0, as: UTF8.self) } ?? ""
      guard let code = ran.status else {
        let reason = String(cString: strerror(errno))
        for f in files { unlink(f) }
        throw cannotStart(reason)
      }
      (status, finished) = (code, ran.finished)
    }
    // Where each part's files start, and its files.
    var starts = [0]
    for part in parts { starts.append(starts[starts.count - 1] + part.queries.count) }
    let byPart = parts.indices.map { Array(files[starts[$0]..<starts[$0 + 1]]) }
    guard status != 0 || finished < files.count else { return Outcome(files: byPart, failure: nil) }
    // The part of the first query without a result failed (the last part when every query gave
    // one); the parts before it finished.
    let failed = min(starts.dropFirst().prefix { $0 <= finished }.count, max(parts.count - 1, 0))
    for f in files[starts[failed]...] { unlink(f) }
    let reason = EngineClient.reason(said)
    return Outcome(
      files: Array(byPart.prefix(failed)),
      failure: Failure(
        part: failed, status: status,
        reason: reason.isEmpty ? ["the client gave no result for a statement, and no message"]
          : reason))
  }

  /// The error of a client that cannot be started, for `reason` (`strerror`).
  private func cannotStart(_ reason: String) -> Problem {
    .usage(UsageError("cannot run the engine '\(program)': \(reason)", hint: engine.installHint))
  }

  /// A statement as a line of a `duckdb` script: its `;` on a line of its own, so that a
  /// statement ending in a comment still ends, and the engine's messages quote its lines as
  /// they would quote it alone (`LINE 1: …`).
  static func scriptStatement(_ statement: String) -> String {
    statement + "\n;\n"
  }

  /// `spark-sql` reads a script: per part its setup, then per query a statement that writes
  /// its header as one CSV row, one that writes each of its rows as one CSV row (`to_csv`,
  /// every value quoted), and an end line. Its standard output is cut at the end lines into the
  /// files. Reading files only, it runs with Spark's in-memory catalog and a warehouse in
  /// `folder`, so nothing is left where it runs. Returns the exit status and how many queries
  /// gave their whole result (`spark-sql -f` stops at the first statement that fails).
  private func runSpark(
    _ program: String, parts: [Part], readsTable: Bool, folder: String,
    files: [String], messages: String
  ) throws(Problem) -> (status: Int32?, finished: Int) {
    var script = ""
    for part in parts {
      script += part.setup.map { $0 + ";\n" }.joined()
      for query in part.queries {
        script += EngineClient.sparkHeader(query) + ";\n"
        script += "SELECT to_csv(struct(*), map('quoteAll', 'true', 'escape', '\"')) FROM (\(query)) AS r;\n"
        script += "SELECT '\(EngineClient.sparkEnd)';\n"
      }
    }
    let scriptFile = "\(folder)/statements.sql"
    let output = "\(folder)/output.csv"
    try EngineClient.write(Array(script.utf8), to: scriptFile)
    defer {
      unlink(scriptFile)
      unlink(output)
    }
    var arguments = [program, "-S", "--conf", "spark.sql.ansi.enabled=false"]
    if !readsTable {
      arguments += ["--conf", "spark.sql.catalogImplementation=in-memory",
        "--conf", "spark.sql.warehouse.dir=\(folder)/warehouse"]
    }
    guard let status = spawn(arguments + ["-f", scriptFile], output: output, errors: messages) else {
      return (nil, 0)
    }
    rmdir("\(folder)/warehouse")
    let parts = EngineClient.sparkParts((try? EngineClient.contents(output)) ?? [])
    for (file, part) in zip(files, parts) { try EngineClient.write(part, to: file) }
    guard status == 0 else { return (status, parts.count) }
    guard parts.count == files.count else {
      try EngineClient.write(Array("spark-sql wrote \(parts.count) results for \(files.count) queries\n".utf8), to: messages)
      return (1, min(parts.count, files.count))
    }
    return (0, files.count)
  }

  /// The line that ends a query's output in `spark-sql`'s standard output: every CSV row starts
  /// with a quote, so no row can be it.
  static let sparkEnd = "sift-end-of-result"

  /// A statement whose one row is the query's column names as a CSV row. Spark's `to_json`
  /// of a row of NULLs (the query cut to no rows, joined to one row) keeps every name, in
  /// order; no row of the query is computed.
  static func sparkHeader(_ query: String) -> String {
    "SELECT concat_ws(',', transform(map_keys(from_json(to_json(struct(r.*), "
      + "map('ignoreNullFields', 'false')), 'map<string,string>')), "
      + "k -> concat('\"', replace(k, '\"', '\"\"'), '\"')))\n"
      + "FROM (SELECT 1) AS d LEFT JOIN (SELECT * FROM (\(query)) AS q LIMIT 0) AS r ON TRUE"
  }

  /// `spark-sql`'s standard output cut at the end lines: a line is an end line when it is
  /// `sparkEnd` and starts a row (an even number of quotes before it).
  static func sparkParts(_ output: [UInt8]) -> [[UInt8]] {
    let end = Array(sparkEnd.utf8)
    var parts: [[UInt8]] = []
    var part: [UInt8] = []
    var quotes = 0
    for line in output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      if quotes % 2 == 0 && line.elementsEqual(end) {
        parts.append(part)
        part = []
        continue
      }
      part += line
      part.append(UInt8(ascii: "\n"))
      quotes += line.count(where: { $0 == UInt8(ascii: "\"") })
    }
    return parts
  }

  /// Whether a line of a client's messages is its chatter rather than the error: the JVM's
  /// warnings (`WARNING: Using incubator modules: …`), Spark's log lines (`26/11/26 15:18:22
  /// ERROR Executor: …`), timings, stack frames and their tails.
  static func isNoise(_ line: Substring) -> Bool {
    let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
    let logLine = line.first?.isNumber == true
      && (line.contains(" WARN ") || line.contains(" INFO ") || line.contains(" ERROR "))
    return trimmed.isEmpty || trimmed.hasPrefix("at ") || trimmed.hasPrefix("... ")
      || trimmed.hasPrefix("Suppressed: ") || line.contains(" WARN ") || line.contains(" INFO ")
      || logLine || line.hasPrefix("WARNING: ") || line.hasPrefix("Using Spark's") || line.hasPrefix("Setting default log level")
      || line.hasPrefix("To adjust logging level") || line.hasPrefix("Time taken:")
  }

  /// The lines of a client's messages that say why it failed: without its chatter; where Spark
  /// names an error class (`[USER_RAISED_EXCEPTION] sift: …`), only its last such line, without
  /// the exception's class before it and the `SQLSTATE` after it.
  static func reason(_ said: String) -> [Substring] {
    let lines = said.split(separator: "\n").filter { !isNoise($0) }
    let classed = lines.compactMap { (line: Substring) -> Substring? in
      guard let open = line.firstRange(of: "["), let close = line[open.upperBound...].firstIndex(of: "]"),
        close > open.upperBound,
        line[open.upperBound..<close].allSatisfy({ $0.isUppercase || $0 == "_" || $0 == "." })
      else { return nil }
      let from = line[open.lowerBound...]
      return from.firstRange(of: " SQLSTATE: ").map { from[..<$0.lowerBound] } ?? from
    }
    return classed.last.map { [$0] } ?? lines
  }

  /// Runs `arguments` with standard output into the file `output` and standard error into
  /// `errors`; the exit status, or `nil` when it cannot start.
  private func spawn(_ arguments: [String], output: String, errors: String) -> Int32? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let variables = environment.map { "\($0.key)=\($0.value)" }
    var pid = pid_t()
    let started = withCStrings(arguments) { argv in
      withCStrings(variables) { envp in posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) }
    }
    guard started == 0 else {
      errno = started
      return nil
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  /// The rows of a CSV result file (its header row left out), removed once read.
  func rows(_ path: String) throws(Problem) -> [[String]] {
    defer { unlink(path) }
    let collector = RowCollector()
    do throws(InputError) {
      let reader = try ReaderFactory.makeReader(
        source: try ByteSource(path: path), format: .csv, options: ReaderOptions(name: engine.rawValue)
      ).reader
      let dataset = Dataset(inputs: [DatasetInput(reader: reader)], parallel: ParallelOptions(workers: 1))
      let plan = try? dataset.plan(Query(), now: 0)
      if let plan { _ = try? dataset.run(plan, writer: collector) }
    } catch {
      throw .input(error, hint: nil)
    }
    return collector.rows
  }

  /// A path as an argument of a `duckdb` dot command (`.once`): in double quotes, with `\` and
  /// `"` escaped by a backslash and a line break written `\n` (`\r`), so a `$TMPDIR` holding a
  /// space, a quote or a line break stays one argument on one line of the client's script.
  static func dotCommandArgument(_ path: String) -> String {
    "\"" + path.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
      .replacing("\r\n", with: "\\r\\n").replacing("\n", with: "\\n").replacing("\r", with: "\\r")
      + "\""
  }

  /// Removes the result files `run` returned and the temporary folder that holds them.
  static func remove(_ files: [String]) {
    for path in files { unlink(path) }
    if let first = files.first, let slash = first.lastIndex(of: "/") {
      rmdir(String(first[..<slash]))
    }
  }

  /// The bytes of a file.
  static func contents(_ path: String) throws(Problem) -> [UInt8] {
    do throws(InputError) {
      let source = try ByteSource(path: path)
      var bytes: [UInt8] = []
      while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
      return bytes
    } catch {
      throw .input(error, hint: nil)
    }
  }

  /// Writes `bytes` to a new file at `path`.
  static func write(_ bytes: [UInt8], to path: String) throws(Problem) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var written = 0
    while fd >= 0 && written < bytes.count {
      let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      written += n
    }
    if fd >= 0 { close(fd) }
    guard fd >= 0 && written == bytes.count else {
      throw .usage(UsageError("cannot write the engine's file \(path): \(String(cString: strerror(errno)))"))
    }
  }
}

/// Keeps the rows of a result as text.
final class RowCollector: RecordWriter {
  var rows: [[String]] = []
  func begin(columns: [String]) throws(OutputError) {}
  func beginGroup(_ heading: GroupHeading) throws(OutputError) {}
  func write(_ row: RowView, columns: [OutputColumn], verbatim: Bool) throws(OutputError) {
    rows.append(columns.map { String(decoding: $0.value(row).decodedBytes(), as: UTF8.self) })
  }
  func end() throws(OutputError) {}
}
