import SiftCore

/// Carries out a resolved job: each mode is handed to the command that does it.
func execute(_ job: Job, context: ProcessContext) -> ExitStatus {
  let console = Console(context: context)
  let options = job.options
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
  case .composedForm:
    return console.output(job.query.canonicalForm + "\n") ?? .matched
  case .fields:
    return FieldsCommand(options: options, context: context).run()
  case .completeFields:
    return CompletionWords(options: options, context: context).fields()
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
    return QueryCommand(
      options: options, query: job.query, view: job.view, context: context, now: job.now
    ).run()
  }
}
