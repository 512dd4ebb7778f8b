import SiftCore

/// `--engine duckdb|spark` (Docs/Engines.md, Engines): the query's statement runs in the engine's
/// command-line client; its CSV result is read back and written as sift writes its own, the
/// feedback bar's counts taken from the engine too.
extension RecordRun {
  func runOnEngine(_ engine: SQLEngine) -> ExitStatus {
    do throws(Problem) {
      // One DuckDB client for the run: the `DESCRIBE` of a Parquet file or a table, then the
      // statement written from its types (Docs/Engines.md, Engines).
      let client = frontend.engineClient(engine)
      let session = engine == .duckdb ? client.session() : nil
      defer { session?.close() }
      let prepared = try SQLStatement(job: job, frontend: frontend, session: session).prepare()
      let plan = prepared.plan
      let format = outputFormat(prepared.inputs.formats)
      let presentation = frontend.presentation(format, of: job)
      let records = frontend.recordOutput(presentation)
      // Written with the query's own plan: its columns' types and a summary's `Total` row.
      let output = makeWriter(plan, prepared.inputs, presentation, records)
      let query = try EngineQuery(
        prepared, engine: engine, frontend: frontend, now: now, writesTotals: format.writesTotals)
      let files = try client.run(
        setup: query.part.setup, queries: query.part.queries, database: prepared.database,
        readsTable: options.table != nil, session: session)
      defer { EngineClient.remove(files) }
      // The `Total` row's statement labels it itself (`Total (all 8 groups)` under `limit:`).
      let counts = try query.counts(files[0])
      let (dataset, resultPlan) = try query.results(files.dropFirst())
      let written: RunSummary
      if options.count {
        written = try countsOnly(dataset, resultPlan, grouped: !plan.group.isEmpty)
      } else {
        written = try frontend.run(
          resultPlan, over: dataset, writer: output, text: options.query, view: nil)
      }
      let summary = query.summary(counts: counts, written: written)
      return try frontend.present(
        plan, summary, presentation, records: records, of: job, fastFilterChips: [])
    } catch {
      return console.report(error)
    }
  }

  /// `-c`: the engine's count, or its `value,count` rows with `group:` (`value1,value2,count`
  /// with `group:a,b`).
  private func countsOnly(_ dataset: Dataset, _ plan: Plan, grouped: Bool) throws(Problem) -> RunSummary {
    let collector = RowCollector()
    _ = try frontend.run(plan, over: dataset, writer: collector, text: options.query, view: nil)
    var summary = RunSummary()
    if grouped {
      summary.groupCounts = collector.rows.map {
        ($0.dropLast().map { Array($0.utf8) }, Int($0.last ?? "") ?? 0)
      }
      summary.shown = summary.groupCounts.reduce(0) { $0 + $1.count }
      summary.groups = summary.groupCounts.count
    } else {
      summary.shown = collector.rows.first.flatMap { Int($0[0]) } ?? 0
    }
    return summary
  }
}
