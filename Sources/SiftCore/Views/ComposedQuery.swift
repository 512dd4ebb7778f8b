/// One query made of several texts (Docs/Views.md, Running a view): the view's preset `query`, the query given on
/// the command line, the view's default `sort`. Each text is parsed on its own; its spans are
/// then moved to its own stretch of one virtual text (the texts joined by a space), so spans
/// from different texts never collide and an error is traced back to the text it is in.
public struct ComposedQuery: Sendable {
  /// One text the query was made from.
  public struct Part: Sendable {
    /// Where the text comes from: `""` for the command line, else the views-file key
    /// (`query`, `sort`, `badge`).
    public var key: String
    public var text: String
    /// Where the text starts in the virtual text.
    public var offset: Int
  }

  /// The combined query, its spans in the virtual text.
  public let query: Query
  public let parts: [Part]

  /// Combines `parts` (lowest precedence first): their filters are ANDed in this order, and each
  /// directive comes from the last part that has it. `defaultSort` (the keys of `sort:TEXT`,
  /// spans in `TEXT`) applies when no part sorts and the query does not aggregate (a summary's
  /// rows come in group order, and the record fields the default names are not its columns), nor
  /// counts per group (`counting`: `-c` with `group:` shows no records); a default key on the
  /// `group:` field is dropped, since grouping already orders by it.
  public init(
    _ parts: [(key: String, text: String, query: Query)],
    defaultSort: (text: String, keys: [SortKey])? = nil, counting: Bool = false
  ) {
    var placed: [Part] = []
    var queries: [Query] = []
    var offset = 0
    for part in parts {
      placed.append(Part(key: part.key, text: part.text, offset: offset))
      queries.append(part.query.shifted(by: offset))
      offset += part.text.utf8.count + 1
    }
    var query = Query()
    let filters = queries.flatMap(\.topLevelFilters)
    if filters.count == 1 {
      query.filter = filters[0]
    } else if let first = filters.first, let last = filters.last {
      query.filter = .and(filters, first.span.union(last.span))
    }
    for clause in queries.flatMap(\.directives) { query.set(clause) }
    if query.sort.isEmpty, query.aggregates.isEmpty, !(counting && !query.group.isEmpty),
      let defaultSort
    {
      let text = "sort:" + defaultSort.text
      placed.append(Part(key: "sort", text: text, offset: offset))
      let grouped = Set(query.group.map { FieldResolver.normalize($0.name) })
      let keys = defaultSort.keys.map { $0.shifted(by: offset) }
        .filter { !grouped.contains(FieldResolver.normalize($0.field.name)) }
      if !keys.isEmpty {
        query.set(DirectiveClause(.sort(keys), span: Span(offset, offset + text.utf8.count)))
      }
    }
    self.query = query
    self.parts = placed
  }

  /// The part `span` lies in, and the span within that part's text.
  public func locate(_ span: Span) -> (part: Part, span: Span)? {
    guard let part = parts.last(where: { $0.offset <= span.start }) else { return nil }
    return (part, Span(span.start - part.offset, span.end - part.offset))
  }
}

extension Query {
  /// The same query with every span moved `offset` bytes later.
  func shifted(by offset: Int) -> Query {
    guard offset != 0 else { return self }
    return Query(
      filter: filter?.shifted(by: offset),
      directives: directives.map { DirectiveClause($0.value.shifted(by: offset), span: $0.span.shifted(by: offset)) })
  }
}

extension DirectiveValue {
  fileprivate func shifted(by offset: Int) -> DirectiveValue {
    switch self {
    case .sort(let keys): return .sort(keys.map { $0.shifted(by: offset) })
    case .group(let fields): return .group(fields.map { $0.shifted(by: offset) })
    case .limit: return self
    case .fields(let names, let excluding):
      return .fields(names.map { $0.shifted(by: offset) }, excluding: excluding)
    case .aggregate(let function, let names):
      return .aggregate(function, names.map { $0.shifted(by: offset) })
    }
  }
}

extension Span {
  fileprivate func shifted(by offset: Int) -> Span { Span(start + offset, end + offset) }
}

extension SortKey {
  fileprivate func shifted(by offset: Int) -> SortKey {
    SortKey(field: field.shifted(by: offset), descending: descending)
  }
}

extension FieldName {
  fileprivate func shifted(by offset: Int) -> FieldName {
    FieldName(
      name, span: span.shifted(by: offset), bucket: bucket, bucketSpan: bucketSpan?.shifted(by: offset))
  }
}

extension Literal {
  fileprivate func shifted(by offset: Int) -> Literal {
    Literal(text, quoted: quoted, span: span.shifted(by: offset))
  }
}

extension Expr {
  fileprivate func shifted(by offset: Int) -> Expr {
    switch self {
    case .and(let parts, let s):
      return .and(parts.map { $0.shifted(by: offset) }, s.shifted(by: offset))
    case .or(let parts, let s):
      return .or(parts.map { $0.shifted(by: offset) }, s.shifted(by: offset))
    case .not(let inner, let s): return .not(inner.shifted(by: offset), s.shifted(by: offset))
    case .term(.field(let name, let values, let s)):
      return .term(
        .field(
          name.shifted(by: offset), values.map { $0.shifted(by: offset) }, s.shifted(by: offset)))
    case .term(.has(let name, let s)):
      return .term(.has(name.shifted(by: offset), s.shifted(by: offset)))
    case .term(.text(let literal, let s)):
      return .term(.text(literal.shifted(by: offset), s.shifted(by: offset)))
    }
  }
}

extension Value {
  fileprivate func shifted(by offset: Int) -> Value {
    switch self {
    case .equals(let l): return .equals(l.shifted(by: offset))
    case .compare(let op, let l): return .compare(op, l.shifted(by: offset))
    case .range(let a, let b, let s):
      return .range(a?.shifted(by: offset), b?.shifted(by: offset), s.shifted(by: offset))
    case .glob(let p, let s): return .glob(p, s.shifted(by: offset))
    case .regex(let p, let i, let s):
      return .regex(pattern: p, caseInsensitive: i, s.shifted(by: offset))
    case .empty(let s): return .empty(s.shifted(by: offset))
    }
  }
}
