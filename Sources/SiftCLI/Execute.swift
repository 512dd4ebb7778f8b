import SiftCore

/// Runs a parsed command: a query over the input (or a view), `--fields` or `--views`, or a
/// helper of the completion scripts.
func execute(options: Options, query: Query, context: ProcessContext) -> ExitStatus {
  var options = options
  if options.mode == .fields || options.mode == .completeFields, let name = options.view {
    // `--fields @VIEW`: the fields of the view's file (FILEs replace it, as when it runs).
    let lookup = ViewsFileLookup(options: options, context: context)
    guard let file = lookup.load(),
      let view = ViewsFileLookup.view(named: name, in: file, console: lookup.console)
    else { return .error }
    if options.files.isEmpty, let source = view.source { options.files = [source] }
  }
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
  case .completeViews:
    return CompletionWords(options: options, context: context).views()
  case .completeFields:
    return CompletionWords(options: options, context: context).fields()
  case .help, .version, .man, .completion:
    return .matched
  }
}
