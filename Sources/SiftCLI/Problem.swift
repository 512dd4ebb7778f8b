import SiftCore

/// Every error sift reports, rendered in this one place into the text for standard error and
/// the exit status (Docs/Architecture.md, Errors).
enum Problem: Error {
  /// A command line that cannot be parsed, or options that do not go together.
  case usage(UsageError)
  /// A query that cannot be parsed: the caret under the query (Docs/QueryLanguage.md, Errors).
  case query(QueryError, query: String)
  /// A query that does not fit the input: under the query, or under the key of the view that
  /// the words came from.
  case plan(PlanError, query: String, view: ViewContext?)
  /// A fast filter of the view that does not fit the input.
  case fastFilter(FastFilterError, view: ViewContext)
  /// An input that cannot be opened or read: `FILE:LINE:COLUMN: what is wrong`, with a hint
  /// when a missing FILE looks like part of the query.
  case input(InputError, hint: String?)
  /// Neither a FILE nor piped standard input.
  case noInput
  /// Standard input's JSON key first seen after the sample, in an output of columns that
  /// cannot have it (Docs/Formats.md, Several inputs).
  case keyAfterSample(String, format: OutputFormat)
  /// A failed write to standard output: a closed pipe ends quietly with `closedStatus`
  /// (Docs/Architecture.md, Output), any other failure is reported.
  case output(OutputError, ifClosed: ExitStatus)
  /// `--now` or `SIFT_NOW` (`source`) that is not a date.
  case badNow(source: String, given: String)
  /// A views file that cannot be read, or that is not a valid views file.
  case unreadableViewsFile(InputError)
  case viewsFile(ViewsFileError)
  /// No views file in any of the places looked at (Docs/Views.md, The views file).
  case noViewsFile
  /// `@NAME` that is not a view of `file`.
  case unknownView(String, file: ViewsFile)
  /// `--changes` that cannot compare or keep its state (Docs/Reports.md, "Changes since the
  /// last run"): the message, without `sift: `.
  case changes(String)

  /// A run's error: a plan error under the query (or the view's key), an input error, or a
  /// failed write (a closed pipe comes back as `RunSummary.outputClosed`).
  init(_ error: SiftError, query: String, view: ViewContext?) {
    switch error {
    case .input(let e): self = .input(e, hint: nil)
    case .plan(let e): self = .plan(e, query: query, view: view)
    case .output(let e): self = .output(e, ifClosed: .matched)
    }
  }

  /// What standard error shows.
  var text: String {
    switch self {
    case .usage(let error): return error.rendered
    case .query(let error, let query): return error.rendered(against: query)
    case .plan(let error, let query, let view): return Problem.render(error, query: query, view: view)
    case .fastFilter(let error, let view):
      return ViewsFileError(
        file: view.file, view: view.view.name, key: "fastFilters", text: error.filter.text,
        message: error.error.message, span: error.error.span, notes: error.error.notes
      ).rendered
    case .input(let error, let hint): return "sift: \(error)\n" + (hint ?? "")
    case .noInput: return "sift: no input: give a FILE, or pipe records into standard input\n  try 'sift --help'\n"
    case .keyAfterSample(let key, let format):
      return "sift: stdin: the key '\(key)' first appears after the first \(groupedDigits(TypeInference.sampleSize))"
        + " records, so the \(format.rawValue) output has no column for it;"
        + " give the input as a file, or write -o ndjson\n"
    case .output(.closed, _): return ""
    case .output(.failed(let message), _): return "sift: cannot write the output: \(message)\n"
    case .badNow(let source, let given):
      return "sift: \(source): '\(given)' is not a date or date-time (like 2024-06-12 or 2024-06-12T10:00)\n"
    case .unreadableViewsFile(let error): return "sift: views file \(error)\n"
    case .viewsFile(let error): return error.rendered
    case .noViewsFile:
      return "sift: no views file: give --config FILE, set SIFT_CONFIG, or create ./sift.json or "
        + "~/.config/sift/config.json\n"
        + "  it is JSON: {\"views\": {\"NAME\": {\"source\": \"FILE.csv\", \"query\": \"…\"}}}\n"
    case .unknownView(let name, let file):
      var message = "sift: no view '\(name)' in \(file.path)"
      if let near = file.suggestion(for: name) { message += "; did you mean '@\(near)'?" }
      let names = file.views.map(\.name)
      return message + "\n  views: " + (names.isEmpty ? "(none)" : names.joined(separator: ", ")) + "\n"
    case .changes(let message): return "sift: \(message)\n"
    }
  }

  /// The exit status: 2 for every error but a closed pipe, which keeps the run's own.
  var status: ExitStatus {
    if case .output(.closed, let closedStatus) = self { return closedStatus }
    return .error
  }

  /// A plan error under the text it is in: the command line's query, or (with a view) the key
  /// of the view its words came from.
  private static func render(_ error: PlanError, query: String, view: ViewContext?) -> String {
    guard let view, let span = error.span, let (part, local) = view.composed.locate(span) else {
      return underQuery(error, query: query)
    }
    guard !part.key.isEmpty else {
      return underQuery(PlanError(message: error.message, span: local, notes: error.notes), query: query)
    }
    return ViewsFileError(
      file: view.file, view: view.view.name, key: part.key, text: part.text, message: error.message,
      span: local, notes: error.notes
    ).rendered
  }

  /// A plan error rendered like a query error, the caret under the query.
  private static func underQuery(_ error: PlanError, query: String) -> String {
    guard let span = error.span else {
      return (["sift: query error: \(error.message)"] + error.notes.map { "  " + $0 }).joined(separator: "\n") + "\n"
    }
    return QueryError(error.message, at: span, notes: error.notes).rendered(against: query)
  }
}

extension Console {
  /// Writes `problem` to standard error; returns the status to end with.
  func report(_ problem: Problem) -> ExitStatus {
    error(problem.text)
    return problem.status
  }
}
