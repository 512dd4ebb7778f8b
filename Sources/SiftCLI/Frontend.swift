import SiftCore
import SiftScreen

/// The one place sift meets the process (Docs/Architecture.md, The front), made once per run:
/// it holds the `ProcessContext` (environment, standard streams and whether they are
/// terminals, the current directory) and the clock, resolves the `Job`, opens the inputs and
/// the views file, plans and runs with their errors mapped to a `Problem`, and shows results
/// and problems. Each mode is a few calls on it; the interactive runner plans and runs through
/// one too. Nothing else reads the context: what the rest needs of it, the frontend hands over
/// as plain values.
struct Frontend {
  private var context: ProcessContext

  init(context: ProcessContext) {
    self.context = context
  }

  /// Where text goes: standard output, the pager, standard error.
  var console: Console {
    Console(
      stdout: context.stdout, stderr: context.stderr, stdoutIsTerminal: context.stdoutIsTerminal,
      stderrIsTerminal: context.stderrIsTerminal, terminalWidth: context.terminalWidth,
      terminalHeight: context.terminalHeight, environment: context.environment,
      quiet: context.quiet)
  }

  /// The options of the command line as typed (Docs/CommandLine.md), a view after the query and
  /// a lone FILE settled, the notes of that said; from then on `-q` keeps this frontend's notes
  /// back.
  mutating func options() throws(Problem) -> Options {
    var options: Options
    do throws(UsageError) { options = try Options.parse(context.arguments) } catch {
      throw .usage(error)
    }
    context.quiet = options.quiet
    for note in options.settleArguments(isFile: Options.namesFile) { console.note(note + "\n") }
    return options
  }

  /// The command line as typed, quoted for a shell: a report's footer (Docs/Reports.md).
  var commandLine: String { commandLineText(context.arguments) }

  /// The job `options` ask for (Docs/Architecture.md, The front): every rule between options,
  /// the view composed with the query, "now" resolved once.
  func job(_ options: Options) throws(Problem) -> Job {
    try Job.resolve(
      options, environment: context.environment, stdoutIsTerminal: context.stdoutIsTerminal,
      stdinIsTerminal: context.stdinIsTerminal, clock: Clock.localNow,
      viewsFile: { () throws(Problem) in try viewsFile(options) })
  }

  /// Whether standard input is a terminal (the keyboard's), so that no records come from it.
  var stdinIsTerminal: Bool { context.stdinIsTerminal }

  /// Whether standard output is a terminal.
  var stdoutIsTerminal: Bool { context.stdoutIsTerminal }

  /// Standard output, for records written as they come.
  var standardOutput: ByteSink { context.stdout }

  /// Standard input read on a thread of its own as it arrives (Docs/Interactive.md, Piped
  /// standard input).
  func arrivingStandardInput() -> ArrivingInput {
    ArrivingInput(reading: context.stdin)
  }

  /// Where the views file `options` point at is looked for (Docs/Views.md, The views file).
  func viewsFileLookup(_ options: Options) -> ViewsFileLookup {
    ViewsFileLookup(
      options: options, environment: context.environment,
      currentDirectory: context.currentDirectory)
  }

  /// The views file `options` point at (Docs/Views.md, The views file).
  func viewsFile(_ options: Options) throws(Problem) -> ViewsFile {
    try viewsFileLookup(options).load()
  }

  /// The zone dates are read in: `--tz`'s, else the environment's (Docs/Formats.md, Dates).
  func zone(_ options: Options) throws(Problem) -> ZoneRules {
    try Inputs.zone(options, environment: context.environment)
  }

  /// How many threads read a large file and where sorting spills (Docs/CommandLine.md,
  /// Options): per `options`, with `$TMPDIR` from this process's environment.
  func parallel(_ options: Options) -> ParallelOptions {
    options.parallel(environment: context.environment)
  }

  /// The command-line client of `engine` (Docs/Engines.md, Engines), run in this process's
  /// environment.
  func engineClient(_ engine: SQLEngine) -> EngineClient {
    EngineClient(engine: engine, environment: context.environment)
  }

  /// The state directory of `--changes` (Docs/Reports.md, Changes since the last run), `nil`
  /// when the environment names none; and the current directory its state files are named by.
  var changesState: (directory: String?, currentDirectory: String) {
    (ChangesState.directory(context.environment), context.currentDirectory)
  }

  /// The inputs of `options.files` (standard input for none), opened and sniffed, their notes
  /// reported (Docs/Architecture.md, The dataset).
  func open(
    _ options: Options, keepStreams: Bool = false, standardInput: [UInt8]? = nil
  ) throws(Problem) -> Inputs {
    try Inputs.open(
      options, stdin: context.stdin, stdinIsTerminal: context.stdinIsTerminal,
      environment: context.environment, console: console, keepStreams: keepStreams,
      standardInput: standardInput)
  }

  /// A plan made by `make`, its error as a problem under the query as typed (`text`) or under
  /// the view's key its words came from (Docs/Architecture.md, Errors).
  func plan(text: String, view: ViewContext?, _ make: () throws(PlanError) -> Plan)
    throws(Problem) -> Plan
  {
    do throws(PlanError) { return try make() } catch {
      throw .plan(error, query: text, view: view)
    }
  }

  /// The plan of `query` over `dataset`, its error mapped as `plan(text:view:_:)` maps it.
  func plan(
    _ query: Query, over dataset: Dataset, now: WallTime, for intent: Plan.Intent = .records,
    text: String, view: ViewContext?
  ) throws(Problem) -> Plan {
    try plan(text: text, view: view) { () throws(PlanError) in
      try dataset.plan(query, now: now, for: intent)
    }
  }

  /// What a pass over records makes, its input, plan or write error as a problem
  /// (Docs/Architecture.md, Errors).
  func run<Result>(text: String, view: ViewContext?, _ body: () throws(SiftError) -> Result)
    throws(Problem) -> Result
  {
    do throws(SiftError) { return try body() } catch {
      throw Problem(error, query: text, view: view)
    }
  }

  /// Runs `plan` over `dataset` into `writer` (`nil` for a count), its error mapped as
  /// `run(text:view:_:)` maps it.
  func run(
    _ plan: Plan, over dataset: Dataset, writer: RecordWriter?, watch: RunWatch? = nil,
    text: String, view: ViewContext?
  ) throws(Problem) -> RunSummary {
    try run(text: text, view: view) { () throws(SiftError) in
      try dataset.run(plan, writer: writer, watch: watch)
    }
  }

  /// Writes `problem` to standard error; returns the status to end with.
  func report(_ problem: Problem) -> ExitStatus {
    console.report(problem)
  }

  /// Carries out `job`: each mode is a few calls on the frontend, in its own file under
  /// `Modes/` (Docs/Architecture.md, The front).
  func perform(_ job: Job) -> ExitStatus {
    switch job.mode {
    case .text(let text): return self.text(text)
    case .interactive: return interactive(job)
    case .queryForm: return queryForm(job)
    case .composedForm: return composedForm(job)
    case .fields: return fields(job)
    case .completeFields: return completeFields(job)
    case .completeViews: return completeViews(job)
    case .views: return views(job)
    case .sql: return sql(job)
    case .engine(let engine): return self.engine(job, engine)
    case .explain: return explain(job)
    case .changes: return changes(job)
    case .count, .records: return records(job)
    }
  }

  /// This frontend with standard error going nowhere: the interactive screen holds the terminal
  /// (Docs/Interactive.md, Runs).
  var silenced: Frontend {
    var quiet = context
    quiet.stderr = DiscardSink()
    return Frontend(context: quiet)
  }
}

extension Frontend {
  /// This frontend with each distinct text on standard error written once: the views of a
  /// `--views --engine` run plan their sources one by one, and views over one source say its
  /// notes once (Docs/Engines.md, Views on an engine).
  var sayingEachNoteOnce: Frontend {
    var once = context
    once.stderr = OnceSink(context.stderr)
    return Frontend(context: once)
  }
}

/// Standard error that writes each distinct text once.
private final class OnceSink: ByteSink {
  let sink: ByteSink
  var said: Set<[UInt8]> = []
  init(_ sink: ByteSink) { self.sink = sink }
  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    if said.insert(Array(bytes)).inserted { try sink.write(bytes) }
  }
}

/// Standard error while the screen holds the terminal: notes go nowhere.
private final class DiscardSink: ByteSink {
  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {}
}
