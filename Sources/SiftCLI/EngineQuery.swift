import SiftCore

/// One query's part of an engine's run (Docs/Engines.md, Engines): the statements that give the
/// feedback bar's counts, the result and a summary's `Total` row, and how their CSV results are
/// read back to be written as sift writes its own. `--engine` runs one; `--views --engine` one
/// per view, all in one run of the client (Docs/Engines.md, Views on an engine).
struct EngineQuery {
  let engine: SQLEngine
  let frontend: Frontend
  /// The query as planned for the engine (`SQLStatement.prepare`).
  let prepared: SQLStatement.Prepared
  let now: WallTime
  /// Whether the result ends with a summary's `Total` row (the output format writes one).
  let endsWithTotal: Bool
  /// The statements for the client: the setup, then the counts, and unless only the counts are
  /// asked for, the result and the `Total` row.
  let part: EngineClient.Part

  init(
    _ prepared: SQLStatement.Prepared, engine: SQLEngine, frontend: Frontend, now: WallTime,
    writesTotals: Bool, countsOnly: Bool = false
  ) throws(Problem) {
    self.engine = engine
    self.frontend = frontend
    self.prepared = prepared
    self.now = now
    var writer = prepared.writer
    writer.groupColumn = true
    let statements = try SQLStatement.sql(writer.source, writer.statements)
    endsWithTotal = !countsOnly && prepared.plan.endsWithTotal && writesTotals
    var queries = [try SQLStatement.sql(writer.source, writer.totals)]
    if !countsOnly, let result = statements.last { queries.append(result) }
    if endsWithTotal { queries.append(try SQLStatement.sql(writer.source, writer.totalRow)) }
    part = EngineClient.Part(setup: Array(statements.dropLast()), queries: queries)
  }

  /// The bar's counts from the engine's `total,matched,left_out,groups` row (the part's first
  /// result).
  func counts(_ path: String) throws(Problem) -> RunSummary {
    let numbers = try frontend.engineClient(engine).rows(path).first?.compactMap { Int($0) }
    guard let numbers, numbers.count == 4 else {
      throw .usage(UsageError("\(engine.rawValue) returned no counts", hint: "check the \(engine.clientName) client"))
    }
    var summary = RunSummary()
    summary.total = numbers[0]
    summary.matched = numbers[1]
    summary.valuesLeftOut = numbers[2]
    summary.groups = numbers[3]
    return summary
  }

  /// The result and the `Total` row (the part's results after the counts) as one dataset, the
  /// records in the engine's order, and the plan that writes them: with `group:`, their groups
  /// (already in order) marked again for the group headers. The result's query is made as
  /// data, never as text to parse.
  func results(_ files: ArraySlice<String>) throws(Problem) -> (dataset: Dataset, plan: Plan) {
    var results: [DatasetInput] = []
    for path in files {
      do throws(InputError) {
        results.append(DatasetInput(reader: try ReaderFactory.makeReader(
          source: try ByteSource(path: path), format: .csv, options: ReaderOptions(name: engine.rawValue)
        ).reader))
      } catch {
        throw .input(error, hint: nil)
      }
    }
    let dataset = Dataset(inputs: results, parallel: ParallelOptions(workers: 1))
    let plan = prepared.plan
    var resultQuery = Query()
    if plan.shape == .order && !plan.group.isEmpty {
      let names = SQLWriter.groupColumns(plan.group.count).map { FieldName($0, span: Span(0, 0)) }
      resultQuery = Query(filter: nil, directives: [
        DirectiveClause(.group(names), span: Span(0, 0)),
        DirectiveClause(.fields(names, excluding: true), span: Span(0, 0)),
      ])
    }
    return (dataset, try frontend.plan(resultQuery, over: dataset, now: now, text: "", view: nil))
  }

  /// The run's summary for the bar: the engine's counts, with what writing the result showed.
  func summary(counts: RunSummary, written: RunSummary) -> RunSummary {
    let plan = prepared.plan
    var summary = counts
    summary.shown = written.shown - (endsWithTotal ? 1 : 0)
    summary.outputClosed = written.outputClosed
    if plan.aggregates.isEmpty {
      summary.groupCounts = written.groupCounts
      summary.groups = written.groups
    } else {
      summary.summaryRows = plan.group.isEmpty ? 1 : summary.groups
    }
    return summary
  }
}
