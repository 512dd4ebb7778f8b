import SiftCore

/// Carries out a resolved job: each mode is handed to the command that does it.
func execute(_ job: Job, context: ProcessContext) -> ExitStatus {
  let console = Console(context: context)
  var options = job.options
  switch job.mode {
  case .text(let text):
    return console.output(text) ?? .matched
  case .interactive:
    return InteractiveCommand(options: options, context: context, now: job.now).run()
  case .queryForm:
    // Without a FILE the field types are unknown (Docs/QueryLanguage.md, "Explain").
    for word in job.query.unknownRelativeDateWords {
      console.note("note: '\(word)' is not a relative date (\(Plan.relativeDateWords));"
        + " against a date field it is an error: give a FILE to check the query against it\n")
    }
    return console.output(job.query.canonicalForm + "\n") ?? .matched
  case .fields, .completeFields:
    if let name = options.view {
      // `--fields @VIEW`: the fields of the view's file (FILEs replace it, as when it runs).
      do throws(Problem) {
        let file = try ViewsFileLookup(options: options, context: context).load()
        let view = try ViewsFileLookup.view(named: name, in: file)
        options.files = options.files(of: view)
      } catch {
        return console.report(error)
      }
    }
    if job.mode == .completeFields {
      return CompletionWords(options: options, context: context).fields()
    }
    return FieldsCommand(options: options, context: context).run()
  case .completeViews:
    return CompletionWords(options: options, context: context).views()
  case .views:
    return ViewsOverviewCommand(options: options, context: context, now: job.now).run()
  case .sql:
    return SQLCommand(options: options, query: job.query, context: context, now: job.now).run()
  case .engine(let engine):
    return QueryCommand(options: options, query: job.query, view: nil, context: context, now: job.now)
      .runOnEngine(engine)
  case .explain, .changes, .count, .records:
    if options.view != nil {
      return ViewCommand(options: options, query: job.query, context: context, now: job.now).run()
    }
    return QueryCommand(options: options, query: job.query, view: nil, context: context, now: job.now)
      .run()
  }
}
