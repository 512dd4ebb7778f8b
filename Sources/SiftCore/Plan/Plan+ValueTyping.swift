extension Plan {
  /// What an unquoted literal means for a field of type `type` (Docs/QueryLanguage.md, Filter terms).
  enum Meaning {
    case period(Period, fromRelativeWord: Bool)
    case number(Double)
    case text
  }

  func meaning(of literal: Literal, type: ColumnType) -> Meaning {
    if literal.quoted { return .text }
    if let p = periods[literal.span] { return .period(p, fromRelativeWord: true) }
    if let d = DateParser.parse(literal.text, partial: true), d.precision != .year || type.isTemporal {
      return .period(d.period, fromRelativeWord: false)
    }
    if let n = NumberParser.parse(literal.text) { return .number(n) }
    return .text
  }

  /// The literals of a field term's values when every one is a plain text equality
  /// (`status:received,pending`), so they compile to one any-of test; else `nil`.
  func textEqualityLiterals(_ values: [Value], for field: ResolvedField) -> [String]? {
    let type = self.type(of: field)
    var texts: [String] = []
    for value in values {
      guard case .equals(let literal) = value else { return nil }
      if !literal.quoted, type == .boolean, Switch.reading(literal.text) != nil { return nil }
      guard case .text = meaning(of: literal, type: type) else { return nil }
      texts.append(literal.text)
    }
    return texts
  }

  /// The test one value of a field term compiles to.
  func valueTest(_ value: Value, for field: ResolvedField) throws(PlanError) -> ValueTest {
    let type = self.type(of: field)
    switch value {
    case .equals(let literal):
      if !literal.quoted, type == .boolean, let on = Switch.reading(literal.text) {
        return ValueTests.switchIs(on)
      }
      switch meaning(of: literal, type: type) {
      case .period(let p, let relative):
        return ValueTests.inPeriod(p, text: relative ? nil : literal.text)
      case .number(let n): return ValueTests.numberEquals(n, text: literal.text)
      case .text: return ValueTests.textEquals(anyOf: [literal.text])
      }
    case .compare(let op, let literal):
      switch meaning(of: literal, type: type) {
      case .period(let p, _): return ValueTests.dateCompare(op, p)
      case .number(let n): return ValueTests.numberCompare(op, n)
      case .text: return ValueTests.textCompare(op, literal.text)
      }
    case .range(let low, let high, let span):
      let lo = low.map { meaning(of: $0, type: type) }
      let hi = high.map { meaning(of: $0, type: type) }
      switch (lo, hi) {
      case (.number(let a)?, .number(let b)?): return ValueTests.numberRange(a, b)
      case (.number(let a)?, nil): return ValueTests.numberRange(a, nil)
      case (nil, .number(let b)?): return ValueTests.numberRange(nil, b)
      case (.period(let a, _)?, .period(let b, _)?): return ValueTests.dateRange(a, b)
      case (.period(let a, _)?, nil): return ValueTests.dateRange(a, nil)
      case (nil, .period(let b, _)?): return ValueTests.dateRange(nil, b)
      case (.text?, .text?), (.text?, nil), (nil, .text?), (nil, nil):
        return ValueTests.textRange(low?.text, high?.text)
      default:
        throw PlanError(
          message: "the ends of a range must be of one kind: both numbers, both dates or both text",
          span: span)
      }
    case .glob(let pattern, _):
      return ValueTests.glob(pattern)
    case .regex(let pattern, let caseInsensitive, let span):
      do {
        return ValueTests.regex(try RegexBox(pattern: pattern, caseInsensitive: caseInsensitive))
      } catch {
        throw RegexBox.planError(error, pattern: pattern, span: span)
      }
    case .empty:
      return ValueTests.isEmpty
    }
  }
}
