import SiftCore

/// `sift --views --engine ENGINE` and `sift --views --sql DIALECT` (Docs/Engines.md, Views on an
/// engine): each view's badge query planned for the engine as `--engine` plans a query, and all
/// the views' statements run in one run of the engine's client, so Spark starts once, not once
/// per view. Each view's answers are read back and written as sift's own `--views` writes them.
struct ViewsOnEngine: ModeSteps {
  let job: Job
  let frontend: Frontend

  /// What the engine gave for a view: its badge count and, for the digest, its section.
  struct Answer {
    var count: Int
    var section: ViewsDigest.Section?
  }

  /// A view's badge query made ready for the engine.
  private struct Planned {
    var view: View
    var run: BadgeRun
    var query: EngineQuery
  }

  /// The answers of the views with a source and a badge, by their index in the views file: a
  /// view whose statement cannot be written, or fails in the engine, has its problem, naming
  /// it, and the others still have theirs. `digest`: with the first records of each view (`-o
  /// html`, `-o eml`). A client that cannot be started at all is an error.
  func answers(_ file: ViewsFile, engine: SQLEngine, digest: Bool) throws(Problem)
    -> [Int: Result<Answer, Problem>]
  {
    var answers: [Int: Result<Answer, Problem>] = [:]
    var pending: [(index: Int, planned: Planned)] = []
    // One DuckDB client for every view's `DESCRIBE` (a Parquet source) and every statement.
    let client = frontend.engineClient(engine)
    let session = engine == .duckdb ? client.session() : nil
    defer { session?.close() }
    // Views over one source say its notes (Spark's `multiLine`) once.
    let planning = ViewsOnEngine(job: job, frontend: frontend.sayingEachNoteOnce)
    for (index, view) in file.views.enumerated() {
      guard view.source != nil, let composed = view.badgeQuery(sorted: digest) else { continue }
      do throws(Problem) {
        let run = BadgeRun(
          frontend: frontend, query: composed, now: now,
          viewContext: ViewContext(file: file.path, view: view, composed: composed, sourceName: nil))
        let prepared = try planning.prepare(run, digest: digest, session: session)
        let query = try EngineQuery(
          prepared, engine: engine, frontend: frontend, now: now, writesTotals: digest,
          countsOnly: !digest)
        pending.append((index, Planned(view: view, run: run, query: query)))
      } catch {
        answers[index] = .failure(ViewsOnEngine.naming(error, view))
      }
    }
    // One run of the client for every view; where a view's statement fails, the views after it
    // run in a client of their own, so that one view's failure leaves the others their answers.
    while !pending.isEmpty {
      let outcome = try client.run(
        pending.map { ViewsOnEngine.naming($0.planned.query.part, $0.planned.view) }, session: session)
      defer { for files in outcome.files { EngineClient.remove(files) } }
      for (files, (index, planned)) in zip(outcome.files, pending) {
        do throws(Problem) {
          answers[index] = .success(try answer(planned, files: files, digest: digest))
        } catch {
          answers[index] = .failure(error)
        }
      }
      guard let failure = outcome.failure else { break }
      let failed = pending[failure.part]
      answers[failed.index] = .failure(failure.problem(
        engine, on: "view @\(failed.planned.view.name)",
        hint: "sift --sql \(engine.dialect.rawValue) --views shows each view's statement"))
      pending.removeFirst(failure.part + 1)
    }
    return answers
  }

  /// `--sql DIALECT --views`: each view's badge count as a statement, under a comment naming the
  /// view (`-- view: grn`); a view whose statement cannot be written is reported and the others
  /// still print. Returns the statements, and whether a view could not be written.
  func statements(_ file: ViewsFile) -> (text: String, broken: Bool) {
    var text = ""
    var broken = false
    let planning = ViewsOnEngine(job: job, frontend: frontend.sayingEachNoteOnce)
    for view in file.views {
      guard view.source != nil, let composed = view.badgeQuery() else { continue }
      do throws(Problem) {
        let run = BadgeRun(
          frontend: frontend, query: composed, now: now,
          viewContext: ViewContext(file: file.path, view: view, composed: composed, sourceName: nil))
        let prepared = try planning.prepare(run, digest: false, session: nil)
        let statements = try SQLStatement.sql(prepared.writer.source, prepared.writer.text)
        text += (text.isEmpty ? "" : "\n") + SQLComment.line("view: \(view.name)") + "\n" + statements
      } catch {
        _ = frontend.report(ViewsOnEngine.naming(error, view))
        broken = true
      }
    }
    return (text, broken)
  }

  /// The view's statements for the client, each after a comment naming the view (`-- view:
  /// grn`), as `--sql --views` prints them: an engine's message that quotes a statement shows
  /// whose it is.
  static func naming(_ part: EngineClient.Part, _ view: View) -> EngineClient.Part {
    let comment = SQLComment.line("view: \(view.name)") + "\n"
    return EngineClient.Part(
      setup: part.setup.map { comment + $0 }, queries: part.queries.map { comment + $0 })
  }

  /// `problem` naming the view it stopped: a statement that cannot be written says which view's
  /// it is (an input's or a query's error names its file or the view's key already).
  static func naming(_ problem: Problem, _ view: View) -> Problem {
    guard case .usage(let error) = problem else { return problem }
    return .usage(UsageError("view @\(view.name): \(error.message)", hint: error.hint))
  }

  /// The view's badge query planned against its source as `--engine` plans a query: counted
  /// for its tab, or for the digest sorted by the view's default sort and cut to its first
  /// records. `session`: DuckDB's client kept open for the run, which describes a Parquet source.
  private func prepare(_ run: BadgeRun, digest: Bool, session: DuckDBSession?) throws(Problem)
    -> SQLStatement.Prepared
  {
    var viewJob = job
    viewJob.query = digest ? run.firstRecords : run.query.query
    viewJob.view = run.viewContext
    viewJob.options.files = run.viewContext.view.source.map { [$0] } ?? []
    viewJob.options.query = ""
    viewJob.options.view = nil
    viewJob.options.count = !digest
    return try SQLStatement(job: viewJob, frontend: frontend, session: session).prepare()
  }

  /// A view's answer from its result files: the count from the counts row, and for the digest
  /// its first records written as the section's table.
  private func answer(_ planned: Planned, files: [String], digest: Bool) throws(Problem) -> Answer {
    let query = planned.query
    let counts = try query.counts(files[0])
    guard digest else { return Answer(count: counts.matched, section: nil) }
    let plan = query.prepared.plan
    let (dataset, resultPlan) = try query.results(files.dropFirst())
    let table = MemorySink()
    let written = try frontend.run(
      resultPlan, over: dataset, writer: planned.run.tableWriter(plan, into: table), text: "",
      view: planned.run.viewContext)
    let made = planned.run.section(
      plan, table: table, summary: query.summary(counts: counts, written: written))
    return Answer(count: made.count, section: made.section)
  }
}
