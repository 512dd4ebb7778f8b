/// A query that parses but cannot run against the input: an unknown or ambiguous field, a value
/// that cannot mean anything for its term. Rendered like a query error, with a caret at `span`.
public struct PlanError: Error, Sendable, Equatable {
  public var message: String
  /// Where in the query the problem is, when it is in the query.
  public var span: Span?
  /// Extra lines printed after the caret (candidates, the field list).
  public var notes: [String]
  /// The query names a field the schema lacks: a later read may still find it (Dataset.plan).
  public var unknownField = false

  public init(message: String, span: Span?, notes: [String] = []) {
    self.message = message
    self.span = span
    self.notes = notes
  }
}
