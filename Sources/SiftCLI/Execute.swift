import SiftCore

/// Runs a parsed command: a query over the input, `--fields` or `--views`.
func execute(options: Options, query: Query, context: ProcessContext) -> ExitStatus {
  var message = "sift: not implemented yet\n"
  message.withUTF8 { try? context.stderr.write($0) }
  return .error
}
