import Testing

@testable import SiftCore

@Suite struct LexerTests {
  func kinds(_ text: String) throws -> [TokenKind] {
    var lexer = Lexer(text)
    var kinds: [TokenKind] = []
    while true {
      let token = try lexer.next()
      if token.kind == .end { return kinds }
      kinds.append(token.kind)
      if case .field = token.kind { _ = lexer.scanBare(stoppingAtRange: false) }
    }
  }

  @Test func keywordsAreUppercaseOnly() throws {
    #expect(
      try kinds("a OR b or c AND d and NOT not") == [
        .word("a"), .keyword(.or), .word("b"), .word("or"), .word("c"), .keyword(.and), .word("d"),
        .word("and"), .keyword(.not), .word("not"),
      ])
  }

  @Test func minusNegatesOnlyWhenATermFollows() throws {
    #expect(
      try kinds("-a - -(b) -") == [
        .minus, .word("a"), .word("-"), .minus, .leftParen, .word("b"), .rightParen, .word("-"),
      ])
  }

  @Test func fieldNameEndsAtTheFirstUnquotedColon() throws {
    #expect(
      try kinds("time:10:30 \"a:b\":c 'x y':z") == [
        .field(name: "time", quoted: false), .field(name: "a:b", quoted: true),
        .field(name: "x y", quoted: true),
      ])
  }

  @Test func wordsEndAtParentheses() throws {
    #expect(
      try kinds("NOT(a)b") == [
        .keyword(.not), .leftParen, .word("a"), .rightParen, .word("b"),
      ])
  }

  @Test func comparisonOperatorsStandAlone() throws {
    #expect(
      try kinds("qty > 10 a >= b =x <") == [
        .word("qty"), .comparisonOperator(">"), .word("10"), .word("a"), .comparisonOperator(">="),
        .word("b"), .word("=x"), .comparisonOperator("<"),
      ])
  }

  @Test func quotedStringsUnescape() throws {
    #expect(try kinds(#""a \"b\" \\ \c" 'it\'s'"#) == [.quoted(#"a "b" \ \c"#), .quoted("it's")])
  }

  @Test func tokensCarryByteSpans() throws {
    var lexer = Lexer("Müller  (x")
    #expect(try lexer.next() == Token(.word("Müller"), Span(0, 7)))
    #expect(try lexer.next() == Token(.leftParen, Span(9, 10)))
    #expect(try lexer.next() == Token(.word("x"), Span(10, 11)))
    #expect(try lexer.next() == Token(.end, Span(11, 11)))
  }

  @Test func regexRunsToTheClosingSlash() throws {
    var lexer = Lexer(#"/a \/ (b)/i rest"#)
    guard case .regex(let pattern, let caseInsensitive, let span) = try lexer.scanRegex() else {
      Issue.record("expected a regex")
      return
    }
    #expect(pattern == #"a \/ (b)"#)
    #expect(caseInsensitive)
    #expect(span == Span(0, 11))
  }
}
