/// A cursor over the query's UTF-8 bytes (Docs/QueryLanguage.md, Lexical rules).
///
/// `next()` reads term-level tokens. After a `field:` token the parser reads the values with the
/// scanners below (`scanQuoted`, `scanBare`, `scanRegex`, `scanName`), whose rules differ: a value
/// runs to the next unquoted space, `)` or `,`, and a regex runs to its closing `/`.
struct Lexer {
  let bytes: [UInt8]
  /// The next byte to read.
  var position = 0

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// The byte at `position + ahead`, or `nil` past the end.
  func peek(_ ahead: Int = 0) -> UInt8? {
    let i = position + ahead
    return i < bytes.count ? bytes[i] : nil
  }

  var isAtEnd: Bool { position >= bytes.count }

  /// A value or directive ends here: at a space, `)` or the end.
  var isAtTermEnd: Bool {
    guard let b = peek() else { return true }
    return b.isQuerySpace || b == .rightParen
  }

  /// One value of a list ends here: at a space, `)`, `,` or the end.
  var isAtValueEnd: Bool { isAtTermEnd || peek() == .comma }

  /// `..` starts here.
  var isAtRangeDots: Bool { peek() == .dot && peek(1) == .dot }

  mutating func skipWhitespace() {
    while let b = peek(), b.isQuerySpace { position += 1 }
  }

  /// The text of `bytes[start..<end]`.
  func text(_ start: Int, _ end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// Reads the next term-level token, skipping spaces before it.
  mutating func next() throws(QueryError) -> Token {
    skipWhitespace()
    let start = position
    guard let b = peek() else { return Token(.end, Span(start, start)) }
    switch b {
    case .leftParen:
      position += 1
      return Token(.leftParen, Span(start, position))
    case .rightParen:
      position += 1
      return Token(.rightParen, Span(start, position))
    case .minus where !(peek(1).map { $0.isQuerySpace || $0 == .rightParen } ?? true):
      position += 1
      return Token(.minus, Span(start, position))
    case .quote, .singleQuote:
      let literal = try scanQuoted()
      if peek() == .colon {
        guard !literal.text.isEmpty else {
          throw QueryError("expected a field name before ':'", at: start)
        }
        position += 1
        return Token(.field(name: literal.text, quoted: true), Span(start, position))
      }
      if let after = peek(), !after.isQuerySpace, after != .leftParen, after != .rightParen {
        throw QueryError("expected a space after the closing quote", at: position)
      }
      return Token(.quoted(literal.text), literal.span)
    default:
      return try scanWord()
    }
  }

  /// A bare word at term level: up to a space, `(`, `)` or `:`.
  private mutating func scanWord() throws(QueryError) -> Token {
    let start = position
    while let b = peek(), !b.isQuerySpace, b != .leftParen, b != .rightParen, b != .colon {
      position += 1
    }
    let word = text(start, position)
    if peek() == .colon {
      guard position > start else {
        throw QueryError("expected a field name before ':'", at: start)
      }
      position += 1
      return Token(.field(name: word, quoted: false), Span(start, position))
    }
    let span = Span(start, position)
    if let keyword = Keyword(rawValue: word) { return Token(.keyword(keyword), span) }
    if ["=", ">", ">=", "<", "<="].contains(word), isAtEnd || peek()?.isQuerySpace == true {
      return Token(.comparisonOperator(word), span)
    }
    return Token(.word(word), span)
  }

  /// A quoted string at `position` (which holds `"` or `'`); `\"`, `\'` and `\\` escape.
  /// An unclosed quote is an error at the opening quote.
  mutating func scanQuoted() throws(QueryError) -> Literal {
    let start = position
    let quote = bytes[start]
    position += 1
    var content: [UInt8] = []
    while let b = peek() {
      if b == quote {
        position += 1
        return Literal(
          String(decoding: content, as: UTF8.self), quoted: true, span: Span(start, position))
      }
      if b == .backslash, let escaped = peek(1),
        escaped == .quote || escaped == .singleQuote || escaped == .backslash
      {
        content.append(escaped)
        position += 2
      } else {
        content.append(b)
        position += 1
      }
    }
    let shown = quote == .quote ? "\"" : "'"
    throw QueryError("unclosed quote: expected a closing \(shown)", at: Span(start, start + 1))
  }

  /// Unquoted value text up to a space, `)`, `,` — and `..` when `stoppingAtRange`.
  mutating func scanBare(stoppingAtRange: Bool) -> Literal {
    let start = position
    while !isAtValueEnd && !(stoppingAtRange && isAtRangeDots) { position += 1 }
    return Literal(text(start, position), quoted: false, span: Span(start, position))
  }

  /// A field name in a directive or `has:`: quoted, or bare up to a space, `)` or `,`.
  /// `nil` when no name stands here (or only `""`), with `position` unchanged.
  mutating func scanName() throws(QueryError) -> FieldName? {
    if let b = peek(), b.isQuote {
      let start = position
      let literal = try scanQuoted()
      guard !literal.text.isEmpty else {
        position = start
        return nil
      }
      return FieldName(literal.text, span: literal.span)
    }
    let bare = scanBare(stoppingAtRange: false)
    return bare.text.isEmpty ? nil : FieldName(bare.text, span: bare.span)
  }

  /// `/pattern/flags` at `position`: the pattern runs to the next unescaped `/`, spaces and
  /// parentheses included; the only flag is `i`.
  mutating func scanRegex() throws(QueryError) -> Value {
    let start = position
    position += 1
    while let b = peek(), b != .slash {
      position += b == .backslash && peek(1) != nil ? 2 : 1
    }
    guard !isAtEnd else {
      throw QueryError("unclosed regex: expected a closing '/'", at: Span(start, start + 1))
    }
    let pattern = text(start + 1, position)
    guard !pattern.isEmpty else {
      throw QueryError("expected a regex pattern between '/' and '/'", at: position)
    }
    position += 1
    var caseInsensitive = false
    while let b = peek(), b.isASCIILetter {
      guard b == UInt8(ascii: "i") else {
        throw QueryError(
          "unknown regex flag '\(text(position, position + 1))': expected 'i' or nothing",
          at: position)
      }
      caseInsensitive = true
      position += 1
    }
    return .regex(pattern: pattern, caseInsensitive: caseInsensitive, Span(start, position))
  }
}
