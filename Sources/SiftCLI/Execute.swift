import SiftCore

/// Runs a parsed command: a query over the input, `--fields` or `--views`.
func execute(options: Options, query: Query, context: ProcessContext) -> ExitStatus {
  switch options.mode {
  case .fields:
    return FieldsCommand(options: options, context: context).run()
  case .query:
    return QueryCommand(options: options, query: query, view: nil, context: context).run()
  case .views, .help, .version:
    Console(context: context).error("sift: views are not available yet\n")
    return .error
  }
}
