/// A query resolved against the input's schema and typed by its sample, ready to compile per input.
public struct Plan: Sendable {
  public let query: Query
  public let schema: Schema
  /// Every field name the query uses, resolved.
  public let fields: [FieldName: ResolvedField]
  /// The inferred type of each field the query uses (and of every top-level field).
  public let types: [ResolvedField: ColumnType]
  /// "Now" for relative dates.
  public let now: WallTime
  /// `sort:` keys, resolved.
  public let sort: [(field: ResolvedField, descending: Bool)]
  public let group: ResolvedField?
  /// `fields:` projection, resolved; `nil` for all fields.
  public let projection: [ResolvedField]?
  /// Relative-date periods and regular expressions checked while planning, by value span.
  let periods: [Span: Period]

  /// Resolves and checks `query` against `schema`. `typeOf` infers a field's type from the sample.
  public init(
    query: Query, schema: Schema, now: WallTime, typeOf: (ResolvedField) -> ColumnType
  ) throws(PlanError) {
    let resolver = FieldResolver(schema: schema)
    var fields: [FieldName: ResolvedField] = [:]
    var names: [FieldName] = []
    var values: [Value] = []
    if let filter = query.filter { Plan.collect(filter, names: &names, values: &values) }
    names += query.sort.map(\.field)
    if let g = query.group { names.append(g) }
    names += query.fields ?? []
    for name in names where fields[name] == nil { fields[name] = try resolver.resolve(name) }
    var types: [ResolvedField: ColumnType] = [:]
    for f in fields.values where types[f] == nil { types[f] = typeOf(f) }
    for (i, n) in schema.names.enumerated() {
      let f = ResolvedField(index: i, path: [], name: n)
      if types[f] == nil { types[f] = typeOf(f) }
    }
    let resolved = { (n: FieldName) in fields[n] ?? ResolvedField(index: -1, path: [], name: n.name) }
    let sort = query.sort.map { (field: resolved($0.field), descending: $0.descending) }
    let group = query.group.map(resolved)
    if let g = group, let clash = query.sort.first(where: { fields[$0.field] == g }), let gn = query.group {
      throw PlanError(
        message: "group:\(gn.name) already orders by \(g.name); choose another sort field",
        span: clash.field.span)
    }
    var periods: [Span: Period] = [:]
    for v in values {
      for literal in Plan.literals(of: v) where !literal.quoted {
        do throws(PlanError) {
          if let p = try RelativeDate.period(literal.text, now: now) { periods[literal.span] = p }
        } catch {
          throw PlanError(message: error.message, span: literal.span)
        }
      }
      if case .regex(let pattern, let ci, let span) = v {
        do { _ = try RegexBox(pattern: pattern, caseInsensitive: ci) } catch {
          throw RegexBox.planError(error, pattern: pattern, span: span)
        }
      }
    }
    self.query = query
    self.schema = schema
    self.fields = fields
    self.types = types
    self.now = now
    self.sort = sort
    self.group = group
    if query.excludesFields, let excluded = query.fields {
      // `fields:-a,-b`: every top-level field but those, in input order.
      let left = Set(excluded.map { resolved($0).index })
      self.projection = schema.names.enumerated().filter { !left.contains($0.offset) }.map {
        ResolvedField(index: $0.offset, path: [], name: $0.element)
      }
    } else {
      self.projection = query.fields.map { $0.map(resolved) }
    }
    self.periods = periods
    // Compile once against the schema itself so every value error surfaces now, with its span.
    _ = try predicate(for: SourceLayout(local: Array(schema.names.indices), encoding: .csv))
  }

  /// The compiled filter for an input with `layout`; `nil` when the query has no filter.
  public func predicate(for layout: SourceLayout) throws(PlanError) -> RowPredicate? {
    guard let filter = query.filter else { return nil }
    return try Compiler(plan: self, layout: layout).compile(filter)
  }

  /// The resolved field of a name in the query.
  func field(_ name: FieldName) -> ResolvedField {
    fields[name] ?? ResolvedField(index: -1, path: [], name: name.name)
  }

  public func type(of field: ResolvedField) -> ColumnType { types[field] ?? .text }

  private static func collect(_ e: Expr, names: inout [FieldName], values: inout [Value]) {
    switch e {
    case .and(let parts, _), .or(let parts, _):
      for p in parts { collect(p, names: &names, values: &values) }
    case .not(let inner, _): collect(inner, names: &names, values: &values)
    case .term(.field(let n, let vs, _)):
      names.append(n)
      values += vs
    case .term(.has(let n, _)): names.append(n)
    case .term(.text): break
    }
  }

  private static func literals(of v: Value) -> [Literal] {
    switch v {
    case .equals(let l), .compare(_, let l): return [l]
    case .range(let a, let b, _): return [a, b].compactMap { $0 }
    default: return []
    }
  }
}
