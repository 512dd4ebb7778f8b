import SiftCore

/// Runs a parsed command: a query over the input (or a view), `--fields` or `--views`, or a
/// helper of the completion scripts.
func execute(options: Options, query: Query, context: ProcessContext) -> ExitStatus {
  var options = options
  if options.mode == .fields || options.mode == .completeFields, let name = options.view {
    // `--fields @VIEW`: the fields of the view's file (FILEs replace it, as when it runs).
    do throws(Problem) {
      let file = try ViewsFileLookup(options: options, context: context).load()
      let view = try ViewsFileLookup.view(named: name, in: file)
      options.files = options.files(of: view)
    } catch {
      return Console(context: context).report(error)
    }
  }
  if options.reset && options.view == nil {
    return Console(context: context).report(
      .usage(UsageError("'--reset' needs a view: sift @VIEW --reset")))
  }
  if options.changes == nil && (!options.against.isEmpty || options.peek) {
    let flag = options.peek ? "--peek" : "--against"
    return Console(context: context).report(
      .usage(UsageError("'\(flag)' needs --changes KEY: sift QUERY FILE --changes KEY \(flag)")))
  }
  if options.changes != nil && (options.sql != nil || options.engine != nil) {
    return Console(context: context).report(
      .usage(UsageError("'--changes' runs on sift's own engine: drop --sql or --engine")))
  }
  if options.table != nil && options.sql == nil && options.engine == nil {
    return Console(context: context).report(
      .usage(UsageError("'--table' needs --sql or --engine: sift --sql duckdb --table NAME QUERY FILE")))
  }
  switch options.mode {
  case .fields:
    return FieldsCommand(options: options, context: context).run()
  case .query where options.sql != nil:
    return SQLCommand(options: options, query: query, context: context).run()
  case .query where options.engine != nil:
    return QueryCommand(options: options, query: query, view: nil, context: context)
      .runOnEngine(options.engine!)
  case .query where options.view != nil:
    return ViewCommand(options: options, query: query, context: context).run()
  case .query:
    return QueryCommand(options: options, query: query, view: nil, context: context).run()
  case .views:
    return ViewsOverviewCommand(options: options, context: context).run()
  case .completeViews:
    return CompletionWords(options: options, context: context).views()
  case .completeFields:
    return CompletionWords(options: options, context: context).fields()
  case .help, .version, .man, .completion, .interactive:
    return .matched
  }
}
