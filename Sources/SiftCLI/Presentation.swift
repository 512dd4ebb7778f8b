import SiftCore

/// What a finished run shows, and where (Docs/Architecture.md, Presentation): the title, the
/// feedback bar and the body, each for standard output, the pager or standard error. It decides
/// and writes nothing; `Console.show` writes the pieces in order. The one-shot command, a view's
/// run and `--views` share it.
struct Presentation {
  /// Where a piece of output goes.
  enum Destination: Equatable {
    case standardOutput
    /// Standard output through the pager when it does not fit the terminal (Docs/CommandLine.md,
    /// The pager).
    case pager
    case standardError
  }

  struct Piece: Equatable {
    var destination: Destination
    var bytes: [UInt8]
    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  var format: OutputFormat
  /// The bar's form: `--summary`, `.none` with `-q`.
  var summary = SummaryStyle.bar
  /// The title line, already fitted (a view's, Docs/Views.md, Running a view).
  var title: String?
  /// `-o html`: the document around the records (Docs/Reports.md).
  var report: HTMLReport?
  /// `-o eml`: the plain-text part and the attachment around the report (Docs/Reports.md).
  var mail: MailParts?
  var stdoutIsTerminal = false
  var stderrIsTerminal = false
  var unicode = true
  /// The terminal width.
  var width: Int?
  /// The bar's colour on a terminal and elsewhere (`--color`, Docs/FeedbackBar.md).
  var colorOnTerminal = ColorMode.none
  var colorElsewhere = ColorMode.none

  /// Tables, Markdown and HTML are laid out whole, so that the title and bar can stand above
  /// them; other formats stream their records as they are found.
  var laysOutBody: Bool { format.laysOutWhole }

  /// A table for the terminal: fitted to its width, with the title and bar above it.
  var tableOnTerminal: Bool { format == .table && stdoutIsTerminal }

  /// The pieces to show after a run of `plan` counted `summary`. `body` holds the laid-out records
  /// (`laysOutBody`), `nil` when they were streamed to standard output.
  func pieces(_ plan: Plan, _ summary: RunSummary, bar: FeedbackBar, body: [UInt8]?) -> [Piece] {
    var pieces: [Piece] = []
    let counts = plan.intent == .count
    if counts && !tableOnTerminal && report == nil {
      // The group values as the input holds them, ill-formed UTF-8 too (as records are written).
      let counts =
        !plan.group.isEmpty
        ? summary.groupCounts.flatMap { group in
          (group.values + [Array("\(group.count)".utf8)]).joined(separator: Array("\t".utf8))
            + Array("\n".utf8)
        }
        : Array("\(summary.shown)\n".utf8)
      pieces.append(Piece(destination: .standardOutput, bytes: counts))
    }
    guard let body else { return (pieces + barOnStandardError(bar)).filter { !$0.bytes.isEmpty } }
    if let report {
      // The bar is part of the document (Docs/Reports.md); `-q` leaves it out.
      let start = report.start(bar: self.summary == .none ? nil : bar)
      let table = counts ? countReport(plan, summary) : body
      if let mail {
        let html = start + table + report.end()
        let text = counts ? countTable(plan, summary) : nil
        return [
          Piece(
            destination: .standardOutput,
            bytes: mail.message(report, html: html, bar: bar, table: text))
        ]
      }
      return [start, table, report.end()].map { Piece(destination: .standardOutput, bytes: $0) }
        .filter { !$0.bytes.isEmpty }
    }
    var head = ""
    if format == .markdown {
      if let title { head += "# \(title)\n\n" }
      if let b = barText(bar, onTerminal: false) { head += b + "\n\n" }
    } else if tableOnTerminal {
      if let title { head += title + "\n" }
      if let b = barText(bar, onTerminal: true) { head += b + "\n" }
    } else {
      pieces += barOnStandardError(bar)
    }
    if tableOnTerminal {
      // The title and the bar stay at the top of what the pager shows.
      let table = counts ? countTable(plan, summary) : body
      pieces.append(Piece(destination: .pager, bytes: Array(head.utf8) + table))
    } else {
      pieces.append(Piece(destination: .standardOutput, bytes: Array(head.utf8)))
      pieces.append(Piece(destination: .standardOutput, bytes: body))
    }
    return pieces.filter { !$0.bytes.isEmpty }
  }

  private func barOnStandardError(_ bar: FeedbackBar) -> [Piece] {
    guard let b = barText(bar, onTerminal: stderrIsTerminal) else { return [] }
    return [Piece(destination: .standardError, bytes: Array((b + "\n").utf8))]
  }

  /// The bar in the `--summary` form, or `nil` when it is not wanted.
  private func barText(_ bar: FeedbackBar, onTerminal: Bool) -> String? {
    switch summary {
    case .none: return nil
    case .text: return bar.sentence()
    case .json: return bar.json()
    case .bar:
      return bar.render(
        FeedbackBar.Style(
          ascii: !unicode, color: onTerminal ? colorOnTerminal : colorElsewhere,
          width: onTerminal ? width : nil))
    }
  }

  /// `-c` in an HTML report (Docs/Reports.md): the count, or with `group:` each group's values
  /// (`(empty)` for an empty one) and its count, as a table.
  private func countReport(_ plan: Plan, _ summary: RunSummary) -> [UInt8] {
    let sink = MemorySink()
    let grouped = !plan.group.isEmpty
    let html = HTMLWriter(
      output: OutputBuffer(sink: sink), numericColumns: plan.group.map { _ in false } + [true])
    try? html.begin(columns: plan.group.map(\.name) + ["count"])
    if grouped {
      for (values, count) in summary.groupCounts {
        try? html.write(texts: texts(values) + [groupedDigits(count)])
      }
    } else {
      try? html.write(texts: [groupedDigits(summary.shown)])
    }
    try? html.end()
    return sink.bytes
  }

  /// A group's values as table or HTML text: `(empty)` for an empty one.
  private func texts(_ values: [[UInt8]]) -> [String] {
    values.map { $0.isEmpty ? "(empty)" : String(decoding: $0, as: UTF8.self) }
  }

  /// `-c` on a terminal (Docs/CommandLine.md, Counting): the count with grouped digits; with
  /// `group:`, a table of each group's values (`(empty)` for an empty one) and its count.
  private func countTable(_ plan: Plan, _ summary: RunSummary) -> [UInt8] {
    guard !plan.group.isEmpty else { return Array("\(groupedDigits(summary.shown))\n".utf8) }
    let sink = MemorySink()
    let table = TableWriter(
      output: OutputBuffer(sink: sink), numericColumns: plan.group.map { _ in false } + [true],
      maxWidth: width, ascii: !unicode)
    try? table.begin(columns: plan.group.map(\.name) + ["count"])
    for (values, count) in summary.groupCounts {
      table.write(texts: texts(values) + [groupedDigits(count)])
    }
    try? table.end()
    return sink.bytes
  }
}

extension Console {
  /// The presentation of a run for this process's terminals, per `options`.
  func presentation(_ format: OutputFormat, _ options: Options, title: String?) -> Presentation {
    Presentation(
      format: format, summary: options.quiet ? .none : options.summary,
      title: title, stdoutIsTerminal: stdoutIsTerminal,
      stderrIsTerminal: stderrIsTerminal, unicode: unicode(asciiRequested: options.ascii),
      width: width, colorOnTerminal: colorMode(options.color, terminal: true),
      colorElsewhere: colorMode(options.color, terminal: false))
  }

  /// Writes `pieces` in order: `nil` when all were written, else the status to end with (a
  /// failed write to standard output ends the showing).
  func show(_ pieces: [Presentation.Piece], pager: PagerChoice, ifClosed closedStatus: ExitStatus)
    -> ExitStatus?
  {
    for piece in pieces {
      switch piece.destination {
      case .standardError: error(piece.text)
      case .standardOutput:
        if let status = output(piece.bytes, ifClosed: closedStatus) { return status }
      case .pager:
        if let status = page(piece.bytes, pager, ifClosed: closedStatus) { return status }
      }
    }
    return nil
  }
}
