/// The canonical form of a query (Docs/QueryLanguage.md, Errors), printed by `sift --explain`:
///
///     (status = "received") AND (customer = "Acme") sort: date desc group: customer
///
/// Every field term stands in parentheses as `(FIELD OP VALUES)`: a single comparison as
/// `(qty > 10)`, anything else as `(FIELD = VALUES)` with the values written as after `field:`
/// (`10..50`, `acme*`, `/bolt/i`, `""`, `"received","pending"`). Operators are spelled out:
/// `AND`, `OR`, `NOT`; an OR inside an AND (and an AND inside an OR) gets parentheses.
/// Directives follow in the order sort, group, limit, fields. The parser reads this form back
/// to an equivalent query (`Query.isEquivalent(to:)`), and it is a fixed point.
///
/// Literals: a quoted literal, or an unquoted plain word (letters only, not a relative-date or
/// switch word), is written in double quotes — quoting a plain word changes nothing. Other
/// unquoted words (`10`, `2024-03`, `this-week`, `on`) are written bare, because quoting them
/// would make them literal text.
extension Query {
  /// The query in canonical form; the empty string for the empty query.
  public var canonicalForm: String {
    var parts: [String] = []
    let hasDirectives = !directives.isEmpty
    if let filter {
      // A directive after a bare OR would read as part of its last branch: keep it apart.
      if case .or = filter, hasDirectives {
        parts.append("(" + filter.canonicalForm + ")")
      } else {
        parts.append(filter.canonicalForm)
      }
    }
    parts += directives.map { "\($0.kind.name): " + $0.value.canonicalForm }
    return parts.joined(separator: " ")
  }
}

extension DirectiveValue {
  /// What follows `KIND: ` in the canonical form.
  var canonicalForm: String {
    switch self {
    case .sort(let keys):
      return keys.map { "\($0.field.canonicalText) \($0.descending ? "desc" : "asc")" }
        .joined(separator: ", ")
    case .group(let fields): return fields.map(\.canonicalText).joined(separator: ", ")
    case .limit(let n, let perGroup): return "\(n)" + (perGroup ? "/group" : "")
    case .fields(let names, let excluding):
      return names.map { (excluding ? "-" : "") + $0.canonicalText }.joined(separator: ", ")
    case .aggregate(_, let names):
      return names.map(\.canonicalText).joined(separator: ", ")
    }
  }
}

extension Expr {
  /// This expression in canonical form.
  public var canonicalForm: String {
    switch self {
    case .and(let operands, _):
      return operands.map { $0.canonicalOperand(parenthesizing: { $0.isOr || $0.isAnd }) }
        .joined(separator: " AND ")
    case .or(let operands, _):
      return operands.map { $0.canonicalOperand(parenthesizing: { $0.isOr || $0.isAnd }) }
        .joined(separator: " OR ")
    case .not(let operand, _):
      return "NOT " + operand.canonicalOperand(parenthesizing: { $0.isOr || $0.isAnd })
    case .term(let term):
      return term.canonicalForm
    }
  }

  private func canonicalOperand(parenthesizing needsParentheses: (Expr) -> Bool) -> String {
    needsParentheses(self) ? "(\(canonicalForm))" : canonicalForm
  }

  private var isAnd: Bool { if case .and = self { true } else { false } }
  private var isOr: Bool { if case .or = self { true } else { false } }
}

extension Term {
  /// This term in canonical form: `(status = "received")`, `(qty > 10)`, `has:customer`, `"acme"`.
  public var canonicalForm: String {
    switch self {
    case .field(let name, let values, _):
      if values.count == 1, case .compare(let comparison, let literal) = values[0] {
        return "(\(name.canonicalText) \(comparison.rawValue) \(literal.canonicalText))"
      }
      return "(\(name.canonicalText) = \(values.map(\.canonicalText).joined(separator: ",")))"
    case .has(let name, _):
      return "has:" + name.canonicalText
    case .text(let literal, _):
      return literal.canonicalText
    }
  }
}

extension Value {
  /// The value as written after `field:` in canonical form.
  public var canonicalText: String {
    switch self {
    case .equals(let literal): return literal.canonicalText
    case .compare(let comparison, let literal): return comparison.rawValue + literal.canonicalText
    case .range(let lower, let upper, _):
      return (lower?.canonicalText ?? "*") + ".." + (upper?.canonicalText ?? "*")
    case .glob(let pattern, _): return pattern
    case .regex(let pattern, let caseInsensitive, _):
      return "/\(pattern)/" + (caseInsensitive ? "i" : "")
    case .empty: return "\"\""
    }
  }
}

extension Literal {
  /// A word of letters only, whose meaning does not change when quoted: not a relative date
  /// (`today`) or switch spelling (`on`). Such words are written quoted in canonical form.
  public var isPlainWord: Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { $0.isASCIILetter || $0 >= 0x80 }
      && !Literal.meaningfulWords.contains(text.lowercased())
  }

  private static let meaningfulWords: Set<String> = [
    "today", "yesterday", "on", "off", "yes", "no", "true", "false", "y", "n",
  ]

  /// The literal in canonical form: quoted (and escaped) when it was quoted, is a plain word or
  /// would read back differently bare, else bare as written.
  public var canonicalText: String {
    quoted || isPlainWord || readsBackDifferently ? quotedText(text) : text
  }

  /// Whether the text, written bare, could read back as something else: an operator, regex or
  /// quote at its start, or `..`, `*`, `,`, a space or a parenthesis inside. Quoting such a
  /// word changes nothing else, since no number, date or relative date is written that way.
  public var readsBackDifferently: Bool {
    let bytes = Array(text.utf8)
    guard let first = bytes.first else { return true }
    if [.less, .greater, .equals, .slash].contains(first) || first.isQuote { return true }
    for (i, b) in bytes.enumerated() {
      if b.isQuerySpace || [.comma, UInt8(ascii: "*"), .leftParen, .rightParen].contains(b) { return true }
      if b == .dot && i + 1 < bytes.count && bytes[i + 1] == .dot { return true }
    }
    return false
  }
}

extension FieldName {
  /// The name as written in canonical form: bare when it reads back as the same name, else
  /// quoted (`"GRN No"`, `"sort"`, `"OR"`, `"in/out"`, since `group:` reads a bare `/` as a
  /// time bucket); a group field's time bucket after it (`date/month`).
  public var canonicalText: String {
    let bytes = Array(name.utf8)
    let bare =
      !bytes.isEmpty
      && bytes.allSatisfy {
        !$0.isQuerySpace && !$0.isQuote
          && ![.colon, .comma, .leftParen, .rightParen, .slash].contains($0)
      }
      && ![.minus, .less, .greater, .equals].contains(bytes[0])
      && Keyword(rawValue: name) == nil && Directive(name: name) == nil && name != "has"
    return (bare ? name : quotedText(name)) + (bucket.map { "/" + $0.rawValue } ?? "")
  }
}

/// `text` in double quotes with `\` and `"` escaped.
func quotedText(_ text: String) -> String {
  var out = "\""
  for c in text.unicodeScalars {
    if c == "\"" || c == "\\" { out.unicodeScalars.append("\\") }
    out.unicodeScalars.append(c)
  }
  return out + "\""
}
