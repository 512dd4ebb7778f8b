/// The bytes of the query language beyond the shared names.
extension UInt8 {
  /// ASCII whitespace: the separator between terms.
  var isQuerySpace: Bool {
    self == .space || self == .tab || self == .lineFeed || self == .carriageReturn
      || self == .verticalTab || self == .formFeed
  }

  var isQuote: Bool { self == .quote || self == .singleQuote }

  var isASCIILetter: Bool {
    (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z")
  }
}

/// The keywords of Docs/QueryLanguage.md, Lexical rules (uppercase only).
public enum Keyword: String, Sendable, CaseIterable {
  case or = "OR"
  case and = "AND"
  case not = "NOT"
}

/// What a token at term level is. Values after `field:` are scanned by the parser through the
/// lexer's value scanners, because their rules (ranges, regexes, commas) differ from term level.
public enum TokenKind: Equatable, Sendable {
  /// `(`
  case leftParen
  /// `)`
  case rightParen
  /// `-` directly before a term or group: negation.
  case minus
  /// `OR`, `AND`, `NOT` standing alone.
  case keyword(Keyword)
  /// A field name and its `:` (`status:`, `"GRN No":`); the lexer stops right after the colon.
  /// `quoted` tells `"has":x` (a field named has) from `has:x`.
  case field(name: String, quoted: Bool)
  /// A word of free text (no unquoted `:`).
  case word(String)
  /// A quoted string not followed by `:`.
  case quoted(String)
  /// `=`, `>`, `>=`, `<`, `<=` standing alone: the operator of the canonical form `qty > 10`.
  case comparisonOperator(String)
  /// The end of the query.
  case end
}

/// A token at term level: its kind and the bytes it covers.
public struct Token: Equatable, Sendable {
  public var kind: TokenKind
  public var span: Span
  public init(_ kind: TokenKind, _ span: Span) {
    self.kind = kind
    self.span = span
  }
}
