import SiftCore

/// Runs a parsed command: a query over the input (or a view), `--fields` or `--views`.
func execute(options: Options, query: Query, context: ProcessContext) -> ExitStatus {
  if options.reset && options.view == nil {
    Console(context: context).error(
      UsageError("'--reset' needs a view: sift @VIEW --reset").rendered)
    return .error
  }
  switch options.mode {
  case .fields:
    return FieldsCommand(options: options, context: context).run()
  case .query where options.view != nil:
    return ViewCommand(options: options, query: query, context: context).run()
  case .query:
    return QueryCommand(options: options, query: query, view: nil, context: context).run()
  case .views:
    return ViewsOverviewCommand(options: options, context: context).run()
  case .help, .version:
    return .matched
  }
}
