import SiftCore

/// The query line's text and the edits the screen makes to it (Docs/Interactive.md, How the
/// screen rewrites the query): terms and directives are found by the parser's spans and cut out
/// or replaced; new terms are appended. The user's own spelling of everything else is kept.
struct QueryText: Hashable, Sendable {
  var text: String

  init(_ text: String) { self.text = text }

  /// The parsed query, or `nil` when the text does not parse.
  var parsed: Query? { try? Parser.parse(text) }

  /// The text without the top-level filter `index` (the order of `Query.topLevelFilters`).
  func removingFilter(_ index: Int) -> QueryText? {
    guard let filters = parsed?.topLevelFilters, filters.indices.contains(index) else { return nil }
    return removing([filters[index].span])
  }

  /// The text without the directive of `kind`.
  func removingDirective(_ kind: Directive) -> QueryText {
    guard let clause = parsed?[kind] else { return self }
    return removing([clause.span])
  }

  /// The text without the top-level filters on `field` (its terms, `has:` and their negations).
  func removingFilters(on field: String) -> QueryText {
    guard let filters = parsed?.topLevelFilters else { return self }
    return removing(filters.filter { Self.field(of: $0).map { sameField($0, field) } ?? false }.map(\.span))
  }

  /// The top-level filters on `field`, each as (negated, the term).
  func filters(on field: String) -> [(negated: Bool, term: Term)] {
    (parsed?.topLevelFilters ?? []).compactMap { filter in
      switch filter {
      case .term(let term) where Self.field(of: filter).map({ sameField($0, field) }) == true:
        return (false, term)
      case .not(.term(let term), _) where Self.field(of: filter).map({ sameField($0, field) }) == true:
        return (true, term)
      default: return nil
      }
    }
  }

  /// The text with `directive` (`sort:-date`) in place of the directive of `kind`, or appended.
  func setting(_ kind: Directive, to directive: String) -> QueryText {
    guard let clause = parsed?[kind] else { return appending(directive) }
    var bytes = Array(text.utf8)
    bytes.replaceSubrange(clause.span.start..<clause.span.end, with: Array(directive.utf8))
    return QueryText(String(decoding: bytes, as: UTF8.self))
  }

  /// The text with `term` added at the end.
  func appending(_ term: String) -> QueryText {
    let kept = Self.trimmed(text)
    return QueryText(kept.isEmpty ? term : kept + " " + term)
  }

  /// The field a filter is on: a term, `has:`, or their negation.
  static func field(of filter: Expr) -> String? {
    switch filter {
    case .term(.field(let name, _, _)), .term(.has(let name, _)): return name.name
    case .not(let inner, _): return field(of: inner)
    default: return nil
    }
  }

  /// `sift` compares field names as the resolver does: exactly, else ignoring case, spaces and
  /// `_ - .` (Docs/QueryLanguage.md, Field names).
  func sameField(_ a: String, _ b: String) -> Bool {
    a == b || FieldResolver.normalize(a) == FieldResolver.normalize(b)
  }

  /// The text with the byte `spans` cut out (with the `AND` that joined them and the spaces
  /// around them), the rest joined by single spaces where a cut was made.
  private func removing(_ spans: [Span]) -> QueryText {
    var bytes = Array(text.utf8)
    for span in spans.map(withParentheses).sorted(by: { $0.start > $1.start }) {
      var left = String(decoding: bytes[..<span.start], as: UTF8.self)
      var right = String(decoding: bytes[span.end...], as: UTF8.self)
      left = Self.trimmed(left)
      right = Self.trimmed(right, leading: true)
      if left == "AND" || left.hasSuffix(" AND") || left.hasSuffix(")AND") {
        left = Self.trimmed(String(left.dropLast(3)))
      } else if right == "AND" || right.hasPrefix("AND ") || right.hasPrefix("AND(") {
        right = Self.trimmed(String(right.dropFirst(3)), leading: true)
      }
      let joined = left.isEmpty || right.isEmpty ? left + right : left + " " + right
      bytes = Array(joined.utf8)
    }
    return QueryText(String(decoding: bytes, as: UTF8.self))
  }

  /// `span` widened over the parentheses that belong to it: a group's span leaves its own
  /// parentheses out (`(a OR b)`, `-(a OR b)`).
  private func withParentheses(_ span: Span) -> Span {
    let bytes = Array(text.utf8)
    let (open, close) = (UInt8(ascii: "("), UInt8(ascii: ")"))
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    var (start, end) = (span.start, span.end)
    func depth() -> Int {
      bytes[start..<end].reduce(0) { $0 + ($1 == open ? 1 : $1 == close ? -1 : 0) }
    }
    func next(after index: Int) -> Int? {
      var i = index
      while i < bytes.count, isSpace(bytes[i]) { i += 1 }
      return i < bytes.count ? i : nil
    }
    func previous(before index: Int) -> Int? {
      var i = index - 1
      while i >= 0, isSpace(bytes[i]) { i -= 1 }
      return i >= 0 ? i : nil
    }
    while depth() > 0, let i = next(after: end), bytes[i] == close { end = i + 1 }
    while depth() < 0, let i = previous(before: start), bytes[i] == open { start = i }
    while let before = previous(before: start), let after = next(after: end),
      bytes[before] == open, bytes[after] == close
    {
      (start, end) = (before, after + 1)
    }
    return Span(start, end)
  }

  /// `text` without trailing (or, with `leading`, leading) whitespace.
  private static func trimmed(_ text: String, leading: Bool = false) -> String {
    leading
      ? String(text.drop(while: \.isWhitespace))
      : String(text.reversed().drop(while: \.isWhitespace).reversed())
  }

  /// A field name as the query writes it: bare, or quoted when it must be (`"GRN No"`).
  static func fieldText(_ field: String) -> String {
    FieldName(field, span: Span(0, 0)).canonicalText
  }

  /// A value as the query writes it: bare, or quoted when bare it would read as something else
  /// (a space, a comma, `*`, `..`, an operator at its start) or is empty.
  static func valueText(_ value: String) -> String {
    let bare = Literal(value, quoted: false, span: Span(0, 0))
    guard value.isEmpty || bare.readsBackDifferently else { return value }
    return Literal(value, quoted: true, span: Span(0, 0)).canonicalText
  }
}
