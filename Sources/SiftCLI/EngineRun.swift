#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

/// `--engine duckdb|spark` (Docs/Engines.md, Engines): the query's statement runs in the engine's
/// command-line client; its CSV result is read back and written as sift writes its own, the
/// feedback bar's counts taken from the engine too.
extension RecordRun {
  func runOnEngine(_ engine: SQLEngine) -> ExitStatus {
    do throws(Problem) {
      let prepared = try SQLStatement(job: job, frontend: frontend).prepare()
      let (plan, inputs) = (prepared.plan, prepared.inputs)
      var writer = prepared.writer
      writer.groupColumn = true
      let format = outputFormat(inputs.formats)
      let presentation = frontend.presentation(format, of: job)
      let records = frontend.recordOutput(presentation)
      // Written with the query's own plan: its columns' types and a summary's `Total` row.
      let output = makeWriter(plan, inputs, presentation, records)
      let endsWithTotal = plan.endsWithTotal && format.writesTotals
      let statements = try SQLStatement.sql(writer.source, writer.statements)
      let queries = [try SQLStatement.sql(writer.source, writer.totals), statements.last!]
        + (endsWithTotal ? [try SQLStatement.sql(writer.source, writer.totalRow)] : [])
      let files = try frontend.engineClient(engine).run(
        setup: Array(statements.dropLast()), queries: queries, database: prepared.database,
        readsTable: options.table != nil)
      defer { EngineClient.remove(files) }
      // The `Total` row's statement labels it itself (`Total (all 8 groups)` under `limit:`).
      var summary = try counts(files[0], engine: engine)
      // The result, then the `Total` row: records in the engine's order.
      var results: [DatasetInput] = []
      for path in files.dropFirst() {
        do throws(InputError) {
          results.append(DatasetInput(reader: try ReaderFactory.makeReader(
            source: try ByteSource(path: path), format: .csv, options: ReaderOptions(name: engine.rawValue)
          ).reader))
        } catch {
          throw .input(error, hint: nil)
        }
      }
      let dataset = Dataset(inputs: results, parallel: ParallelOptions(workers: 1))
      // Records come in the engine's order; with `group:`, their groups (already in order)
      // are marked again for the group headers. The result's query is made as data, never as
      // text to parse.
      var resultQuery = Query()
      if plan.shape == .order && !plan.group.isEmpty {
        let names = SQLWriter.groupColumns(plan.group.count).map { FieldName($0, span: Span(0, 0)) }
        resultQuery = Query(filter: nil, directives: [
          DirectiveClause(.group(names), span: Span(0, 0)),
          DirectiveClause(.fields(names, excluding: true), span: Span(0, 0)),
        ])
      }
      let resultPlan = try frontend.plan(resultQuery, over: dataset, now: now, text: "", view: nil)
      let written: RunSummary
      if options.count {
        written = try countsOnly(dataset, resultPlan, grouped: !plan.group.isEmpty)
      } else {
        written = try frontend.run(
          resultPlan, over: dataset, writer: output, text: options.query, view: nil)
      }
      summary.shown = written.shown - (endsWithTotal ? 1 : 0)
      summary.outputClosed = written.outputClosed
      if plan.aggregates.isEmpty {
        summary.groupCounts = written.groupCounts
        summary.groups = written.groups
      } else {
        summary.summaryRows = plan.group.isEmpty ? 1 : summary.groups
      }
      return try frontend.present(
        plan, summary, presentation, records: records, of: job, fastFilterChips: [])
    } catch {
      return console.report(error)
    }
  }

  /// The bar's counts from the engine's `total,matched,left_out,groups` row.
  private func counts(_ path: String, engine: SQLEngine) throws(Problem) -> RunSummary {
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
