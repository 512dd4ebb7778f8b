/// Anything that stops a run, by the stage it comes from.
public enum SiftError: Error, Sendable {
  /// Malformed or unreadable input (Docs/Formats.md, Errors).
  case input(InputError)
  /// The query does not fit the input (unknown field, bad value).
  case plan(PlanError)
  /// Writing the output failed (or the pipe closed).
  case output(OutputError)
}
