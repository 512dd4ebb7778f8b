/// Values that can never mean what their term asks are query errors, not empty results
/// (Docs/QueryLanguage.md, "Values that cannot match"): an impossible date, an unknown relative
/// date against a date field, a comparison or range whose value is not of the field's type, and
/// a reversed range. A value that is merely untyped (`customer:>m` on a text field) is fine.
extension Plan {
  /// The relative-date words, as listed in the error for an unknown one.
  public static let relativeDateWords =
    "today, yesterday, this-week, last-week, this-month, last-month, this-year, last-year, "
    + "last-Nd, last-Nw, last-Nm (e.g. last-7d)"

  /// Throws when `value` cannot mean anything for a field of the type `field` has.
  func check(_ value: Value, for field: ResolvedField) throws(PlanError) {
    let type = self.type(of: field)
    switch value {
    case .equals(let literal):
      try checkDateShape(literal)
      // Only a word that could be meant as a date (letters, digits, `-`, `/`, `:`, `.`, `+`)
      // is checked; anything else, or anything quoted, is searched as text.
      guard type.isTemporal, !literal.quoted, Plan.isDateLikeWord(literal.text),
        case .text = meaning(of: literal, for: field)
      else { return }
      throw PlanError(
        message: "'\(literal.text)' is not a date or a relative date, and \(field.name) holds "
          + "dates; write it in quotes to search it as text",
        span: literal.span, notes: ["  relative dates: " + Plan.relativeDateWords])
    case .compare(let op, let literal):
      try checkDateShape(literal)
      try checkTyped(literal, after: "'\(op.rawValue)'", type: type, field: field)
    case .range(let low, let high, let span):
      for literal in [low, high].compactMap({ $0 }) {
        try checkDateShape(literal)
        try checkTyped(literal, after: "'..'", type: type, field: field)
      }
      guard let low, let high else { return }
      let reversed: Bool
      switch (meaning(of: low, for: field), meaning(of: high, for: field)) {
      case (.number(let a), .number(let b)): reversed = NumberLiteral.compare(a, b) > 0
      case (.period(let a, _), .period(let b, _)): reversed = a.start > b.start
      default: reversed = false
      }
      if reversed {
        throw PlanError(
          message: "the range \(low.text)..\(high.text) runs backwards and matches nothing; "
            + "did you mean \(high.text)..\(low.text)?", span: span)
      }
    case .glob, .regex, .empty: return
    }
  }

  /// An unquoted value written like a date (`2024-02-30`, `2024-13`) must be a real one.
  private func checkDateShape(_ literal: Literal) throws(PlanError) {
    guard !literal.quoted, periods[literal.span] == nil, Plan.looksLikeDate(literal.text),
      DateParser.parse(literal.text, partial: true) == nil
    else { return }
    throw PlanError(
      message: "'\(literal.text)' is not a valid date; expected YYYY-MM-DD, YYYY-MM or a "
        + "date-time like 2024-03-01T10:00", span: literal.span)
  }

  /// The value of a comparison or range bound against a number or date field must be a number
  /// or a date, quoted or not.
  private func checkTyped(
    _ literal: Literal, after what: String, type: ColumnType, field: ResolvedField
  ) throws(PlanError) {
    let meaning = meaning(of: literal, for: field)
    if type == .number, case .number = meaning { return }
    if type.isTemporal, case .period = meaning { return }
    guard type == .number || type.isTemporal else { return }
    let kind = type == .number ? "a number" : "a date or a relative date"
    throw PlanError(
      message: "expected \(kind) after \(what), not '\(literal.text)': \(field.name) holds "
        + (type == .number ? "numbers" : "dates"),
      span: literal.span,
      notes: type == .number ? [] : ["  relative dates: " + Plan.relativeDateWords])
  }

  /// Letters, digits, `-`, `/`, `:`, `.` and `+` only: what dates and relative dates use.
  static func isDateLikeWord(_ text: String) -> Bool {
    text.utf8.allSatisfy {
      $0.isASCIILetter || $0.isDigit || [.minus, .slash, .colon, .dot, UInt8(ascii: "+")].contains($0)
    }
  }

  /// Written like a date: `YYYY-MM`, or four digits, `-` or `/`, one or two digits and the
  /// same separator again (`2024-02-30`, `2024/13/01`). `2023/24` is not.
  static func looksLikeDate(_ text: String) -> Bool {
    let b = Array(text.utf8)
    guard b.count >= 6, b[0..<4].allSatisfy(\.isDigit), b[4] == .minus || b[4] == .slash,
      b[5].isDigit
    else { return false }
    if b[4] == .minus && b.count == 7 && b[6].isDigit { return true }
    let next = b.count > 6 && b[6].isDigit ? 7 : 6
    return next < b.count && b[next] == b[4]
  }
}
