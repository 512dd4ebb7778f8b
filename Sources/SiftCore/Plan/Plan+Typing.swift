extension Plan {
  /// What an unquoted literal means for a field of type `type` (Docs/QueryLanguage.md, Filter terms).
  enum Meaning {
    case period(Period, fromRelativeWord: Bool)
    case number(NumberLiteral)
    case text
  }

  /// Under decimal-comma inputs a literal is read their way first (`1.000` is 1000), and a
  /// quoted one holding a decimal comma is a number (`"1.000,5"`: the quotes keep the comma from
  /// separating values; Docs/QueryLanguage.md, Numbers in a file's style). Dates are read in the
  /// field's own convention (Docs/Formats.md, Dates).
  func meaning(of literal: Literal, for field: ResolvedField) -> Meaning {
    if literal.quoted {
      guard decimalMark == .comma, literal.text.utf8.contains(.comma),
        let n = NumberParser.literal(literal.text, mark: .comma)
      else { return .text }
      return .number(n)
    }
    if let p = periods[literal.span] { return .period(p, fromRelativeWord: true) }
    let type = self.type(of: field)
    if let d = DateParser.parse(literal.text, convention(of: field), partial: true),
      d.precision != .year || type.isTemporal
    {
      return .period(d.period, fromRelativeWord: false)
    }
    if let n = NumberParser.literal(literal.text, mark: decimalMark) { return .number(n) }
    return .text
  }

  /// The filter expression typed against the schema: each value checked (Plan+ValueChecks) and
  /// read as what it means for its field.
  func typed(_ expr: Expr) throws(PlanError) -> TypedFilter {
    switch expr {
    case .and(let parts, _):
      return .all(try parts.map { (p: Expr) throws(PlanError) in try typed(p) })
    case .or(let parts, _):
      return .any(try parts.map { (p: Expr) throws(PlanError) in try typed(p) })
    case .not(let inner, _):
      return .not(try typed(inner))
    case .term(.has(let name, _)):
      return .field(field(name), [.present])
    case .term(.text(let literal, _)):
      return .anyFieldContains(literal.text)
    case .term(.field(let name, let values, _)):
      let field = field(name)
      for value in values { try check(value, for: field) }
      return .field(field, try typedTests(values, for: field))
    }
  }

  /// A field term's values as tests; plain text equalities are one any-of test
  /// (`status:received,pending`).
  private func typedTests(_ values: [Value], for field: ResolvedField) throws(PlanError) -> [TypedTest] {
    var tests: [TypedTest] = []
    for value in values {
      let test = try typedTest(value, for: field)
      if case .textIn(let more) = test, case .textIn(let texts)? = tests.last {
        tests[tests.count - 1] = .textIn(texts + more)
      } else {
        tests.append(test)
      }
    }
    return tests
  }

  /// The test one value of a field term means for the field's type.
  private func typedTest(_ value: Value, for field: ResolvedField) throws(PlanError) -> TypedTest {
    let type = self.type(of: field)
    switch value {
    case .equals(let literal):
      if !literal.quoted, type == .boolean, let on = Switch.reading(literal.text) {
        return .switchIs(on: on)
      }
      switch meaning(of: literal, for: field) {
      case .period(let p, let relative):
        return .inPeriod(
          p, text: relative ? nil : literal.text, relativeWord: relative ? literal.text : nil)
      case .number(let n): return .numberEquals(n, text: literal.text)
      case .text: return .textIn([literal.text])
      }
    case .compare(let op, let literal):
      switch meaning(of: literal, for: field) {
      case .period(let p, _): return .dateCompare(op, p)
      case .number(let n): return .numberCompare(op, n)
      case .text: return .textCompare(op, literal.text)
      }
    case .range(let low, let high, let span):
      let lo = low.map { meaning(of: $0, for: field) }
      let hi = high.map { meaning(of: $0, for: field) }
      switch (lo, hi) {
      case (.number(let a)?, .number(let b)?): return .numberRange(a, b)
      case (.number(let a)?, nil): return .numberRange(a, nil)
      case (nil, .number(let b)?): return .numberRange(nil, b)
      case (.period(let a, _)?, .period(let b, _)?): return .dateRange(a, b)
      case (.period(let a, _)?, nil): return .dateRange(a, nil)
      case (nil, .period(let b, _)?): return .dateRange(nil, b)
      case (.text?, .text?), (.text?, nil), (nil, .text?), (nil, nil):
        return .textRange(low?.text, high?.text)
      default:
        throw PlanError(
          message: "the ends of a range must be of one kind: both numbers, both dates or both text",
          span: span)
      }
    case .glob(let pattern, _):
      return .glob(pattern)
    case .regex(let pattern, let caseInsensitive, let span):
      do {
        let program = try RegexProgram(pattern: pattern, caseInsensitive: caseInsensitive)
        return .regex(pattern: pattern, caseInsensitive: caseInsensitive, program: program)
      } catch {
        throw RegexBox.planError(error, pattern: pattern, span: span)
      }
    case .empty:
      return .empty
    }
  }
}
