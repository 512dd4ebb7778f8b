import SiftCore

/// How the frontend shows a run's results (Docs/Architecture.md, The front): the presentation
/// for this process's terminals, where the records go, and what follows them.
extension Frontend {
  /// How a run of `job` is shown in `format`; HTML is a report's page (Docs/Reports.md).
  func presentation(_ format: OutputFormat, of job: Job) -> Presentation {
    let (options, view) = (job.options, job.view)
    // A report is UTF-8 whatever the locale (cron's is often C): its chips keep their arrows.
    let report = format == .html || format == .eml
    let unicode = report || console.unicode(asciiRequested: options.ascii)
    var presentation = console.presentation(
      format, options, title: view?.titleLine(unicode: unicode))
    if format == .eml {
      presentation.mail = MailParts(
        attach: options.attach, baseName: workbookSheetName(files: options.files, view: view))
    }
    if report {
      presentation.unicode = true
      presentation.report = HTMLReport(
        title: options.title ?? view?.title, subtitle: sourceNames(options.files), made: job.now,
        commandLine: commandLine)
    }
    return presentation
  }

  /// Where the records of a run shown by `presentation` go.
  func recordOutput(_ presentation: Presentation) -> RecordOutput {
    RecordOutput(presentation, stdout: standardOutput)
  }

  /// Where the records go: straight to standard output, or into memory when the presentation
  /// lays the body out whole.
  struct RecordOutput {
    let body: MemorySink?
    let buffer: OutputBuffer

    init(_ presentation: Presentation, stdout: ByteSink) {
      body = presentation.laysOutBody ? MemorySink() : nil
      buffer = OutputBuffer(
        sink: body ?? stdout, lineBuffered: presentation.stdoutIsTerminal && body == nil)
    }
  }

  /// Shows what `presentation` makes of a run of `job`, after the records were written; returns
  /// the exit status.
  func present(
    _ plan: Plan, _ summary: RunSummary, _ presentation: Presentation, records: RecordOutput,
    of job: Job, fastFilterChips: [Chip], changes: ChangeCounts? = nil
  ) throws(Problem) -> ExitStatus {
    // With --changes, 0 says something changed (Docs/Reports.md, Changes since the last run).
    let found = changes.map(\.anything) ?? (summary.matched > 0)
    var outcome: ExitStatus = found ? .matched : .noMatch
    let format = presentation.format
    if job.writesEveryKeyAsAColumn(format), let key = summary.keysAfterSample.first {
      // Standard input cannot be read twice for its keys (Docs/Formats.md, Several inputs).
      outcome = console.report(.keyAfterSample(key, format: format))
    }
    // After a closed pipe, the status still says whether anything matched (Docs/Architecture.md, Output).
    if summary.outputClosed { return outcome }
    do throws(OutputError) { try records.buffer.flush() } catch {
      throw .output(error, ifClosed: outcome)
    }
    var bar = FeedbackBar(
      plan, summary, view: job.view, unicode: presentation.unicode,
      fastFilterChips: fastFilterChips)
    if let changes { bar.addChanges(changes) }
    let pieces = presentation.pieces(plan, summary, bar: bar, body: records.body?.bytes)
    return console.show(pieces, pager: job.options.pager, ifClosed: outcome) ?? outcome
  }
}
