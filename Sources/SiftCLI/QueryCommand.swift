import SiftCore

/// Runs a query over the inputs and writes the records, the feedback bar and the exit status.
struct QueryCommand {
  let options: Options
  let query: Query
  let view: ViewContext?
  let context: ProcessContext
  var console: Console { Console(context: context) }

  func run() -> ExitStatus {
    do throws(Problem) {
      let now = try resolveNow()
      let inputs = try Inputs.open(options, context: context)
      let format = outputFormat(inputs.formats)
      let dataset = inputs.dataset(
        parallel: options.parallel, allKeys: writesEveryKeyAsAColumn(format))
      let plan = try makePlan(on: dataset, now: now)
      if options.explain {
        return console.output(plan.explanation(countOnly: options.count)) ?? .matched
      }
      return try run(plan, on: dataset, inputs: inputs, presentation: console.presentation(
        format, options, title: view?.titleLine(unicode: console.unicode(asciiRequested: options.ascii))))
    } catch {
      return console.report(error)
    }
  }

  /// The plan of the query over `dataset`, its notes reported.
  private func makePlan(on dataset: Dataset, now: WallTime) throws(Problem) -> Plan {
    let plan: Plan
    do throws(PlanError) { plan = try dataset.plan(query, now: now) } catch {
      throw .plan(error, query: options.query, view: view)
    }
    for note in query.notes { console.error(note + "\n") }
    return plan
  }

  /// Runs `plan` over `dataset`, writing the records, then shows the rest of `presentation`.
  private func run(
    _ plan: Plan, on dataset: Dataset, inputs: Inputs, presentation: Presentation
  ) throws(Problem) -> ExitStatus {
    let format = presentation.format
    var fastFilterChips: [Chip] = []
    if let view {
      do throws(FastFilterError) {
        fastFilterChips = try view.inactiveChips(plan, ascii: !presentation.unicode)
      } catch {
        throw .fastFilter(error, view: view)
      }
    }
    let body = presentation.laysOutBody ? MemorySink() : nil
    let buffer = OutputBuffer(
      sink: body ?? context.stdout, lineBuffered: context.stdoutIsTerminal && body == nil)
    let writer: RecordWriter? = options.count ? nil : makeWriter(
      WriterOptions(
        format: format, delimiter: outputDelimiter(format, inputs),
        numericColumns: plan.outputFields.map { plan.type(of: $0) == .number },
        maxWidth: presentation.tableOnTerminal ? presentation.width : nil,
        ascii: !presentation.unicode, textStyle: delimitedStyle(format, inputs),
        header: !options.noHeader),
      output: buffer)
    let summary: RunSummary
    do throws(SiftError) { summary = try dataset.run(plan, writer: writer) } catch {
      if case .input = error {
        // The records before an input error are written (Docs/Formats.md, Errors).
        try? buffer.flush()
        if let body { _ = body.bytes.withUnsafeBufferPointer { try? context.stdout.write($0) } }
      }
      throw Problem(error, query: options.query, view: view)
    }
    // After a closed pipe, the status still says whether anything matched (Docs/Architecture.md, Output).
    var outcome: ExitStatus = summary.matched > 0 ? .matched : .noMatch
    if writesEveryKeyAsAColumn(format), let key = summary.keysAfterSample.first {
      // Standard input cannot be read twice for its keys (Docs/Formats.md, Several inputs).
      outcome = console.report(.keyAfterSample(key, format: format))
    }
    if summary.outputClosed { return outcome }
    do throws(OutputError) { try buffer.flush() } catch {
      throw .output(error, ifClosed: outcome)
    }
    let bar = feedbackBar(plan, summary, unicode: presentation.unicode, fastFilterChips: fastFilterChips)
    let pieces = presentation.pieces(plan, summary, bar: bar, body: body?.bytes)
    return console.show(pieces, pager: options.pager, ifClosed: outcome) ?? outcome
  }

  /// "Now" from `--now`, `SIFT_NOW` or the clock.
  func resolveNow() throws(Problem) -> WallTime {
    let given = options.now ?? context.environment["SIFT_NOW"]
    guard let given, !given.isEmpty else { return Clock.localNow() }
    guard let now = Clock.parse(given) else {
      throw .badNow(source: options.now != nil ? "--now" : "SIFT_NOW", given: given)
    }
    return now
  }

  /// The output format (Docs/Formats.md, Output): `-o`, else a table on a terminal, else the input's format
  /// (mixed inputs: NDJSON).
  private func outputFormat(_ formats: [InputFormat]) -> OutputFormat {
    if let o = options.output { return o }
    if context.stdoutIsTerminal { return .table }
    let distinct = Set(formats)
    guard distinct.count == 1, let only = distinct.first else { return .ndjson }
    switch only {
    case .csv: return .csv
    case .tsv: return .tsv
    case .json: return .json
    case .ndjson: return .ndjson
    }
  }

  /// Whether the output has one column per field, every field a column: then the JSON keys first
  /// seen after the sample must be known before the first record is written (Docs/Formats.md,
  /// Several inputs). JSON output writes each record's own keys; `fields:a,b` names its columns.
  private func writesEveryKeyAsAColumn(_ format: OutputFormat) -> Bool {
    guard !options.count, format != .json, format != .ndjson else { return false }
    return query.fields == nil || query.excludesFields
  }

  /// CSV/TSV in, CSV/TSV out keeps the first input's byte order mark and line end (Docs/Formats.md,
  /// Output); any other output, or input, is written plainly.
  private func delimitedStyle(_ format: OutputFormat, _ inputs: Inputs) -> TextStyle {
    guard format == .csv || format == .tsv, let first = inputs.first,
      inputs.formats.first == .csv || inputs.formats.first == .tsv
    else { return .plain }
    return first.textStyle
  }

  /// `-d`, else CSV in, CSV out keeps the first input's delimiter, given or sniffed (`;`);
  /// else `,` (Docs/Formats.md, CSV).
  private func outputDelimiter(_ format: OutputFormat, _ inputs: Inputs) -> UInt8 {
    if format == .tsv { return UInt8(ascii: "\t") }
    if let given = options.delimiter { return given }
    guard format == .csv, inputs.formats.first == .csv, let first = inputs.first else {
      return UInt8(ascii: ",")
    }
    return first.textStyle.delimiter
  }

  private func feedbackBar(
    _ plan: Plan, _ summary: RunSummary, unicode: Bool, fastFilterChips: [Chip]
  ) -> FeedbackBar {
    let labels = view?.labels(in: plan.schema) ?? Labels()
    let chipsMaker = FilterChips(plan: plan, labels: labels, ascii: !unicode)
    var chips: [Chip] = []
    if let s = chipsMaker.sortChip(defaultSort: view?.defaultSort(in: plan.schema) ?? []) {
      chips.append(s)
    }
    if let g = chipsMaker.groupChip() { chips.append(g) }
    chips += chipsMaker.filterChips() + fastFilterChips
    var bar = FeedbackBar(chips: chips, summary: summary, limited: plan.query.limit != nil && !options.count, grouped: plan.group != nil)
    bar.sortKeys = plan.sort.map { ($0.field.name, $0.descending) }
    return bar
  }
}
