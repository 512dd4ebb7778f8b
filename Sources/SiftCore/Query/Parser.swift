/// The recursive-descent parser of Docs/QueryLanguage.md, Grammar (precedence NOT > AND > OR).
///
/// It also accepts the canonical form that `Query.canonicalForm` prints (`(qty > 10)`,
/// `sort: date desc`), so a canonical query parses back to the same query.
public struct Parser {
  /// How deeply parentheses and negations may nest; deeper is a query error.
  public static let maxDepth = 256

  /// Parses a whole query.
  public static func parse(_ text: String) throws(QueryError) -> Query {
    var parser = try Parser(text)
    return try parser.parseQuery()
  }

  /// A parsed operand of AND: a filter, or a directive (which is not a filter).
  private enum Operand {
    case filter(Expr)
    case directive(Directive, Span)
  }

  private var lexer: Lexer
  /// The token at hand; the lexer stands right after it.
  private var current: Token
  /// Where the last consumed token or value ended: "expected X" errors point here.
  private var lastEnd = 0
  /// Open parentheses plus pending negations, capped at `maxDepth`.
  private var depth = 0
  /// Open parentheses only: directives must stand outside all of them.
  private var parenDepth = 0
  private var query = Query()

  private init(_ text: String) throws(QueryError) {
    lexer = Lexer(text)
    current = try lexer.next()
  }

  /// Consumes the token at hand.
  private mutating func advance() throws(QueryError) {
    lastEnd = current.span.end
    current = try lexer.next()
  }

  /// Reads the next token after values were scanned directly from the lexer.
  private mutating func resumeAfterValues() throws(QueryError) {
    lastEnd = lexer.position
    current = try lexer.next()
  }

  private func source(_ span: Span) -> String { lexer.text(span.start, span.end) }

  /// Whether the token at hand ends an AND-sequence.
  private var atEndOfSequence: Bool {
    switch current.kind {
    case .end, .rightParen, .keyword(.or), .keyword(.and): return true
    default: return false
    }
  }

  private mutating func parseQuery() throws(QueryError) -> Query {
    let filter = try parseOr()
    if current.kind == .rightParen {
      throw QueryError("unmatched ')': no '(' opens it", at: current.span)
    }
    query.filter = filter
    return query
  }

  /// `expr := and ( "OR" and )*`
  private mutating func parseOr() throws(QueryError) -> Expr? {
    var (first, directives) = try parseAnd()
    guard current.kind == .keyword(.or) else { return first }
    var branches: [Expr] = []
    while current.kind == .keyword(.or) {
      let or = current
      if let (directive, span) = directives.first { throw Self.directiveInOr(directive, span) }
      guard let operand = first else {
        throw QueryError("expected a term before 'OR'", at: or.span)
      }
      branches.append(operand)
      try advance()
      (first, directives) = try parseAnd()
      if first == nil && directives.isEmpty {
        throw QueryError("expected a term after 'OR'", at: or.span.end)
      }
    }
    if let (directive, span) = directives.first { throw Self.directiveInOr(directive, span) }
    guard let last = first else { throw QueryError("expected a term", at: current.span) }
    branches.append(last)
    return .or(branches, branches[0].span.union(last.span))
  }

  private static func directiveInOr(_ directive: Directive, _ span: Span) -> QueryError {
    QueryError(
      "'\(directive.name):' cannot be part of an OR; it applies to the whole query, "
        + "so write it outside the OR", at: span)
  }

  /// `and := unary ( "AND"? unary )*`; directives are taken out and returned beside.
  private mutating func parseAnd() throws(QueryError) -> (Expr?, [(Directive, Span)]) {
    var operands: [Expr] = []
    var directives: [(Directive, Span)] = []
    while true {
      switch current.kind {
      case .end, .rightParen, .keyword(.or):
        let filter: Expr? =
          switch operands.count {
          case 0: nil
          case 1: operands[0]
          default: .and(operands, operands[0].span.union(operands[operands.count - 1].span))
          }
        return (filter, directives)
      case .keyword(.and):
        let and = current
        if operands.isEmpty && directives.isEmpty {
          throw QueryError("expected a term before 'AND'", at: and.span)
        }
        try advance()
        if atEndOfSequence { throw QueryError("expected a term after 'AND'", at: and.span.end) }
      default:
        let before = current.span.start
        switch try parseUnary() {
        case .filter(let expr): operands.append(expr)
        case .directive(let directive, let span): directives.append((directive, span))
        }
        guard current.span.start > before else {
          throw QueryError("unexpected '\(source(current.span))'", at: current.span)
        }
      }
    }
  }

  /// `unary := ( "-" | "NOT" ) unary | primary`, read as a loop so negations cannot overflow.
  private mutating func parseUnary() throws(QueryError) -> Operand {
    var negations: [Token] = []
    defer { depth -= negations.count }
    while current.kind == .minus || current.kind == .keyword(.not) {
      let negation = current
      guard depth < Self.maxDepth else {
        throw QueryError(
          "negations nested too deeply (the limit is \(Self.maxDepth))", at: negation.span)
      }
      depth += 1
      negations.append(negation)
      try advance()
      if atEndOfSequence {
        throw QueryError("expected a term after '\(source(negation.span))'", at: negation.span.end)
      }
    }
    let operand = try parsePrimary()
    guard case .filter(var expr) = operand else {
      if case .directive(let directive, _) = operand, let negation = negations.first {
        throw QueryError(
          "'\(directive.name):' cannot be negated; directives are not filters",
          at: negation.span)
      }
      return operand
    }
    for negation in negations.reversed() {
      expr = .not(expr, Span(negation.span.start, lastEnd))
    }
    return .filter(expr)
  }

  /// `primary := "(" expr ")" | term`
  private mutating func parsePrimary() throws(QueryError) -> Operand {
    let token = current
    switch token.kind {
    case .leftParen:
      guard depth < Self.maxDepth else {
        throw QueryError(
          "parentheses nested too deeply (the limit is \(Self.maxDepth))", at: token.span)
      }
      depth += 1
      parenDepth += 1
      try advance()
      if current.kind == .rightParen {
        throw QueryError("expected a term after '('", at: token.span.end)
      }
      let inner = try parseOr()
      guard current.kind == .rightParen, let inner else {
        throw QueryError("unclosed '(': expected ')'", at: token.span)
      }
      try advance()
      depth -= 1
      parenDepth -= 1
      return .filter(inner)
    case .field(let name, let quoted):
      let fieldName = FieldName(name, span: Span(token.span.start, token.span.end - 1))
      if !quoted, let directive = Directive(name: name) {
        return try parseDirective(directive, token)
      }
      if !quoted && name == "has" { return try parseHas(token) }
      let values = try scanValues(after: "'\(source(token.span))'", presetComparison: nil)
      try resumeAfterValues()
      return .filter(.term(.field(fieldName, values, Span(token.span.start, lastEnd))))
    case .word(let text), .quoted(let text), .comparisonOperator(let text):
      var probe = lexer
      if case .comparisonOperator(let op)? = (try? probe.next())?.kind,
        token.kind != .comparisonOperator(text)
      {
        lexer = probe
        lexer.skipWhitespace()
        let values = try scanValues(after: "'\(op)'", presetComparison: Comparison(rawValue: op))
        try resumeAfterValues()
        let field = FieldName(text, span: token.span)
        return .filter(.term(.field(field, values, Span(token.span.start, lastEnd))))
      }
      let quoted = token.kind == .quoted(text)
      if token.kind == .word(text), let foreign = ForeignComparison(text) {
        throw QueryError(
          "'\(text)' is not a sift comparison: did you mean \(foreign.siftSpelling)?",
          at: token.span, notes: ["to search for the text itself, quote it: \"\(text)\""])
      }
      try advance()
      let literal = Literal(text, quoted: quoted, span: token.span)
      return .filter(.term(.text(literal, token.span)))
    case .keyword(let keyword):
      throw QueryError("expected a term before '\(keyword.rawValue)'", at: token.span)
    case .rightParen:
      throw QueryError("unmatched ')': no '(' opens it", at: token.span)
    case .minus, .end:
      throw QueryError("expected a term", at: token.span)
    }
  }

  // MARK: Values

  /// `values := value ( "," value )*`, each value running to a space, `)` or `,`.
  /// `presetComparison` is the operator of the canonical `qty > 10`, already read.
  private mutating func scanValues(
    after description: String, presetComparison: Comparison?
  ) throws(QueryError) -> [Value] {
    var values: [Value] = []
    var after = description
    var comparison = presetComparison
    while true {
      values.append(try scanValue(after: after, presetComparison: comparison))
      comparison = nil
      if lexer.peek() == .comma {
        lexer.position += 1
        after = "','"
        continue
      }
      guard lexer.isAtTermEnd else {
        throw QueryError("expected ',' or a space after the value", at: lexer.position)
      }
      return values
    }
  }

  /// `value := op? scalar | scalar ".." scalar | "/" regex "/" flags? | '""'`
  private mutating func scanValue(
    after description: String, presetComparison: Comparison?
  ) throws(QueryError) -> Value {
    let start = lexer.position
    guard !lexer.isAtValueEnd else {
      throw QueryError("expected a value after \(description)", at: start)
    }
    var comparison = presetComparison
    if comparison == nil, let b = lexer.peek(), b == .less || b == .greater {
      lexer.position += lexer.peek(1) == .equals ? 2 : 1
      comparison = Comparison(rawValue: lexer.text(start, lexer.position))
      guard !lexer.isAtValueEnd else {
        throw QueryError(
          "expected a value after '\(lexer.text(start, lexer.position))'", at: lexer.position)
      }
    }
    if let comparison {
      let literal =
        lexer.peek()?.isQuote == true
        ? try lexer.scanQuoted() : lexer.scanBare(stoppingAtRange: false)
      return .compare(comparison, literal)
    }
    if lexer.peek() == .slash { return try lexer.scanRegex() }
    let lower: Literal
    if lexer.peek()?.isQuote == true {
      lower = try lexer.scanQuoted()
      if !lexer.isAtRangeDots { return lower.text.isEmpty ? .empty(lower.span) : .equals(lower) }
    } else {
      lower = lexer.scanBare(stoppingAtRange: true)
      if !lexer.isAtRangeDots {
        return lower.text.contains("*") ? .glob(lower.text, lower.span) : .equals(lower)
      }
      guard !lower.text.isEmpty else {
        throw QueryError("expected a value or '*' before '..'", at: start)
      }
    }
    lexer.position += 2
    guard !lexer.isAtValueEnd else {
      throw QueryError("expected a value or '*' after '..'", at: lexer.position)
    }
    let upper =
      lexer.peek()?.isQuote == true
      ? try lexer.scanQuoted() : lexer.scanBare(stoppingAtRange: false)
    func bound(_ literal: Literal) -> Literal? {
      !literal.quoted && literal.text == "*" ? nil : literal
    }
    return .range(bound(lower), bound(upper), Span(start, lexer.position))
  }

  // MARK: has: and directives

  private mutating func parseHas(_ token: Token) throws(QueryError) -> Operand {
    guard let name = try lexer.scanName() else {
      throw QueryError("expected a field name after 'has:'", at: token.span.end)
    }
    if lexer.peek() == .comma {
      throw QueryError(
        "'has:' takes one field name; write one has: per field", at: lexer.position)
    }
    try expectTermEnd(after: "the field name")
    try resumeAfterValues()
    return .filter(.term(.has(name, Span(token.span.start, lastEnd))))
  }

  private func expectTermEnd(after what: String) throws(QueryError) {
    guard lexer.isAtTermEnd else {
      throw QueryError("expected a space after \(what)", at: lexer.position)
    }
  }

  /// `sort:-date,customer`, `group:customer`, `limit:20`, `fields:a,b`, or their canonical
  /// forms with a space after the colon: `sort: date desc, customer asc`, `fields: a, b`.
  private mutating func parseDirective(
    _ directive: Directive, _ token: Token
  ) throws(QueryError) -> Operand {
    let written = "'\(directive.name):'"
    guard parenDepth == 0 else {
      throw QueryError(
        "\(written) must stand at the top level of the query, not inside parentheses",
        at: token.span)
    }
    if query[directive] != nil {
      let hint =
        switch directive {
        case .sort: "list all keys in one, e.g. sort:-date,customer"
        case .group: "list all group fields in one, e.g. group:customer,status"
        case .limit: "a query has one limit"
        case .fields: "list all fields in one, e.g. fields:date,customer"
        default: "list all its fields in one, e.g. \(directive.name):amount,qty"
        }
      throw QueryError("\(written) may appear only once; \(hint)", at: token.span)
    }
    let canonical = lexer.peek()?.isQuerySpace == true
    lexer.skipWhitespace()
    guard !lexer.isAtTermEnd else {
      throw QueryError("expected a value after \(written)", at: token.span.end)
    }
    let value: DirectiveValue
    switch directive {
    case .sort: value = .sort(try scanSortKeys(canonical: canonical))
    case .fields:
      // `fields:a,b` keeps those fields; `fields:-a,-b` leaves them out: all or none negated.
      var names: [FieldName] = []
      var after = written
      var excluding: Bool?
      repeat {
        let minus = lexer.position
        let negated = lexer.peek() == .minus
        if negated { lexer.position += 1 }
        if let excluding, excluding != negated {
          throw QueryError(
            "'fields:' either keeps fields (fields:a,b) or leaves them out (fields:-a,-b); "
              + "do not mix the two", at: minus)
        }
        excluding = negated
        try rejectSecondMinus(after: "'-'")
        guard let name = try lexer.scanName() else {
          throw QueryError(
            "expected a field name after \(negated ? "'-'" : after)", at: lexer.position)
        }
        names.append(name)
        after = "','"
      } while consumeListComma(canonical: canonical)
      value = .fields(names, excluding: excluding ?? false)
    case .group:
      // `group:a,b` nests: by a, inside each a by b (Docs/QueryLanguage.md, Directives).
      var names: [FieldName] = []
      var named = Set<String>()
      var after = written
      repeat {
        if lexer.peek() == .minus {
          throw QueryError(
            "'group:' takes field names; to reverse the groups, sort by the group field: "
              + "group:FIELD sort:-FIELD", at: lexer.position)
        }
        guard let written = try lexer.scanName() else {
          throw QueryError("expected a field name after \(after)", at: lexer.position)
        }
        let name = try bucketed(written)
        if !named.insert(name.normalizedName).inserted {
          throw QueryError(
            "group:\(name.canonicalText) is named twice; name each group field once",
            at: name.span)
        }
        names.append(name)
        after = "','"
      } while consumeListComma(canonical: canonical)
      value = .group(names)
    case .limit:
      value = try scanLimit()
    default:
      value = .aggregate(directive.aggregate!, try scanNameList(after: written, canonical: canonical))
    }
    try expectTermEnd(after: written)
    let span = Span(token.span.start, lexer.position)
    query.set(DirectiveClause(value, span: span))
    try resumeAfterValues()
    return .directive(directive, span)
  }

  /// `limit:20`, or `limit:3/group` for the first 3 records of each group.
  private mutating func scanLimit() throws(QueryError) -> DirectiveValue {
    let written = lexer.scanBare(stoppingAtRange: false)
    let parts = written.text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    let number = parts[0]
    guard number.utf8.allSatisfy(\.isDigit), let limit = Int(number) else {
      throw QueryError(
        "expected a whole number (0 or more) after 'limit:', not '\(number)'",
        at: Span(written.span.start, written.span.start + number.utf8.count))
    }
    guard parts.count == 2 else { return .limit(limit, perGroup: false) }
    let per = written.span.start + number.utf8.count + 1
    guard parts[1] == "group" else {
      throw QueryError(
        "expected 'group' after '\(number)/', not '\(parts[1])'", at: Span(per, written.span.end),
        notes: ["  limit:\(number)/group keeps the first \(number) records of each group"])
    }
    guard limit > 0 else {
      throw QueryError(
        "limit:0/group would keep no record of any group", at: written.span,
        notes: ["  keep at least 1 record per group (limit:1/group), or none at all with limit:0"])
    }
    return .limit(limit, perGroup: true)
  }

  /// Field names separated by `,` (canonically `, `).
  private mutating func scanNameList(after written: String, canonical: Bool) throws(QueryError) -> [FieldName] {
    var names: [FieldName] = []
    var after = written
    repeat {
      guard let name = try lexer.scanName() else {
        throw QueryError("expected a field name after \(after)", at: lexer.position)
      }
      names.append(name)
      after = "','"
    } while consumeListComma(canonical: canonical)
    return names
  }

  /// Sort keys: `-date,customer`, or canonically `date desc, customer asc`.
  private mutating func scanSortKeys(canonical: Bool) throws(QueryError) -> [SortKey] {
    var keys: [SortKey] = []
    var after = "'sort:'"
    repeat {
      var descending = false
      if !canonical && lexer.peek() == .minus {
        descending = true
        lexer.position += 1
        after = "'-'"
        try rejectSecondMinus(after: after)
      }
      guard let name = try lexer.scanName() else {
        throw QueryError("expected a field name after \(after)", at: lexer.position)
      }
      if canonical {
        let nameEnd = lexer.position
        lexer.skipWhitespace()
        switch lexer.scanBare(stoppingAtRange: false).text {
        case "asc": descending = false
        case "desc": descending = true
        default:
          throw QueryError("expected 'asc' or 'desc' after '\(name.name)'", at: nameEnd)
        }
      }
      keys.append(SortKey(field: name, descending: descending))
      after = "','"
    } while consumeListComma(canonical: canonical)
    return keys
  }

  /// A second `-` after a key's `-` (`sort:--x`) is an error, not part of the field name.
  private func rejectSecondMinus(after what: String) throws(QueryError) {
    guard lexer.peek() == .minus else { return }
    throw QueryError(
      "expected a field name after \(what), not another '-'", at: lexer.position)
  }

  /// A group field with its time bucket, `date/month` or `"Order Date"/week` (Docs/QueryLanguage.md,
  /// Time buckets): a bare name is cut at its last `/`, a quoted one may be followed by `/UNIT`.
  private mutating func bucketed(_ name: FieldName) throws(QueryError) -> FieldName {
    let unitStart: Int
    var field = name
    let quoted = name.span.end - name.span.start > name.name.utf8.count
    if quoted {
      // A `/` may follow the closing quote.
      guard lexer.peek() == .slash else { return name }
      unitStart = lexer.position + 1
      lexer.position = unitStart
      _ = lexer.scanBare(stoppingAtRange: false)
    } else {
      guard let slash = name.name.utf8.lastIndex(of: .slash) else { return name }
      let cut = name.name.utf8.distance(from: name.name.utf8.startIndex, to: slash)
      field = FieldName(
        String(name.name[..<slash]), span: Span(name.span.start, name.span.start + cut))
      unitStart = name.span.start + cut + 1
      guard cut > 0 else {
        throw QueryError("expected a field name before '/'", at: name.span.start)
      }
    }
    let unit = lexer.text(unitStart, lexer.position)
    let span = Span(unitStart, lexer.position)
    guard let bucket = TimeBucket(rawValue: unit) else {
      let notes =
        ["  a date field is grouped by its \(TimeBucket.spelled): group:\(field.canonicalText)/month"]
        + (quoted ? [] : ["  a field whose name holds '/' is written quoted: group:\"\(name.name)\""])
      throw QueryError(
        unit.isEmpty
          ? "expected a time bucket after '/'"
          : "unknown time bucket '\(unit)': expected \(TimeBucket.spelled)",
        at: span, notes: notes)
    }
    field.bucket = bucket
    field.bucketSpan = span
    return field
  }

  /// Consumes the `,` between list items (canonically with spaces around it).
  private mutating func consumeListComma(canonical: Bool) -> Bool {
    var probe = lexer
    if canonical { probe.skipWhitespace() }
    guard probe.peek() == .comma else { return false }
    probe.position += 1
    if canonical { probe.skipWhitespace() }
    lexer = probe
    return true
  }
}

extension FieldName {
  /// The name as Docs/QueryLanguage.md, Filter terms compares it loosely: lowercase, without spaces, `_`, `-` and `.`.
  public var normalizedName: String {
    String(name.lowercased().filter { !" _-.".contains($0) })
  }
}
