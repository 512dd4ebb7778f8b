import SiftCore

/// The command line resolved once (Docs/Architecture.md, The front): what sift is asked to do
/// (its mode), the query parsed and composed with its view, and "now" for relative dates. Every
/// rule between options is checked in `resolve`, in one place, so the modes that carry a job out
/// decide nothing about the options again.
struct Job {
  /// What sift is asked to do, in the order `resolve` picks it when several flags are given.
  enum Mode: Equatable, Sendable {
    /// Text printed as it is: `--help`, `--version`, `--man`, `--completion SHELL`.
    case text(String)
    /// `-i`: the interactive screen (Docs/Interactive.md).
    case interactive
    /// `--fields [FILE...|@VIEW]`.
    case fields
    /// `--views [@VIEW]`: the views overview, or its digest.
    case views
    /// `--complete-views`, `--complete-fields`: helpers of the completion scripts.
    case completeViews
    case completeFields
    /// `--explain` without a FILE or view: the query's canonical form, the field types unknown
    /// (Docs/QueryLanguage.md, Explain).
    case queryForm
    /// `--explain @VIEW`: the view's query composed with the given one, in canonical form; its
    /// source is not opened (Docs/Views.md, Running a view).
    case composedForm
    /// `--sql DIALECT`: the statement, not run.
    case sql(SQLDialect)
    /// `--engine ENGINE`: the query run on an SQL engine.
    case engine(SQLEngine)
    /// `--explain` over a FILE or view: what the plan made of the query.
    case explain
    /// `--changes KEY…`: only what changed since the last run (Docs/Reports.md).
    case changes([String])
    /// `-c`: the count, per group with `group:`.
    case count
    /// The matching records, in the output format.
    case records
  }

  var mode: Mode
  /// The options as parsed and settled, with a view's files in `files`; the modes read their
  /// values (formats, files, the look), never their combinations.
  var options: Options
  /// The QUERY, parsed, and composed with the view's preset when a view is given (Docs/Views.md,
  /// Running a view); empty in the modes that take none.
  var query: Query
  /// `@VIEW`'s part in the run: its default sort, labels, fast filters, title and where each part
  /// of `query` came from; `nil` without a view. Its files are already in `options.files`.
  var view: ViewContext?
  /// "Now" for relative dates: `--now`, else `SIFT_NOW`, else the clock. The modes that read no
  /// dates (text, fields, completions, the query's form) do not check `--now`.
  var now: WallTime

  /// What a plan is made for: a count with `-c`, else the records.
  var intent: Plan.Intent { options.intent }

  /// The job of `options`, or the problem that stops it (a query error, a usage error naming
  /// the options that cannot go together, or a view that cannot be found). `clock` reads the
  /// machine's local time; `viewsFile` reads the views file (Docs/Views.md, The views file),
  /// asked only when a view is named.
  static func resolve(
    _ options: Options, environment: [String: String], stdoutIsTerminal: Bool,
    stdinIsTerminal: Bool = false, clock: () -> WallTime,
    viewsFile: () throws(Problem) -> ViewsFile
  ) throws(Problem) -> Job {
    var job = Job(mode: .records, options: options, query: Query(), now: 0)
    switch options.mode {
    case .help: job.mode = .text(helpText)
    case .version: job.mode = .text("sift \(siftVersion)\n")
    case .man: job.mode = .text(ManPage.text)
    case .completion(let shell): job.mode = .text(CompletionScript.text(for: shell))
    case .interactive:
      job.mode = .interactive
      try job.checkScreen(stdoutIsTerminal: stdoutIsTerminal, stdinIsTerminal: stdinIsTerminal)
      job.now = try resolveNow(options, environment: environment, clock: clock)
    case .fields, .completeFields, .completeViews:
      job.mode =
        options.mode == .fields ? .fields : options.mode == .completeFields ? .completeFields : .completeViews
      try job.checkOptions(stdoutIsTerminal: stdoutIsTerminal)
      if let name = options.view {
        // `--fields @VIEW`: the fields of the view's file (FILEs replace it, as when it runs).
        job.options.files = options.files(of: try ViewsFileLookup.view(named: name, in: viewsFile()))
      }
    case .views:
      job.mode = .views
      try job.checkOptions(stdoutIsTerminal: stdoutIsTerminal)
      job.now = try resolveNow(options, environment: environment, clock: clock)
    case .query:
      do throws(QueryError) { job.query = try Parser.parse(options.query) } catch {
        throw .query(error, query: options.query)
      }
      if options.explain && options.view == nil && options.files.isEmpty {
        job.mode = .queryForm
        return job
      }
      if let dialect = options.sql {
        job.mode = .sql(dialect)
      } else if let engine = options.engine {
        job.mode = .engine(engine)
      } else if options.explain {
        job.mode = .explain
      } else if let keys = options.changes {
        job.mode = .changes(keys)
      } else {
        job.mode = options.count ? .count : .records
      }
      try job.checkOptions(stdoutIsTerminal: stdoutIsTerminal)
      job.now = try resolveNow(options, environment: environment, clock: clock)
      if let name = options.view { try job.compose(view: name, in: viewsFile()) }
    }
    return job
  }

  /// `sift @VIEW [QUERY] [FILE...]` (Docs/Views.md, Running a view): the view's preset query
  /// AND the given one over the view's source (or the FILEs). With `--explain` the composed
  /// query is the answer; else `-c` is checked again, as the preset may add aggregates.
  private mutating func compose(view name: String, in file: ViewsFile) throws(Problem) {
    let view = try ViewsFileLookup.view(named: name, in: file)
    let composed = view.compose(
      given: query, text: options.query, reset: options.reset, counting: options.count)
    query = composed.query
    if options.explain {
      mode = .composedForm
      return
    }
    if options.count { try Job.checkCounting(query) }
    options.files = options.files(of: view)
    self.view = ViewContext(
      file: file.path, view: view, composed: composed, sourceName: sourceNames(options.files))
  }

  /// Every rule between options (Docs/Architecture.md, The front), in the order a user meets
  /// them.
  private func checkOptions(stdoutIsTerminal: Bool) throws(Problem) {
    if options.reset && options.view == nil {
      throw .usage(UsageError("'--reset' needs a view: sift @VIEW --reset"))
    }
    if options.changes == nil && (!options.against.isEmpty || options.peek) {
      let flag = options.peek ? "--peek" : "--against"
      throw .usage(UsageError("'\(flag)' needs --changes KEY: sift QUERY FILE --changes KEY \(flag)"))
    }
    if options.changes != nil && (options.sql != nil || options.engine != nil) {
      throw .usage(UsageError("'--changes' runs on sift's own engine: drop --sql or --engine"))
    }
    if options.table != nil && options.sql == nil && options.engine == nil {
      throw .usage(UsageError(
        "'--table' needs --sql or --engine: sift --sql duckdb --table NAME QUERY FILE"))
    }
    switch mode {
    case .sql(let dialect):
      try checkSQLSource(dialect: dialect)
    case .engine(let engine):
      try checkSQLSource(dialect: engine.dialect)
      try checkBinaryOutput(stdoutIsTerminal: stdoutIsTerminal)
    case .explain, .count, .records:
      if options.count { try Job.checkCounting(query) }
      try checkBinaryOutput(stdoutIsTerminal: stdoutIsTerminal)
    case .changes:
      try checkBinaryOutput(stdoutIsTerminal: stdoutIsTerminal)
      if options.count {
        throw .usage(UsageError(
          "--changes cannot be used with -c: it writes the records that changed",
          hint: "drop -c; the bar counts what is new, changed and gone"))
      }
    case .views:
      // On an engine, every view's badge in one run of its client (Docs/Engines.md, Views on an
      // engine); what the views cannot pass on to it is refused, never dropped.
      let engine = options.engine.map { "--engine \($0.rawValue)" }
      if let mode = engine ?? options.sql.map({ "--sql \($0.rawValue)" }) {
        if let table = options.table {
          throw .usage(UsageError("'--table' names one query's table; '--views' reads each view's source",
            hint: "drop --table, or run one query on it: sift \(mode) --table \(table) QUERY FILE"))
        }
        if options.skipBad {
          throw .usage(UsageError(
            "--skip-bad cannot be passed to \(mode): the engine's reader does not skip bad records as sift does",
            hint: "drop --skip-bad, or count the views with sift itself: drop \(mode)"))
        }
        if options.output?.isBinary == true {
          throw .usage(UsageError(
            "'--views -o \(options.output?.rawValue ?? "")' runs on sift's own engine, not \(mode)",
            hint: "drop \(mode), or write the digest with -o html"))
        }
      }
      try checkBinaryOutput(stdoutIsTerminal: stdoutIsTerminal)
    case .text, .interactive, .fields, .completeViews, .completeFields, .queryForm, .composedForm:
      break
    }
  }

  /// `-i` (Docs/Interactive.md): standard output must be a terminal; a lone `-` is standard
  /// input, not a search for "-" (Piped standard input), and standard input read as records
  /// cannot be the terminal the keys come from.
  private mutating func checkScreen(stdoutIsTerminal: Bool, stdinIsTerminal: Bool) throws(Problem) {
    if options.query == "-" && options.files.isEmpty {
      options.query = ""
      options.files = ["-"]
    }
    guard stdoutIsTerminal else {
      throw .usage(UsageError(
        "'-i' needs a terminal: standard output must be a terminal",
        hint: "run it in a terminal, without a pipe after it: sift -i @VIEW, or sift -i QUERY FILE"))
    }
    if options.files.contains("-") && stdinIsTerminal {
      throw .usage(UsageError(
        "'-i' reads standard input (-) from a pipe or a file, and here it is the terminal",
        hint: "give the FILE, or pipe it in: sift -i QUERY FILE, or cat FILE | sift -i QUERY"))
    }
  }

  /// `-c` counts records; a summary (`sum:` and the other aggregates) has its own count column
  /// (Docs/Aggregates.md). Checked on the query as given and again on a view's composed query.
  static func checkCounting(_ query: Query) throws(Problem) {
    guard let first = query.aggregates.first else { return }
    throw .usage(UsageError(
      "-c cannot be used with \(first.function.name):; a summary has its own count column",
      hint: "drop -c, or the aggregate directives"))
  }

  /// `--sql` and `--engine` plan against one FILE's fields, or a table's (Docs/Engines.md).
  private func checkSQLSource(dialect: SQLDialect) throws(Problem) {
    if options.view != nil {
      throw .usage(UsageError("--sql and --engine take a QUERY, not @VIEW"))
    }
    if options.count { try Job.checkCounting(query) }
    let file = options.files.count == 1 && options.files[0] != "-"
    guard options.files.count <= 1, file || options.table != nil else {
      throw .usage(UsageError(
        "--sql and --engine need one FILE for the field names and types"
          + (options.table != nil ? " (a file with the table's fields, with --table)" : ""),
        hint: "sift --sql \(dialect.rawValue) QUERY FILE"))
    }
  }

  /// `-o xlsx` (Docs/Formats.md, Writing workbooks) is refused on a terminal, which would show
  /// its bytes as garbage, and with `-c`, which writes a count instead of records.
  private func checkBinaryOutput(stdoutIsTerminal: Bool) throws(Problem) {
    guard let format = options.output, format.isBinary else { return }
    if stdoutIsTerminal && !options.explain {
      throw .usage(UsageError(
        "-o \(format.rawValue) writes a binary workbook, not for a terminal",
        hint: "redirect it to a file: sift … -o \(format.rawValue) > out.\(format.rawValue)"))
    }
    if options.count {
      throw .usage(UsageError(
        "-c cannot be used with -o \(format.rawValue); a workbook holds records",
        hint: "drop -c, or write the count with -o csv"))
    }
  }

  /// "Now" from `--now`, `SIFT_NOW` or the clock.
  private static func resolveNow(
    _ options: Options, environment: [String: String], clock: () -> WallTime
  ) throws(Problem) -> WallTime {
    let given = options.now ?? environment["SIFT_NOW"]
    guard let given, !given.isEmpty else { return clock() }
    guard let now = Clock.parse(given) else {
      throw .badNow(source: options.now != nil ? "--now" : "SIFT_NOW", given: given)
    }
    return now
  }
}

extension Options {
  /// What a plan is made for: a count with `-c`, else the records.
  var intent: Plan.Intent { count ? .count : .records }
}

extension Job {
  /// Whether the output has one column per field, every field a column: then the JSON keys first
  /// seen after the sample must be known before the first record is written (Docs/Formats.md,
  /// Several inputs). JSON output writes each record's own keys; `fields:a,b` names its columns.
  func writesEveryKeyAsAColumn(_ format: OutputFormat) -> Bool {
    guard !options.count, !format.writesEachRecordsKeys else { return false }
    return query.fields == nil || query.excludesFields
  }
}
