/// A query resolved against the input's schema and typed by its sample (Docs/Architecture.md,
/// Plan): the fields it names with their types, the filter as typed tests, the directives as
/// data, and the shape of the run. Every query error about the input surfaces while it is made;
/// the per-input closures are generated from it.
public struct Plan: Sendable {
  /// What a plan is made for: the records, or a count (`-c`). With a count per group
  /// (`-c group:`), a `sort:` naming only the tally's columns (the group fields and `count`)
  /// orders the counts (Docs/CommandLine.md, Counting).
  public enum Intent: Sendable, Equatable {
    case records
    case count
  }

  public let query: Query
  /// What the plan is made for.
  public let intent: Intent
  /// Whether `sort:` names the columns of a count per group (`tallySort`).
  let sortsTally: Bool
  public let schema: Schema
  /// Every field name the query uses, resolved.
  public let fields: [FieldName: ResolvedField]
  /// The inferred type of each field the query uses (and of every top-level field, but for a
  /// count with no filter, group or aggregate, which reads none).
  public let types: [ResolvedField: ColumnType]
  /// "Now" for relative dates.
  public let now: WallTime
  /// How the inputs write numbers, for reading the query's number literals: `.comma` when
  /// every input writes a decimal comma (Docs/QueryLanguage.md, Numbers in a file's style).
  public let decimalMark: DecimalMark
  /// How each field the query uses (and every top-level field, but for a count that reads
  /// none, as `types`) reads its dates (Docs/Formats.md, Dates).
  public let conventions: [ResolvedField: DateConvention]
  /// How a name the schema lacks reads dates: year-first, in the `--tz` zone.
  let otherConvention: DateConvention
  /// What the query does besides filtering, in the order sort, group, limit, fields.
  public let directives: [PlanDirective]
  /// The filter, typed; `nil` matches every record.
  public private(set) var filter: TypedFilter?
  /// Relative-date periods checked while planning, by value span.
  let periods: [Span: Period]

  /// Resolves and checks `query` against `schema`. `typeOf` infers a field's type from the
  /// sample, `conventionOf` how it reads dates, `mostlyNumbers` whether most of its sampled
  /// values are numbers; `decimalMark` is how the inputs write numbers, for the query's number
  /// literals.
  public init(
    query: Query, schema: Schema, now: WallTime, decimalMark: DecimalMark = .point,
    intent: Intent = .records, typeOf: (ResolvedField) -> ColumnType,
    conventionOf: (ResolvedField) -> DateConvention = { _ in .iso },
    mostlyNumbers: (ResolvedField) -> Bool = { _ in false }
  ) throws(PlanError) {
    let resolver = FieldResolver(schema: schema)
    var fields: [FieldName: ResolvedField] = [:]
    var names: [FieldName] = []
    var values: [Value] = []
    if let filter = query.filter { Plan.collect(filter, names: &names, values: &values) }
    let summarizing = !query.aggregates.isEmpty
    // `-c group:` without aggregates: a `sort:` whose names are all the tally's columns (the
    // group fields, `count`) orders the counts; one naming the input's fields is resolved as
    // before and leaves them in group order, which a note says (`notes`; a view's default sort
    // gives way instead, `ComposedQuery`).
    var tallying = false
    if intent == .count, !summarizing, !query.group.isEmpty, !query.sort.isEmpty {
      let group = try query.group.map { (n: FieldName) throws(PlanError) in try resolver.resolve(n) }
      let columns = FieldResolver(schema: Schema(names: Plan.tallyColumns(group: group).map(\.name)))
      tallying = query.sort.allSatisfy { (try? columns.resolve($0.field)) != nil }
    }
    let namesColumns = { (kind: Directive) in
      summarizing ? Plan.namesSummaryColumns(kind) : tallying && kind == .sort
    }
    for clause in query.directives where !namesColumns(clause.kind) {
      names += clause.value.fieldNames
    }
    for name in names where fields[name] == nil { fields[name] = try resolver.resolve(name) }
    var types: [ResolvedField: ColumnType] = [:]
    for f in fields.values where types[f] == nil { types[f] = typeOf(f) }
    // A plain count (`-c` with no filter, group or aggregate) reads no field, so only the fields
    // its directives name are typed: the sample's inference is not run for the others
    // (Docs/Performance.md, A count typed for what it reads).
    let readsNoField =
      intent == .count && query.filter == nil && query.group.isEmpty && !summarizing
    for (i, n) in schema.names.enumerated() where !readsNoField {
      let f = ResolvedField(index: i, path: [], name: n)
      if types[f] == nil { types[f] = typeOf(f) }
    }
    var conventions: [ResolvedField: DateConvention] = [:]
    for f in types.keys { conventions[f] = conventionOf(f) }
    let resolved = { (n: FieldName) in fields[n] ?? ResolvedField(index: -1, path: [], name: n.name) }
    try Plan.checkBuckets(query, resolved: resolved, types: types)
    // With aggregates, `sort:` and `fields:` name the summary's columns (Docs/Aggregates.md).
    let aggregates = try Plan.aggregateColumns(
      query, resolved: resolved, types: types, mostlyNumbers: mostlyNumbers)
    let summary = Plan.summaryColumns(group: query.group.map(resolved), aggregates: aggregates)
    var summaryFields: [FieldName: ResolvedField] = [:]
    if summarizing || tallying {
      let named = tallying ? Plan.tallyColumns(group: query.group.map(resolved)) : summary
      let columns = FieldResolver(schema: Schema(names: named.map(\.name)))
      for clause in query.directives where namesColumns(clause.kind) {
        for name in clause.value.fieldNames where summaryFields[name] == nil {
          do throws(PlanError) { summaryFields[name] = try columns.resolve(name) } catch {
            throw Plan.unknownColumn(error, name: name, columns: named)
          }
        }
      }
    }
    let output = { (n: FieldName) in summaryFields[n] ?? resolved(n) }
    // Counted, not searched: many group fields cost their number, not its square.
    var groupCounts: [ResolvedField?: Int] = [:]
    for n in query.group { groupCounts[fields[n], default: 0] += 1 }
    if let names = query.group.dropFirst().first(where: { groupCounts[fields[$0], default: 0] > 1 }) {
      throw PlanError(
        message: "group:\(names.name) names the field \(resolved(names).name) twice; name each group field once",
        span: names.span)
    }
    if query.limitsPerGroup, let clause = query[.limit] {
      if query.group.isEmpty {
        throw PlanError(
          message: "limit:\(query.limit!)/group needs group: to say what a group is",
          span: clause.span,
          notes: ["  e.g. group:customer limit:\(query.limit!)/group, or limit:\(query.limit!) for the whole result"])
      }
      if summarizing && query.group.count < 2 {
        throw PlanError(
          message: "limit:\(query.limit!)/group with aggregates needs two group fields: "
            + "each group is one summary row",
          span: clause.span,
          notes: ["  group:a,b keeps the first rows of each a; limit:\(query.limit!) keeps the first rows of the summary"])
      }
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
    }
    let directives = query.directives.map { clause in
      switch clause.value {
      case .sort(let keys):
        return PlanDirective.sort(keys.map { SortOrder(field: output($0.field), descending: $0.descending) })
      case .group(let names): return .group(names.map(resolved))
      case .limit(let n, let perGroup): return .limit(n, perGroup: perGroup)
      case .fields(let names, excluding: false): return .fields(names.map(output))
      case .fields(let names, excluding: true):
        // `fields:-a,-b`: every top-level field (or summary column) but those, in order.
        let left = Set(names.map { output($0).index })
        let all = summarizing ? summary.map(\.name) : schema.names
        return .fields(all.enumerated().filter { !left.contains($0.offset) }.map {
          ResolvedField(index: $0.offset, path: [], name: $0.element)
        })
      case .aggregate(let function, _):
        return .aggregate(aggregates.filter { $0.function == function })
      }
    }
    self.query = query
    self.intent = intent
    self.sortsTally = tallying
    self.schema = schema
    self.fields = fields
    self.types = types
    self.now = now
    self.decimalMark = decimalMark
    self.conventions = conventions
    self.otherConvention = conventionOf(ResolvedField(index: -1, path: [], name: ""))
    self.directives = directives
    self.periods = periods
    self.filter = try query.filter.map { (e: Expr) throws(PlanError) in try typed(e) }
  }

  /// The compiled filter for an input with `layout`; `nil` when the query has no filter.
  public func predicate(for layout: SourceLayout) -> RowPredicate? {
    filter.map(Compiler(layout: layout, convention: convention(of:)).compile)
  }

  /// The `sort:` keys, resolved; empty without `sort:`.
  public var sort: [SortOrder] {
    for case .sort(let keys) in directives { return keys }
    return []
  }

  /// Notes on what the plan leaves out (Docs/CommandLine.md, Counting): a `sort:` on the input's
  /// fields with `-c group:`, which shows counts and no records, orders nothing.
  public var notes: [String] {
    guard intent == .count, aggregates.isEmpty, let outer = group.first, !sortsTally,
      let key = query.sort.first
    else { return [] }
    let text = "sort:" + (key.descending ? "-" : "") + key.field.name
    return [
      "note: -c with group: shows each group's count and no records, so \(text) orders nothing;"
        + " sort:\(outer.name) or sort:-\(outer.name) orders the groups, sort:-count the counts"
    ]
  }

  /// The `sort:` keys of a count per group (`-c group:`), over its columns (`tallyColumns`):
  /// empty unless every key names one of them.
  public var tallySort: [SortOrder] { sortsTally ? sort : [] }

  /// Per `group:` field, whether the groups come in descending order: a `sort:` key on the group
  /// field orders the groups (`group:customer sort:-customer`, Docs/QueryLanguage.md,
  /// Directives).
  public var groupDescending: [Bool] {
    query.group.map { g in
      query.sort.first { $0.field.normalizedName == g.normalizedName }?.descending ?? false
    }
  }

  /// The `group:` fields, outermost first; empty without `group:`.
  public var group: [ResolvedField] {
    for case .group(let fields) in directives { return fields }
    return []
  }

  /// The `limit:` count of the whole result; `nil` without `limit:` or with `limit:N/group`.
  public var limit: Int? {
    for case .limit(let n, false) in directives { return n }
    return nil
  }

  /// The `limit:N/group` count: the first N records of each group (with aggregates, the first
  /// N summary rows of each value of the outer group fields; Docs/Aggregates.md).
  public var limitPerGroup: Int? {
    for case .limit(let n, true) in directives { return n }
    return nil
  }

  /// The fields `fields:` writes, in order; `nil` for all fields.
  public var projection: [ResolvedField]? {
    for case .fields(let kept) in directives { return kept }
    return nil
  }

  /// The aggregate columns in query order; empty without aggregate directives.
  public var aggregates: [SummaryColumn] {
    directives.flatMap { directive -> [SummaryColumn] in
      if case .aggregate(let columns) = directive { return columns }
      return []
    }
  }

  /// How the records flow through a run, fixed by the directives and the intent: a plan made
  /// for a count writes no records (Docs/Architecture.md, Filter, order, write).
  public var shape: ExecutionShape {
    if !aggregates.isEmpty { return .summarize }
    switch intent {
    case .count: return group.isEmpty ? .count : .tally
    case .records: return sort.isEmpty && group.isEmpty ? .stream : .order
    }
  }

  /// Whether the output ends in a `Total` row: a summary per group does, in the formats that lay
  /// out totals for people (`OutputFormat.writesTotals`; Docs/Aggregates.md).
  public var endsWithTotal: Bool { shape == .summarize && !group.isEmpty }

  /// The resolved field of a name in the query.
  func field(_ name: FieldName) -> ResolvedField {
    fields[name] ?? ResolvedField(index: -1, path: [], name: name.name)
  }

  public func type(of field: ResolvedField) -> ColumnType { types[field] ?? .text }

  /// How summary column `index` reads its dates: a group or `min:`/`max:` column as its field.
  func summaryColumnConvention(_ index: Int) -> DateConvention {
    let columns = summaryColumns
    guard index >= 0, index < columns.count, let field = columns[index].field else {
      return otherConvention
    }
    return convention(of: field)
  }

  /// How `field` reads its dates (Docs/Formats.md, Dates).
  public func convention(of field: ResolvedField) -> DateConvention {
    conventions[field] ?? otherConvention
  }

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

/// One directive of a plan (Docs/QueryLanguage.md, Directives), its fields resolved.
public enum PlanDirective: Sendable {
  case sort([SortOrder])
  /// The group fields, outermost first.
  case group([ResolvedField])
  /// `limit:N`, or with `perGroup` `limit:N/group`.
  case limit(Int, perGroup: Bool)
  /// The fields written, in order (`fields:-a` already turned into the fields kept). With
  /// aggregates, the summary's columns.
  case fields([ResolvedField])
  /// The columns of one aggregate directive (`sum:amount,qty`).
  case aggregate([SummaryColumn])
}

/// One `sort:` key, resolved.
public struct SortOrder: Sendable, Equatable {
  public var field: ResolvedField
  public var descending: Bool
}

/// How the records flow through a run (Docs/Architecture.md, Filter, order, write).
public enum ExecutionShape: Sendable, Equatable {
  /// Each match is written as it is read.
  case stream
  /// Matches are kept, then grouped, sorted and limited before they are written.
  case order
  /// Matches are only counted (`-c`).
  case count
  /// Matches are counted per group value, or per combination with `group:a,b` (`-c` with
  /// `group:`).
  case tally
  /// Matches are summarized per group into summary rows, which are then sorted and limited.
  case summarize
}
