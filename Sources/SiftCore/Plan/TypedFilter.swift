/// The filter of a plan with every name resolved and every literal read for its field's type
/// (Docs/Architecture.md, Plan). It is made once, when the plan is made, and every query error
/// about a value surfaces then; the closures (`Compiler`), `--explain` and any other back end
/// are generated from it and never type a value again.
public indirect enum TypedFilter: Sendable {
  /// Every operand matches.
  case all([TypedFilter])
  /// Any operand matches.
  case any([TypedFilter])
  case not(TypedFilter)
  /// One field's value passes any of the tests: any element of a JSON array, any value a
  /// nested path reaches.
  case field(ResolvedField, [TypedTest])
  /// Free text: some field's value contains the text, ignoring case.
  case anyFieldContains(String)
}

/// A test of one value, its literal already read as a number, a date period, a switch or text
/// (Docs/QueryLanguage.md, Filter terms).
public enum TypedTest: Sendable {
  /// Text equal to any of the texts, ignoring case.
  case textIn([String])
  /// Numerically equal when the value reads as a number, else equal to `text` ignoring case.
  case numberEquals(NumberLiteral, text: String)
  /// A date inside the period; a value that is not a date is compared with `text` when it is
  /// given. `relativeWord` is the word the period was read from (`today`), if any.
  case inPeriod(Period, text: String?, relativeWord: String?)
  /// A switch spelling: on (yes, true, 1, on) or off (no, false, 0, off, or empty).
  case switchIs(on: Bool)
  case numberCompare(Comparison, NumberLiteral)
  /// `>` after the period, `>=` from its start, `<` before it, `<=` up to its end.
  case dateCompare(Comparison, Period)
  /// Text order ignoring case; empty values do not compare.
  case textCompare(Comparison, String)
  /// Inclusive at both ends; `nil` is open.
  case numberRange(NumberLiteral?, NumberLiteral?)
  /// From the start of the first period up to the end of the second; `nil` is open.
  case dateRange(Period?, Period?)
  /// Text between the ends ignoring case, both included; `nil` is open.
  case textRange(String?, String?)
  /// The whole value against a pattern where `*` is any run of characters, ignoring case.
  case glob(String)
  /// An unanchored regular expression, already checked.
  case regex(pattern: String, caseInsensitive: Bool, program: RegexProgram)
  /// Empty, missing or a null token.
  case empty
  /// Present and not empty (`has:`).
  case present
}
