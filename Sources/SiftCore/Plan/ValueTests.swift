/// A test of one field value.
typealias ValueTest = @Sendable (FieldValue) -> Bool

/// Calls `body` with the value's decoded bytes, decoding only when the raw bytes are not the value.
@inline(__always)
func withValueBytes<R>(_ v: FieldValue, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
  if v.isVerbatim { return body(v.content) }
  let decoded = v.decodedBytes()
  return decoded.withUnsafeBufferPointer(body)
}

/// The closures a plan's typed tests compile to (Docs/QueryLanguage.md, Filter terms).
enum ValueTests {
  /// The closure for `test` over an input whose numbers use the decimal `mark`, its dates read
  /// in `convention`; a regular expression gets a matcher of its own.
  static func closure(
    for test: TypedTest, mark: DecimalMark = .point, _ convention: DateConvention
  ) -> ValueTest {
    switch test {
    case .textIn(let texts): return textEquals(anyOf: texts)
    case .numberEquals(let n, let text): return numberEquals(n, text: text, mark: mark)
    case .inPeriod(let p, let text, _): return inPeriod(p, text: text, convention)
    case .switchIs(let on): return switchIs(on)
    case .numberCompare(let op, let n): return numberCompare(op, n, mark: mark)
    case .dateCompare(let op, let p): return dateCompare(op, p, convention)
    case .textCompare(let op, let text): return textCompare(op, text)
    case .numberRange(let low, let high): return numberRange(low, high, mark: mark)
    case .dateRange(let low, let high): return dateRange(low, high, convention)
    case .textRange(let low, let high): return textRange(low, high)
    case .glob(let pattern): return glob(pattern)
    case .regex(_, _, let program): return regex(RegexBox(program))
    case .empty: return isEmpty
    case .present: return isPresent
    }
  }

  /// Case-insensitive text equality with any of `literals` (`status:received,pending`): one
  /// closure, no allocation per value; an ASCII value is compared byte by byte, folding on the fly.
  static func textEquals(anyOf literals: [String]) -> ValueTest {
    let needles = literals.map(TextFold.Needle.init)
    let matchesEmpty = needles.contains { $0.bytes.isEmpty }
    if needles.count == 1 {
      let needle = needles[0]
      return { v in
        if v.form == .missing { return matchesEmpty }
        if v.isVerbatim { return needle.matches(v.content) }
        return v.decodedBytes().withUnsafeBufferPointer { needle.matches($0) }
      }
    }
    return { v in
      if v.form == .missing { return matchesEmpty }
      return withValueBytes(v) { b in
        for needle in needles where needle.matches(b) { return true }
        return false
      }
    }
  }

  /// Numeric equality when the value reads as a number, else text equality (`qty:10` = `10.0`).
  /// Numbers compare exactly at any length (Docs/QueryLanguage.md, How numbers compare).
  static func numberEquals(_ number: NumberLiteral, text: String, mark: DecimalMark) -> ValueTest {
    let folded = TextFold.fold(text)
    return { v in
      withValueBytes(v) { b in
        if let n = NumberParser.read(b, mark: mark) { return number.order(of: n, b, mark: mark) == 0 }
        return TextFold.equals(b, folded: folded)
      }
    }
  }

  /// The value's date falls in `period`; a value that is not a date is compared as text, when
  /// `text` is given, else does not match.
  static func inPeriod(_ period: Period, text: String?, _ convention: DateConvention) -> ValueTest {
    let folded = text.map(TextFold.fold)
    return { v in
      withValueBytes(v) { b in
        if let d = DateParser.parse(b, convention) { return d.time >= period.start && d.time < period.end }
        guard let folded else { return false }
        return TextFold.equals(b, folded: folded)
      }
    }
  }

  /// Switch spellings: `on` matches on-spellings, `off` off-spellings and empty values.
  static func switchIs(_ on: Bool) -> ValueTest {
    { v in
      if v.isNullLike { return !on }
      return withValueBytes(v) { b in Switch.reading(b)?.on == on }
    }
  }

  static func numberCompare(_ op: Comparison, _ number: NumberLiteral, mark: DecimalMark) -> ValueTest {
    { v in
      withValueBytes(v) { b in
        guard let n = NumberParser.read(b, mark: mark) else { return false }
        let c = number.order(of: n, b, mark: mark)
        switch op {
        case .less: return c < 0
        case .lessOrEqual: return c <= 0
        case .greater: return c > 0
        case .greaterOrEqual: return c >= 0
        }
      }
    }
  }

  /// Chronological comparison against a period: `>` after it, `>=` from its start, `<` before
  /// it, `<=` up to its end.
  static func dateCompare(
    _ op: Comparison, _ period: Period, _ convention: DateConvention
  ) -> ValueTest {
    { v in
      withValueBytes(v) { b in
        guard let d = DateParser.parse(b, convention) else { return false }
        switch op {
        case .less: return d.time < period.start
        case .lessOrEqual: return d.time < period.end
        case .greater: return d.time >= period.end
        case .greaterOrEqual: return d.time >= period.start
        }
      }
    }
  }

  /// Case-insensitive string order; empty and null values do not compare.
  static func textCompare(_ op: Comparison, _ text: String) -> ValueTest {
    let folded = TextFold.fold(text)
    return { v in
      if v.isNullLike { return false }
      let c = withValueBytes(v) { TextFold.compare(TextFold.fold($0), folded) }
      switch op {
      case .less: return c < 0
      case .lessOrEqual: return c <= 0
      case .greater: return c > 0
      case .greaterOrEqual: return c >= 0
      }
    }
  }

  static func numberRange(_ low: NumberLiteral?, _ high: NumberLiteral?, mark: DecimalMark) -> ValueTest {
    { v in
      withValueBytes(v) { b in
        guard let n = NumberParser.read(b, mark: mark) else { return false }
        return (low.map { $0.order(of: n, b, mark: mark) >= 0 } ?? true)
          && (high.map { $0.order(of: n, b, mark: mark) <= 0 } ?? true)
      }
    }
  }

  static func dateRange(
    _ low: Period?, _ high: Period?, _ convention: DateConvention
  ) -> ValueTest {
    { v in
      withValueBytes(v) { b in
        guard let d = DateParser.parse(b, convention) else { return false }
        return (low.map { d.time >= $0.start } ?? true) && (high.map { d.time < $0.end } ?? true)
      }
    }
  }

  static func textRange(_ low: String?, _ high: String?) -> ValueTest {
    let lo = low.map(TextFold.fold)
    let hi = high.map(TextFold.fold)
    return { v in
      if v.isNullLike { return false }
      let f = withValueBytes(v) { TextFold.fold($0) }
      return (lo.map { TextFold.compare(f, $0) >= 0 } ?? true)
        && (hi.map { TextFold.compare(f, $0) <= 0 } ?? true)
    }
  }

  static func glob(_ pattern: String) -> ValueTest {
    let parts = TextFold.fold(pattern).split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
      .map { Array($0) }
    return { v in
      if v.form == .missing { return false }
      return withValueBytes(v) { TextFold.globMatches(TextFold.fold($0), pattern: parts) }
    }
  }

  static func regex(_ box: RegexBox) -> ValueTest {
    { v in
      if v.form == .missing { return false }
      return withValueBytes(v) { box.matches($0) }
    }
  }

  static let isEmpty: ValueTest = { $0.isNullLike }
  static let isPresent: ValueTest = { !$0.isNullLike }

  /// Case-insensitive substring (free text); `null` and missing values hold no text.
  static func contains(_ folded: [UInt8]) -> ValueTest {
    { v in
      switch v.form {
      case .missing, .jsonNull: return false
      default: return withValueBytes(v) { TextFold.contains($0, folded: folded) }
      }
    }
  }
}

/// A compiled regular expression (Sources/SiftCore/Plan/Regex) with its matcher's scratch state.
/// Each compiled filter gets its own box, so no two threads share one.
final class RegexBox: @unchecked Sendable {
  private var matcher: RegexMatcher
  init(_ program: RegexProgram) {
    matcher = RegexMatcher(program)
  }
  func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { matcher.matches(bytes) }
}

extension RegexBox {
  /// A rejected pattern as a query error whose caret points into the pattern; `span` covers
  /// the whole `/pattern/flags` value.
  static func planError(_ error: RegexError, pattern: String, span: Span) -> PlanError {
    let at = span.start + 1 + error.offset
    return PlanError(
      message: "invalid regular expression /\(pattern)/: \(error.message)", span: Span(at, at + 1))
  }
}
