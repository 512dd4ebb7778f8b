/// A half-open range of byte offsets into the query text.
public struct Span: Hashable, Sendable, CustomStringConvertible {
  public var start: Int
  public var end: Int

  public init(_ start: Int, _ end: Int) {
    self.start = start
    self.end = end
  }

  /// The smallest span that covers both.
  public func union(_ other: Span) -> Span {
    Span(Swift.min(start, other.start), Swift.max(end, other.end))
  }

  public var description: String { "\(start)..<\(end)" }
}

/// A parsed query: one optional filter expression plus the directives of Docs/QueryLanguage.md, Directives.
public struct Query: Sendable {
  /// The filter; `nil` matches every record.
  public var filter: Expr?
  /// The directives, at most one of each kind, in the order of `Directive.rank` except that
  /// aggregates keep the order they were written in (it is the order of their columns).
  public private(set) var directives: [DirectiveClause]

  public init(filter: Expr? = nil, directives: [DirectiveClause] = []) {
    self.filter = filter
    self.directives = []
    for clause in directives { set(clause) }
  }

  /// The directive of `kind`, if the query has one.
  public subscript(kind: Directive) -> DirectiveClause? {
    directives.first { $0.kind == kind }
  }

  /// Puts `clause` in, in place of the directive of its kind.
  public mutating func set(_ clause: DirectiveClause) {
    // The kind is read once, outside the closures: Swift 6.3.1's optimizer crashed ("Found
    // ownership error") on `clause.kind` inside them, so `swift build -c release` failed.
    let kind = clause.kind
    if let same = directives.firstIndex(where: { $0.kind == kind }) {
      directives[same] = clause
      return
    }
    let at = directives.firstIndex { $0.kind.rank > kind.rank }
    directives.insert(clause, at: at ?? directives.endIndex)
  }

  /// The aggregate directives in the order written: `(function, fields)`.
  public var aggregates: [(function: AggregateFunction, fields: [FieldName])] {
    directives.compactMap {
      if case .aggregate(let function, let fields) = $0.value { return (function, fields) }
      return nil
    }
  }

  /// Takes the directive of `kind` out.
  public mutating func remove(_ kind: Directive) {
    directives.removeAll { $0.kind == kind }
  }

  /// `sort:` keys in order; empty when the query has no `sort:`.
  public var sort: [SortKey] {
    if case .sort(let keys)? = self[.sort]?.value { return keys }
    return []
  }

  /// `group:` fields, outermost first; empty when the query has no `group:`.
  public var group: [FieldName] {
    if case .group(let fields)? = self[.group]?.value { return fields }
    return []
  }

  /// `limit:` count (a whole number ≥ 0), of the whole result or, with `limitsPerGroup`, of
  /// each group.
  public var limit: Int? {
    if case .limit(let n, _)? = self[.limit]?.value { return n }
    return nil
  }

  /// `limit:N/group`: the limit keeps the first N records of each group.
  public var limitsPerGroup: Bool {
    if case .limit(_, let perGroup)? = self[.limit]?.value { return perGroup }
    return false
  }

  /// `fields:` projection in output order; with `excludesFields`, the fields left out instead.
  public var fields: [FieldName]? {
    if case .fields(let names, _)? = self[.fields]?.value { return names }
    return nil
  }

  /// `fields:-a,-b`: output every field except `fields`.
  public var excludesFields: Bool {
    if case .fields(_, let excluding)? = self[.fields]?.value { return excluding }
    return false
  }

  /// The top-level filter terms, one per chip in the feedback bar (Docs/FeedbackBar.md): the operands of a
  /// top-level AND, or the whole filter when it is a single term, negation or OR-group.
  public var topLevelFilters: [Expr] {
    guard let filter else { return [] }
    if case .and(let parts, _) = filter { return parts }
    return [filter]
  }
}

/// The kinds of directive, in the order the canonical form writes them (aggregates last, in
/// the order written).
public enum Directive: Sendable, Hashable {
  case sort, group, limit, fields
  /// `sum:`, `avg:`, `p75:` and the other aggregates (Docs/Aggregates.md).
  case aggregate(AggregateFunction)

  /// The directive a `NAME:` spells (`sort`, `sum`, `p75`, `median`), or `nil`.
  public init?(name: String) {
    switch name {
    case "sort": self = .sort
    case "group": self = .group
    case "limit": self = .limit
    case "fields": self = .fields
    default:
      guard let function = AggregateFunction(name: name) else { return nil }
      self = .aggregate(function)
    }
  }

  /// The name as written before the `:`.
  public var name: String {
    switch self {
    case .sort: "sort"
    case .group: "group"
    case .limit: "limit"
    case .fields: "fields"
    case .aggregate(let function): function.name
    }
  }

  /// The directives completion offers, in this order (any `pN` is a directive too).
  public static let offered: [Directive] =
    [.sort, .group, .limit, .fields] + AggregateFunction.offered.map(Directive.aggregate)

  /// The aggregate this directive asks for, if it is one (Docs/Aggregates.md).
  public var aggregate: AggregateFunction? {
    if case .aggregate(let function) = self { return function }
    return nil
  }

  /// Where the directive stands in the canonical form: every aggregate shares the last rank.
  var rank: Int {
    switch self {
    case .sort: 0
    case .group: 1
    case .limit: 2
    case .fields: 3
    case .aggregate: 4
    }
  }
}

/// What an aggregate directive computes over the matching records of a group (Docs/Aggregates.md).
public enum AggregateFunction: Sendable, Hashable {
  case sum, avg, min, max, distinct
  /// `median:`, the 50th percentile under its own name (its column is `FIELD_median`).
  case median
  /// `pN:` for a whole N from 1 to 99: the nearest-rank percentile (Docs/Aggregates.md).
  case percentile(Int)

  /// The functions completion and the docs list; every `p1`…`p99` is one too.
  public static let offered: [AggregateFunction] =
    [.sum, .avg, .min, .max, .distinct, .percentile(50), .percentile(90), .percentile(95), .percentile(99), .median]

  /// The function a directive name spells: `sum`, `median`, `p75` (no leading zero, 1…99).
  public init?(name: String) {
    switch name {
    case "sum": self = .sum
    case "avg": self = .avg
    case "min": self = .min
    case "max": self = .max
    case "distinct": self = .distinct
    case "median": self = .median
    default:
      let digits = name.utf8.dropFirst()
      guard name.utf8.first == UInt8(ascii: "p"), (1...2).contains(digits.count),
        digits.first != UInt8(ascii: "0"), digits.allSatisfy({ (48...57).contains($0) }),
        let n = Int(name.dropFirst())
      else { return nil }
      self = .percentile(n)
    }
  }

  /// The name as written before the `:`, and the suffix of its column (`amount_sum`).
  public var name: String {
    switch self {
    case .sum: "sum"
    case .avg: "avg"
    case .min: "min"
    case .max: "max"
    case .distinct: "distinct"
    case .median: "median"
    case .percentile(let n): "p\(n)"
    }
  }

  /// The percentile of `pN` and `median` (50).
  public var percentile: Int? {
    switch self {
    case .median: 50
    case .percentile(let n): n
    case .sum, .avg, .min, .max, .distinct: nil
    }
  }

  /// Whether the function needs numbers (`min`, `max` and `distinct` take any value).
  public var needsNumbers: Bool {
    switch self {
    case .min, .max, .distinct: false
    case .sum, .avg, .median, .percentile: true
    }
  }
}

/// One directive as written, with where it stands in the query (for diagnostics).
public struct DirectiveClause: Sendable {
  public var value: DirectiveValue
  public var span: Span
  public var kind: Directive { value.kind }

  public init(_ value: DirectiveValue, span: Span) {
    self.value = value
    self.span = span
  }
}

/// What a directive says (Docs/QueryLanguage.md, Directives).
public enum DirectiveValue: Sendable {
  case sort([SortKey])
  /// `group:a,b`: the fields, outermost first.
  case group([FieldName])
  /// `limit:N`, or with `perGroup` `limit:N/group`.
  case limit(Int, perGroup: Bool)
  /// The fields kept in output order, or with `excluding`, the fields left out.
  case fields([FieldName], excluding: Bool)
  /// `sum:amount,qty` and the other aggregates.
  case aggregate(AggregateFunction, [FieldName])

  /// The field names it uses, in order.
  public var fieldNames: [FieldName] {
    switch self {
    case .sort(let keys): keys.map(\.field)
    case .group(let fields): fields
    case .limit: []
    case .fields(let names, _), .aggregate(_, let names): names
    }
  }

  public var kind: Directive {
    switch self {
    case .sort: .sort
    case .group: .group
    case .limit: .limit
    case .fields: .fields
    case .aggregate(let function, _): .aggregate(function)
    }
  }
}

/// A field name as written in the query (already unquoted and unescaped).
public struct FieldName: Hashable, Sendable {
  public var name: String
  public var span: Span
  /// `group:date/month`: the period the group field's dates are grouped by, and where the
  /// unit is written (Docs/QueryLanguage.md, Time buckets); `nil` everywhere else.
  public var bucket: TimeBucket?
  public var bucketSpan: Span?
  public init(_ name: String, span: Span, bucket: TimeBucket? = nil, bucketSpan: Span? = nil) {
    self.name = name
    self.span = span
    self.bucket = bucket
    self.bucketSpan = bucketSpan
  }
}

/// One `sort:` key.
public struct SortKey: Hashable, Sendable {
  public var field: FieldName
  public var descending: Bool
  public init(field: FieldName, descending: Bool) {
    self.field = field
    self.descending = descending
  }
}

/// A filter expression. Precedence NOT > AND > OR (Docs/QueryLanguage.md, Grammar).
public indirect enum Expr: Sendable {
  /// All operands match (explicit `AND` or juxtaposition). Always two or more operands.
  case and([Expr], Span)
  /// Any operand matches. Always two or more operands.
  case or([Expr], Span)
  /// `-x` or `NOT x`.
  case not(Expr, Span)
  /// A single term.
  case term(Term)

  /// The bytes of the query this expression was parsed from.
  public var span: Span {
    switch self {
    case .and(_, let s), .or(_, let s), .not(_, let s): return s
    case .term(let t): return t.span
    }
  }
}

/// A leaf of the filter.
public enum Term: Sendable {
  /// `field:value[,value…]`: matches when any value matches.
  case field(FieldName, [Value], Span)
  /// `has:field`: the field is present and non-empty.
  case has(FieldName, Span)
  /// Free text: a case-insensitive substring of any field's value.
  case text(Literal, Span)

  public var span: Span {
    switch self {
    case .field(_, _, let s), .has(_, let s), .text(_, let s): return s
    }
  }
}

/// A word or quoted string from the query.
public struct Literal: Hashable, Sendable {
  /// The text with quotes removed and escapes applied.
  public var text: String
  /// Written in quotes: always a literal (no glob, range, comparison or relative date).
  public var quoted: Bool
  public var span: Span
  public init(_ text: String, quoted: Bool, span: Span) {
    self.text = text
    self.quoted = quoted
    self.span = span
  }
}

/// Comparison operators of `field:>value` and friends.
public enum Comparison: String, Sendable, CaseIterable {
  case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// One value of a field term (Docs/QueryLanguage.md, Filter terms). What a literal means (number, date, period,
/// relative date, switch spelling, text) is decided by the planner against the field's type.
public enum Value: Sendable {
  /// Equality: `status:received`, `status:"received"`, `date:2024-03`, `date:today`, `empty_stock:on`.
  case equals(Literal)
  /// `qty:>10`, `date:<=2024-01-31`.
  case compare(Comparison, Literal)
  /// Inclusive range; `nil` bound = `*` (open-ended).
  case range(Literal?, Literal?, Span)
  /// `customer:acme*`: `*` is any run of characters; whole value, case-insensitive.
  case glob(String, Span)
  /// `item:/bolt\s+m\d+/i`: unanchored regular expression.
  case regex(pattern: String, caseInsensitive: Bool, Span)
  /// `customer:""`: the field is empty, missing or a null token.
  case empty(Span)

  public var span: Span {
    switch self {
    case .equals(let l), .compare(_, let l): return l.span
    case .range(_, _, let s), .glob(_, let s), .regex(_, _, let s), .empty(let s): return s
    }
  }
}
