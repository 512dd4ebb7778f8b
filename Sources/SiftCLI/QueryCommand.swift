import SiftCore

/// Runs a query over the inputs and writes the records, the feedback bar and the exit status.
struct QueryCommand {
  let options: Options
  let query: Query
  let view: ViewContext?
  let context: ProcessContext
  var console: Console { Console(context: context) }

  func run() -> ExitStatus {
    guard let now = resolveNow() else { return .error }
    guard let inputs = Inputs.open(options, context: context) else { return .error }
    let engine = Engine(
      readers: inputs.readers, keyScans: inputs.keyScans, parallel: options.parallel)
    let format = outputFormat(inputs.formats)
    do throws(SiftError) { try engine.readSample(allKeys: writesEveryKeyAsAColumn(format)) } catch {
      return report(error, output: nil)
    }
    let plan: Plan
    do throws(PlanError) { plan = try engine.plan(query, now: now) } catch {
      console.error(render(error))
      return .error
    }
    for note in query.notes { console.error(note + "\n") }
    if options.explain {
      return console.output(plan.explanation(countOnly: options.count)) ?? .matched
    }
    let unicode = console.unicode(asciiRequested: options.ascii)
    let fastFilterChips: [Chip]
    do throws(FastFilterError) {
      fastFilterChips = try view?.inactiveChips(plan, ascii: !unicode) ?? []
    } catch {
      console.error(view?.render(error) ?? "")
      return .error
    }
    let onTerminalTable = format == .table && context.stdoutIsTerminal
    // Tables and markdown are laid out whole, with the bar (and title) above them.
    let body = (format == .table || format == .markdown) ? MemorySink() : nil
    let buffer = OutputBuffer(sink: body ?? context.stdout, lineBuffered: context.stdoutIsTerminal && body == nil)
    let writer: RecordWriter? = options.count ? nil : makeWriter(
      WriterOptions(
        format: format, delimiter: outputDelimiter(format, inputs),
        numericColumns: plan.outputFields.map { plan.type(of: $0) == .number },
        maxWidth: onTerminalTable ? console.width : nil, ascii: !unicode,
        textStyle: delimitedStyle(format, inputs), header: !options.noHeader),
      output: buffer)
    let summary: RunSummary
    do throws(SiftError) { summary = try engine.run(plan, writer: writer) } catch {
      return report(error, output: (buffer, body))
    }
    // After a closed pipe, the status still says whether anything matched (Docs/Architecture.md, Output).
    var outcome: ExitStatus = summary.matched > 0 ? .matched : .noMatch
    if writesEveryKeyAsAColumn(format), let key = summary.keysAfterSample.first {
      // Standard input cannot be read twice for its keys (Docs/Formats.md, Several inputs).
      console.error(
        "sift: stdin: the key '\(key)' first appears after the first \(groupedDigits(TypeInference.sampleSize))"
          + " records, so the \(format.rawValue) output has no column for it;"
          + " give the input as a file, or write -o ndjson\n")
      outcome = .error
    }
    if summary.outputClosed { return outcome }
    do throws(OutputError) { try buffer.flush() } catch {
      return console.status(after: error, ifClosed: outcome)
    }
    let bar = feedbackBar(plan, summary, unicode: unicode, fastFilterChips: fastFilterChips)
    if options.count && !onTerminalTable {
      let counts =
        plan.group != nil
        ? summary.groupCounts.map { "\($0.value)\t\($0.count)\n" }.joined() : "\(summary.shown)\n"
      if let status = console.output(counts, ifClosed: outcome) { return status }
    }
    if let body {
      var head = ""
      if format == .markdown {
        if let title = titleLine(unicode: unicode) { head += "# \(title)\n\n" }
        if let b = barText(bar, destinationIsTerminal: false, unicode: unicode) { head += b + "\n\n" }
      } else if onTerminalTable {
        if let title = titleLine(unicode: unicode) { head += title + "\n" }
        if let b = barText(bar, destinationIsTerminal: true, unicode: unicode) { head += b + "\n" }
      } else if let b = barText(bar, destinationIsTerminal: context.stderrIsTerminal, unicode: unicode) {
        console.error(b + "\n")
      }
      if onTerminalTable {
        // The title and the bar stay at the top of what the pager shows.
        let table = options.count ? countTable(plan, summary, unicode: unicode) : body.bytes
        return console.page(Array(head.utf8) + table, options.pager, ifClosed: outcome) ?? outcome
      }
      if let status = console.output(head, ifClosed: outcome) { return status }
      do throws(OutputError) {
        try body.bytes.withUnsafeBufferPointer { b throws(OutputError) in try context.stdout.write(b) }
      } catch {
        return console.status(after: error, ifClosed: outcome)
      }
    } else if let b = barText(bar, destinationIsTerminal: context.stderrIsTerminal, unicode: unicode) {
      console.error(b + "\n")
    }
    return outcome
  }

  /// `-c` on a terminal (Docs/CommandLine.md, Counting): the count with grouped digits; with
  /// `group:`, a table of each value (`(empty)` for the empty one) and its count.
  private func countTable(_ plan: Plan, _ summary: RunSummary, unicode: Bool) -> [UInt8] {
    guard let group = plan.group else { return Array("\(groupedDigits(summary.shown))\n".utf8) }
    let sink = MemorySink()
    let table = TableWriter(
      output: OutputBuffer(sink: sink), numericColumns: [false, true], maxWidth: console.width,
      ascii: !unicode)
    try? table.begin(columns: [group.name, "count"])
    for (value, count) in summary.groupCounts {
      table.write(texts: [value.isEmpty ? "(empty)" : value, groupedDigits(count)])
    }
    try? table.end()
    return sink.bytes
  }

  /// "Now" from `--now`, `SIFT_NOW` or the clock; `nil` after reporting a bad value.
  func resolveNow() -> WallTime? {
    let given = options.now ?? context.environment["SIFT_NOW"]
    guard let given, !given.isEmpty else { return Clock.localNow() }
    guard let now = Clock.parse(given) else {
      let source = options.now != nil ? "--now" : "SIFT_NOW"
      console.error("sift: \(source): '\(given)' is not a date or date-time (like 2024-06-12 or 2024-06-12T10:00)\n")
      return nil
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
    guard format == .csv || format == .tsv, let first = inputs.readers.first,
      inputs.formats.first == .csv || inputs.formats.first == .tsv
    else { return .plain }
    return first.textStyle
  }

  /// `-d`, else CSV in, CSV out keeps the first input's delimiter, given or sniffed (`;`);
  /// else `,` (Docs/Formats.md, CSV).
  private func outputDelimiter(_ format: OutputFormat, _ inputs: Inputs) -> UInt8 {
    if format == .tsv { return UInt8(ascii: "\t") }
    if let given = options.delimiter { return given }
    guard format == .csv, inputs.formats.first == .csv, let first = inputs.readers.first else {
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

  /// The bar in the `--summary` form, or `nil` when it is not wanted.
  private func barText(_ bar: FeedbackBar, destinationIsTerminal: Bool, unicode: Bool) -> String? {
    if options.quiet { return nil }
    switch options.summary {
    case .none: return nil
    case .text: return bar.sentence()
    case .json: return bar.json()
    case .bar:
      let style = FeedbackBar.Style(
        ascii: !unicode, color: console.colorMode(options.color, terminal: destinationIsTerminal),
        width: destinationIsTerminal ? console.width : nil)
      return bar.render(style)
    }
  }

  /// The view's title line (Docs/Views.md, Running a view), cut to fit.
  private func titleLine(unicode: Bool) -> String? {
    guard let view = view, let title = view.title else { return nil }
    let ellipsis = unicode ? "…" : "..."
    let dash = unicode ? "—" : "-"
    if let source = view.sourceName {
      return truncate(title, toWidth: 24, ellipsis: ellipsis) + " \(dash) " + source
    }
    return truncate(title, toWidth: 37, ellipsis: ellipsis)
  }

  /// Reports a failed run: input errors after flushing what was already written (Docs/Formats.md, Errors).
  private func report(_ error: SiftError, output: (OutputBuffer, MemorySink?)?) -> ExitStatus {
    switch error {
    case .input(let e):
      if let (buffer, body) = output {
        try? buffer.flush()
        if let body { _ = body.bytes.withUnsafeBufferPointer { try? context.stdout.write($0) } }
      }
      console.error("sift: \(e)\n")
      return .error
    case .plan(let e):
      console.error(render(e))
      return .error
    case .output(let error):
      // A closed pipe comes back as `RunSummary.outputClosed`; this is another failure.
      return console.status(after: error, ifClosed: .matched)
    }
  }

  /// A plan error under the text it is in: the query, or (with a view) a key of the view.
  private func render(_ error: PlanError) -> String {
    view?.render(error, given: options.query) ?? QueryCommand.render(error, query: options.query)
  }

  /// A plan error rendered like a query error (caret under the query), Docs/QueryLanguage.md, Errors.
  static func render(_ error: PlanError, query: String) -> String {
    guard let span = error.span else {
      return (["sift: query error: \(error.message)"] + error.notes.map { "  " + $0 }).joined(separator: "\n") + "\n"
    }
    return QueryError(error.message, at: span, notes: error.notes).rendered(against: query)
  }
}
