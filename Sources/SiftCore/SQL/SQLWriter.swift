/// Writes a typed plan as one SQL statement with the meaning of sift's own run (Docs/Engines.md):
/// generated from the plan's typed tests and directives, never from the query's text. Every
/// name and literal goes through the dialect's quoting, so no input changes the statement's shape.
public struct SQLWriter {
  public let plan: Plan
  public let dialect: SQLDialect
  public let source: SQLSource
  /// With `group:`, each record's group values in last columns (`groupColumns`), for a client
  /// that writes group headers (`--engine`).
  public var groupColumn = false
  /// The engine's type of each column of a Parquet file or a table (`SQLStatement.described`):
  /// DuckDB reads a typed column in its own type (Docs/Engines.md, Typed columns); `nil`, or
  /// another dialect, reads every column as text.
  public var columnTypes: [SQLColumnType]?

  /// The names of the columns that hold a record's group values with `groupColumn`:
  /// `sift_group`, or with `group:a,b` `sift_group1`, `sift_group2`.
  public static func groupColumns(_ count: Int) -> [String] {
    count == 1 ? ["sift_group"] : (1...max(count, 1)).map { "sift_group\($0)" }
  }

  /// The column that numbers each group's records with `limit:N/group`.
  static let rank = "sift_rank"

  /// The column that holds the input order.
  static let row = "sift_row"

  /// The fields whose value is read as a number or a date: each is computed once, in a column
  /// of its own (`sift_n3`, `sift_d3` for field 3), which the filter and the order name.
  private final class Derived {
    var numbers: Set<Int> = []
    var dates: Set<Int> = []
    /// DuckDB's exact sums: a number's decimals and units (`sift_x3`, DuckDBExactSum).
    var exactParts: Set<Int> = []
    /// Whether the statement reads the input order (`sift_row`): only a sort, an ordered
    /// aggregate or records in input order do (Docs/Engines.md, Input order).
    var row = false
    /// The nested fields the statement reads, in first-use order: each is a column of its own
    /// (`sift_v7`), numbered after the top-level fields (`slot`).
    var nested: [ResolvedField] = []

    func reset() {
      numbers = []
      dates = []
      exactParts = []
      row = false
      nested = []
    }
  }
  private let derived = Derived()

  /// The statement of `plan`: its records, or with a plan made for a count (`-c`) the count
  /// (per group with `group:`).
  public init(plan: Plan, dialect: SQLDialect, source: SQLSource) {
    self.plan = plan
    self.dialect = dialect
    self.source = source
  }

  /// The statements to run in order; the last one returns the result.
  public func statements() throws(SQLError) -> [String] {
    let names = plan.schema.names
    if names.isEmpty { throw SQLError("the FILE has no fields to select") }
    if let clash = names.first(where: SQLWriter.isOwnColumn) {
      throw SQLError("the field \(SQLError.shown(clash)) has a name sift gives a column of its own")
    }
    derived.reset()
    let filter = try plan.filter.map { (f: TypedFilter) throws(SQLError) in try condition(f) }
    let where_ = filter.map { "\nWHERE \($0)" } ?? ""
    // A first pass learns which derived columns (and whether the input order) the statement
    // names; the second reads them.
    _ = try body(from: "", where_: where_)
    let (setup, relation) = try relation()
    return setup + [try body(from: try withDerivedColumns(relation), where_: where_)]
  }

  /// The feedback bar's counts of a run on an engine, in one row: the records read (`total`),
  /// those that match (`matched`), with aggregates the values left out for not being numbers
  /// or dates (`left_out`, Docs/Aggregates.md) and the groups (`groups`), else 0.
  public func totals() throws(SQLError) -> String {
    derived.reset()
    let matches = try plan.filter.map { (f: TypedFilter) throws(SQLError) in try condition(f) } ?? "TRUE"
    var leftOut: [String] = []
    var groups = "0"
    if !plan.aggregates.isEmpty {
      // A record's value counts once however many columns of its field left it out.
      var keys: [(field: ResolvedField, key: String)] = []
      for c in plan.aggregates where !keys.contains(where: { $0.field == c.field! }) {
        if let key = try neededKey(c.function!, c.field!) { keys.append((c.field!, key)) }
      }
      leftOut = try keys.map { (f, key) throws(SQLError) in
        "count(CASE WHEN \(matches) AND NOT \(try isEmpty(f)) AND \(key) IS NULL THEN 1 END)"
      }
      if !plan.group.isEmpty {
        groups = "count(DISTINCT CASE WHEN \(matches) THEN \(try groupCombination()) END)"
      }
    }
    return "SELECT count(*) AS total, count(CASE WHEN \(matches) THEN 1 END) AS matched, "
      + (leftOut.isEmpty ? "0" : leftOut.joined(separator: " + ")) + " AS left_out, \(groups) AS groups"
      + "\nFROM \(try withDerivedColumns(try relation().from))"
  }

  /// The source's relation, with the input order where the statement reads it, and each
  /// column in its engine type where DuckDB reads a typed source.
  private func relation() throws(SQLError) -> (setup: [String], from: String) {
    try source.relation(
      dialect, fields: plan.schema.names, row: derived.row ? SQLWriter.row : nil,
      types: dialect == .duckdb ? columnTypes : nil,
      json: dialect == .duckdb ? Set(derived.nested.map(\.index)) : [])
  }

  /// The input order, a column the relation then adds.
  private var inputOrder: String {
    derived.row = true
    return SQLWriter.row
  }

  /// The key a value must have to be kept by an aggregate: its number, or its date for
  /// `min:`/`max:` of a date field; `nil` when every value is kept.
  private func neededKey(_ function: AggregateFunction, _ field: ResolvedField) throws(SQLError) -> String? {
    switch (function, plan.type(of: field)) {
    case (.distinct, _): return nil
    case (.min, .date), (.min, .dateTime), (.max, .date), (.max, .dateTime): return try dateKey(of: field)
    case (.min, .number), (.max, .number): return try number(of: field)
    case (.min, _), (.max, _): return nil
    default: return try number(of: field)
    }
  }

  /// The `Total` row of a summary with `group:` (Docs/Aggregates.md, Output): `Total` in the
  /// first group column (the others empty), then the count and every aggregate over all the matching records.
  public func totalRow() throws(SQLError) -> String {
    derived.reset()
    let filter = try plan.filter.map { (f: TypedFilter) throws(SQLError) in try condition(f) }
    let firstGroup = plan.summaryColumns.firstIndex { $0.kind == .group }
    let columns = try plan.summaryColumns.enumerated().map { (i, c) throws(SQLError) in
      let name = try dialect.identifier(c.name)
      switch c.kind {
      case .group: return "\(i == firstGroup ? "'Total'" : "''") AS \(name)"
      case .count: return "count(*) AS \(name)"
      case .aggregate(let function): return "\(try aggregate(function, c.field!)) AS \(name)"
      }
    }
    let kept = plan.projection.map { $0.map { columns[$0.index] } } ?? columns
    return "SELECT \(kept.joined(separator: ", "))\nFROM \(try withDerivedColumns(try relation().from))"
      + (filter.map { "\nWHERE \($0)" } ?? "")
  }

  private func body(from: String, where_: String) throws(SQLError) -> String {
    switch plan.shape {
    case .count: return "SELECT count(*) AS count\nFROM \(from)\(where_)"
    case .tally: return try tally(from: from, where_: where_)
    case .summarize: return try summary(from: from, where_: where_)
    case .stream, .order: return try records(from: from, where_: where_)
    }
  }

  /// Whether a name is one of the statement's own columns: `sift_row`, `sift_rank`,
  /// `sift_group` (`sift_group2`…), `sift_n3`, `sift_d3`, `sift_x3`, and the names of
  /// DuckDBExactSum's lambda parameters.
  static func isOwnColumn(_ name: String) -> Bool {
    if DuckDBExactSum.lambdaNames.contains(name.lowercased()) { return true }
    let lower = Array(name.lowercased().utf8)
    if lower == Array(row.utf8) || lower == Array(rank.utf8) { return true }
    let group = Array("sift_group".utf8)
    if lower.starts(with: group), lower[group.count...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
      return true
    }
    guard lower.count > 6, lower.starts(with: Array("sift_".utf8)),
      Array("ndxjv".utf8).contains(lower[5])
    else { return false }
    return lower[6...].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// `relation` with the derived columns added.
  private func withDerivedColumns(_ relation: String) throws(SQLError) -> String {
    let relation = try withNestedColumns(relation)
    var columns: [String] = []
    for i in derived.numbers.sorted() {
      columns.append("\(number(try value(at: i))) AS sift_n\(i)")
    }
    for i in derived.dates.sorted() {
      columns.append("\(try dateKey(try value(at: i))) AS sift_d\(i)")
    }
    for i in derived.exactParts.sorted() {
      let v = try value(at: i)
      let canonical = type(at: i) == .text ? withoutSeparators(v) : v
      columns.append("\(DuckDBExactSum.parts(ofCanonical: canonical)) AS sift_x\(i)")
    }
    if columns.isEmpty { return relation }
    return "(SELECT *,\n  \(columns.joined(separator: ",\n  "))\nFROM \(relation)) AS u"
  }

  /// The statements as text, each ended by `;`.
  public func text() throws(SQLError) -> String {
    try statements().map { $0 + ";\n" }.joined()
  }

  // MARK: Records

  private func records(from: String, where_: String) throws(SQLError) -> String {
    var kept = try (plan.projection ?? plan.schema.names.enumerated().map {
      ResolvedField(index: $0.offset, path: [], name: $0.element)
    }).map { (f: ResolvedField) throws(SQLError) in try output(f) }
    var order: [String] = []
    if groupColumn {
      for (g, name) in zip(plan.group, SQLWriter.groupColumns(plan.group.count)) {
        kept.append("\(try groupValue(g)) AS \(name)")
      }
    }
    // Groups in `group:` order: each field typed as `sort:` orders it (descending where a `sort:`
    // key on it says, `Plan.groupDescending`), then by its exact bytes.
    var groups: [String] = []
    for (i, g) in plan.group.enumerated() {
      let descending = plan.groupDescending[i]
      guard plan.groupBuckets[i] == nil else {
        // A time bucket orders by its label, so its records keep their order inside it.
        let label = try groupValue(g)
        groups += try sortOrder(label, number(label), try dateKey(label), descending: descending)
          + [dialect.byteOrder(label)]
        continue
      }
      groups += try fieldOrder(g, descending: descending) + [dialect.byteOrder(try groupValue(g))]
    }
    for key in plan.sort {
      let f = key.field
      order += try fieldOrder(f, descending: key.descending)
    }
    order.append(inputOrder)
    let select = "SELECT \(kept.joined(separator: ", "))\nFROM "
    let ordered = "\nORDER BY " + (groups + order).joined(separator: ", ")
    guard let perGroup = plan.limitPerGroup else { return select + from + where_ + ordered + limit }
    // `limit:N/group`: the first N records of each group, numbered in the group's order.
    let partition = try plan.group.map { (g: ResolvedField) throws(SQLError) in try groupValue(g) }
    return select + "(SELECT *, ROW_NUMBER() OVER (PARTITION BY \(partition.joined(separator: ", "))"
      + " ORDER BY \(order.joined(separator: ", "))) AS \(SQLWriter.rank)\nFROM \(from)\(where_)) AS r"
      + "\nWHERE \(SQLWriter.rank) <= \(perGroup)" + ordered
  }

  private var limit: String { plan.limit.map { "\nLIMIT \($0)" } ?? "" }

  // MARK: Counts and summaries

  /// `-c` with `group:`: one row per group value (empty and null values are one group), in
  /// group order; with `group:a,b` one per combination, a column per field (`value1`, `value2`).
  private func tally(from: String, where_: String) throws(SQLError) -> String {
    guard !plan.group.isEmpty else { throw SQLError("a count per group needs group:") }
    for g in plan.group { try requireSQLDates(g) }
    let keys = try plan.group.map { (g: ResolvedField) throws(SQLError) in try groupValue(g) }
    let names = keys.count == 1 ? ["value"] : keys.indices.map { "value\($0 + 1)" }
    let inner = zip(keys, names).map { "\($0) AS \($1)" }
    // `sort:` over the tally's columns (the group fields, then `count`), then group order.
    var order: [String] = []
    for key in plan.tallySort {
      guard key.field.index < names.count else {
        order.append("count \(key.descending ? "DESC" : "ASC")")
        continue
      }
      let v = "coalesce(\(names[key.field.index]), '')"
      order += try sortOrder(v, number(v), try dateKey(v), descending: key.descending)
    }
    for name in names { order += try groupOrder(alias: name) }
    return "SELECT \(names.joined(separator: ", ")), count\nFROM (SELECT "
      + inner.joined(separator: ", ") + ", count(*) AS count\nFROM \(from)"
      + "\(where_)\nGROUP BY \(keys.joined(separator: ", "))) AS g\nORDER BY "
      + order.joined(separator: ", ") + limit
  }

  /// Aggregates (Docs/Aggregates.md): one summary row per group, or one for the whole result.
  private func summary(from: String, where_: String) throws(SQLError) -> String {
    var inner: [String] = []
    var outer: [String] = []
    let columns = plan.summaryColumns
    for g in plan.group { try requireSQLDates(g) }
    for key in plan.sort { if let f = columns[key.field.index].field { try requireSQLDates(f) } }
    for (i, c) in columns.enumerated() {
      let name = try dialect.identifier(c.name)
      let alias = "c\(i)"
      switch c.kind {
      case .group: inner.append("\(try groupValue(c.field!)) AS \(alias)")
      case .count: inner.append("count(*) AS \(alias)")
      case .aggregate(let function): inner.append("\(try aggregate(function, c.field!)) AS \(alias)")
      }
      outer.append("\(alias) AS \(name)")
    }
    let keys = try plan.group.map { (g: ResolvedField) throws(SQLError) in try groupValue(g) }
    let grouping = keys.isEmpty ? "" : "\nGROUP BY " + keys.joined(separator: ", ")
    let kept = plan.projection.map { $0.map { outer[$0.index] } } ?? outer
    var order: [String] = []
    for key in plan.sort {
      let c = columns[key.field.index]
      let alias = "c\(key.field.index)"
      if c.kind == .group || ((c.function == .min || c.function == .max)
        && plan.type(of: c.field!) != .number)
      {
        let v = "coalesce(\(alias), '')"
        order += try sortOrder(v, number(v), try dateKey(v), descending: key.descending)
      } else {
        // Sums, means and percentiles are text written as sift writes them (Trino: numbers).
        let number: String
        switch dialect {
        case .duckdb: number = "TRY_CAST(\(alias) AS DOUBLE)"
        case .postgres: number = "CAST(\(alias) AS DOUBLE PRECISION)"
        case .clickhouse: number = "toFloat64OrNull(toString(\(alias)))"
        case .spark: number = "CAST(\(alias) AS DOUBLE)"
        case .trino: number = alias
        }
        let direction = key.descending ? "DESC" : "ASC"
        order.append("\(number) \(direction) NULLS LAST")
        // Sums and means that tie as doubles, by their exact value (ExactNumberOrder).
        if dialect != .trino {
          let text = dialect == .clickhouse ? "toString(\(alias))" : "CAST(\(alias) AS \(dialect.text))"
          let exact = try ExactNumberOrder.key(dialect, value: text, canonical: text, number: number)
          order.append("\(exact) \(direction) NULLS LAST")
        }
      }
    }
    // The group columns are the first ones: c0, c1…
    var groups: [String] = []
    for i in plan.group.indices { groups += try groupOrder(alias: "c\(i)") }
    let summarized = "(SELECT \(inner.joined(separator: ", "))\nFROM \(from)\(where_)\(grouping)) AS s"
    let select = "SELECT \(kept.joined(separator: ", "))\nFROM "
    guard let perGroup = plan.limitPerGroup else {
      let ordered = (order + groups).isEmpty ? "" : "\nORDER BY " + (order + groups).joined(separator: ", ")
      return select + summarized + ordered + limit
    }
    // `limit:N/group`: the first N rows of each value of the outer group fields (all but the
    // last), in outer group order (Docs/Aggregates.md).
    let outerColumns: [String] = plan.group.indices.dropLast().map { "c\($0)" }
    var outerOrder: [String] = []
    for alias in outerColumns { outerOrder += try groupOrder(alias: alias) }
    let rowOrder: String = (order + groups).joined(separator: ", ")
    let numbered: String = "(SELECT *, ROW_NUMBER() OVER (PARTITION BY "
      + outerColumns.joined(separator: ", ") + " ORDER BY " + rowOrder + ") AS "
      + SQLWriter.rank + "\nFROM " + summarized + ") AS r"
    let finalOrder: String = (outerOrder + order + groups).joined(separator: ", ")
    return select + numbered + "\nWHERE \(SQLWriter.rank) <= \(perGroup)\nORDER BY " + finalOrder
  }

  /// One aggregate over a group's values; empty values and values not of the kind it needs are
  /// left out.
  private func aggregate(_ function: AggregateFunction, _ field: ResolvedField) throws(SQLError) -> String {
    let v = try value(field)
    let n = try number(of: field)
    switch function {
    case .sum, .avg:
      switch dialect {
      case .duckdb:
        switch type(of: field) {
        case .integer:
          return DuckDBExactSum.aggregate(mean: function == .avg, column: try column(field), scale: 0)
        case .decimal(let scale):
          return DuckDBExactSum.aggregate(mean: function == .avg, column: try column(field), scale: scale)
        case .double:
          return DuckDBExactSum.aggregate(mean: function == .avg, double: try column(field))
        case .text, .other, .date, .timestamp, .timestampWithZone: break
        }
        _ = try column(field)
        derived.exactParts.insert(slot(field))
        return DuckDBExactSum.aggregate(
          mean: function == .avg, value: v, number: n, parts: "sift_x\(slot(field))")
      case .postgres: return exactNumeric(function, v, n)
      case .clickhouse, .spark:
        return try ExactSumGuard.aggregate(
          dialect, mean: function == .avg, value: v, canonical: withoutSeparators(v), number: n,
          field: field.name)
      case .trino: return "\(function == .sum ? "sum" : "avg")(\(n))"
      }
    case .distinct: return "count(DISTINCT CASE WHEN NOT \(try isEmpty(field)) THEN \(v) END)"
    case .min, .max:
      let largest = function == .max
      let key: String
      switch plan.type(of: field) {
      case .number: key = n
      case .date, .dateTime: key = try dateKey(of: field)
      default: key = "CASE WHEN NOT \(try isEmpty(field)) THEN \(dialect.byteOrder(dialect.lower(v))) END"
      }
      // The first value of the smallest (largest) key, ties in input order; a decimal-comma
      // number is written as sift writes summaries (Docs/Formats.md, Decimal commas).
      let v = plan.decimalMark == .comma && key == n && type(of: field) == .text ? withoutSeparators(v) : v
      let exact = key == n ? try exactKey(field) : nil
      if let pick = ordered(v, by: key, exact: exact, descending: largest, percentile: nil) { return pick }
      return "\(dialect.valueAtExtreme(largest: largest))(CASE WHEN \(key) IS NOT NULL THEN \(v) END, \(key))"
    case .median, .percentile:
      // The ⌈p/100 · n⌉-th smallest number, ties in input order, written as read.
      let p = function.percentile!
      let read = type(of: field) == .text ? withoutSeparators(v) : v
      guard let pick = ordered(read, by: n, exact: try exactKey(field), descending: false, percentile: p) else {
        throw cannot("\(function.name):\(field.name) (an exact nearest-rank percentile)")
      }
      return pick
    }
  }

  /// Postgres's sum and mean in `NUMERIC`, exact: a sum with the largest number of decimals
  /// among its values, a mean with two more, rounded half to even (Postgres's `round` rounds
  /// half away from zero, so a tie is settled here).
  private func exactNumeric(_ function: AggregateFunction, _ v: String, _ n: String) -> String {
    let decimal = "CASE WHEN \(n) IS NOT NULL THEN CAST(\(withoutSeparators(v)) AS NUMERIC) END"
    let scale = "coalesce(max(CASE WHEN \(n) IS NOT NULL THEN length(substring(\(v) from \(decimalsPattern))) END), 0)"
    if function == .sum { return "CAST(round(sum(\(decimal)), \(scale)) AS TEXT)" }
    let digits = "(\(scale) + 2)"
    let scaled = "(avg(\(decimal)) * power(10::numeric, \(digits)))"
    return "CAST(CASE WHEN abs(\(scaled) - trunc(\(scaled))) = 0.5 AND mod(trunc(\(scaled)), 2) = 0 "
      + "THEN round(trunc(\(scaled)) / power(10::numeric, \(digits)), \(digits)) "
      + "ELSE round(avg(\(decimal)), \(digits)) END AS TEXT)"
  }

  /// The value at the rank the nearest-rank `percentile` picks (the first without one) among
  /// the group's values whose `key` is not NULL, ordered by the key then input order: an
  /// ordered aggregate, where the dialect has one.
  private func ordered(
    _ v: String, by key: String, exact: String?, descending: Bool, percentile: Int?
  ) -> String? {
    let count = "count(\(key))"
    let rank = { (divide: (String, String) -> String) in
      percentile.map { "greatest(1, \(divide("\($0) * \(count) + 99", "100")))" } ?? "1"
    }
    let direction = descending ? " DESC" : ""
    let order = "ORDER BY \(key)\(direction), " + (exact.map { "\($0)\(direction), " } ?? "") + inputOrder
    let negated = descending ? "-" : ""
    switch dialect {
    case .duckdb:
      return "(list(\(v) \(order)) FILTER (WHERE \(key) IS NOT NULL))[\(rank { "(\($0)) // \($1)" })]"
    case .postgres:
      return "(array_agg(\(v) \(order)) FILTER (WHERE \(key) IS NOT NULL))[\(rank { "(\($0)) / \($1)" })]"
    case .clickhouse:
      // Tuples sort element by element; only a number key can be negated for a largest first.
      if descending && !key.hasPrefix("sift_n") { return nil }
      let exactly = exact.map { "\(negated)\($0), " } ?? ""
      return "tupleElement(arrayElement(arraySort(groupArrayIf((\(negated)\(key), \(exactly)"
        + "\(inputOrder), \(v)), \(key) IS NOT NULL)), \(rank { "intDiv(\($0), \($1))" })), "
        + "\(exact == nil ? 3 : 4))"
    case .spark:
      // Structs sort field by field; only a number key can be negated for a largest first.
      if descending && !key.hasPrefix("sift_n") { return nil }
      return "element_at(array_sort(collect_list(CASE WHEN \(key) IS NOT NULL THEN named_struct("
        + "'k', \(negated)\(key), " + (exact.map { "'e', \(negated)\($0), " } ?? "")
        + "'r', \(inputOrder), 'v', \(v)) END)), "
        + "CAST(\(rank { "(\($0)) div \($1)" }) AS INT)).v"
    case .trino:
      return nil
    }
  }

  private func cannot(_ what: String) -> SQLError {
    SQLError("\(dialect.rawValue) cannot express \(what) exactly")
  }

  // MARK: Order

  /// A value's sort keys (Docs/QueryLanguage.md, Directives): numbers, then dates, then text
  /// ignoring case, then empty values, in both directions.
  private func sortOrder(
    _ v: String, _ n: String, _ d: String, descending: Bool
  ) throws(SQLError) -> [String] {
    let direction = descending ? "DESC" : "ASC"
    let rank = "CASE WHEN \(isEmpty(v)) THEN 3 WHEN \(n) IS NOT NULL THEN 0 "
      + "WHEN \(d) IS NOT NULL THEN 1 ELSE 2 END"
    let text = "CASE WHEN \(isEmpty(v)) THEN NULL WHEN \(n) IS NULL AND \(d) IS NULL "
      + "THEN \(dialect.byteOrder(dialect.lower(v))) END"
    let exact = try ExactNumberOrder.key(dialect, value: v, canonical: withoutSeparators(v), number: n)
    return [rank, "\(n) \(direction) NULLS LAST", "\(exact) \(direction) NULLS LAST",
      "\(d) \(direction) NULLS LAST", "\(text) \(direction) NULLS LAST"]
  }

  /// A field's sort keys, as `sortOrder`'s: an integer, decimal or date column is its own
  /// key, empty (NULL) values last; a double's `nan` and infinities are text, after numbers.
  private func fieldOrder(_ field: ResolvedField, descending: Bool) throws(SQLError) -> [String] {
    let direction = descending ? "DESC" : "ASC"
    let c = try column(field)
    switch type(of: field) {
    case .integer, .decimal, .date, .timestamp, .timestampWithZone:
      return ["\(c) \(direction) NULLS LAST"]
    case .double:
      return ["CASE WHEN \(c) IS NULL THEN 3 WHEN isfinite(\(c)) THEN 0 ELSE 2 END",
        "\(try number(of: field)) \(direction) NULLS LAST",
        "CASE WHEN NOT isfinite(\(c)) THEN \(try value(field)) END \(direction) NULLS LAST"]
    case .text, .other:
      return try sortOrder(
        try value(field), try number(of: field), try dateKey(of: field), descending: descending)
    }
  }

  /// Groups in `group:` order by a column of a grouped result (its values already the groups').
  private func groupOrder(alias v: String) throws(SQLError) -> [String] {
    try sortOrder(v, number(v), try dateKey(v), descending: false) + [dialect.byteOrder(v)]
  }

  /// A group's value: empty and null values are one group, the empty one.
  /// One text per combination of the group fields' values, for counting the groups: the one
  /// value with one field; with several, each value after its length (`4:Acme8:received`), so
  /// that no two combinations give the same text.
  private func groupCombination() throws(SQLError) -> String {
    let values = try plan.group.map { (g: ResolvedField) throws(SQLError) in try groupValue(g) }
    guard values.count > 1 else { return values[0] }
    return values.map { "CAST(length(\($0)) AS \(dialect.text)) || ':' || \($0)" }
      .joined(separator: " || ")
  }

  private func groupValue(_ field: ResolvedField) throws(SQLError) -> String {
    let v = try value(field)
    if let at = plan.group.firstIndex(of: field), let bucket = plan.groupBuckets[at] {
      // A time bucket's label from the date key; a value that is not a date keeps its text
      // (Docs/QueryLanguage.md, Time buckets). Labels are made from text date keys alone.
      guard type(of: field) == .text else {
        throw SQLError("a time bucket on \(field.name), a typed date column, cannot be written as SQL yet")
      }
      let key = try dateKey(of: field)
      return "CASE WHEN \(isEmpty(v)) THEN '' WHEN \(key) IS NULL THEN \(v) ELSE "
        + "\(dialect.bucketLabel(bucket, dateKey: key)) END"
    }
    if type(of: field) != .text { return v }
    return "CASE WHEN \(isEmpty(v)) THEN '' ELSE \(v) END"
  }

  // MARK: Filter

  /// A condition that holds where sift's filter matches. Where a `NOT` reads it (`total`) it is
  /// TRUE or FALSE, never NULL, so that `NOT` means what sift's negation means; elsewhere a
  /// NULL rejects a record as FALSE does, and a typed comparison stays plain for the engine to
  /// push into its scan.
  private func condition(_ filter: TypedFilter, total: Bool = false) throws(SQLError) -> String {
    switch filter {
    case .all(let parts):
      return "(" + (try parts.map { (p: TypedFilter) throws(SQLError) in try condition(p, total: total) })
        .joined(separator: " AND ") + ")"
    case .any(let parts):
      return "(" + (try parts.map { (p: TypedFilter) throws(SQLError) in try condition(p, total: total) })
        .joined(separator: " OR ") + ")"
    case .not(let inner):
      return "(NOT \(try condition(inner, total: true)))"
    case .field(let field, let tests):
      let alternatives = try tests.map { (t: TypedTest) throws(SQLError) in try self.test(t, field) }
      let either = alternatives.joined(separator: " OR ")
      let tested = total ? "coalesce(\(either), FALSE)" : alternatives.count == 1 ? either : "(\(either))"
      let presence = tests.allSatisfy {
        if case .empty = $0 { return true }
        if case .present = $0 { return true }
        return false
      }
      return source.nullIsMissing && !presence ? try refusingArrays(field, tested) : tested
    case .anyFieldContains(let text):
      let folded = String(decoding: TextFold.fold(text), as: UTF8.self)
      if folded.isEmpty { return "TRUE" }
      let needle = try dialect.literal(folded)
      let each = try plan.schema.names.indices.map { (i: Int) throws(SQLError) in
        let c = try dialect.identifier(plan.schema.names[i])
        return dialect.contains(dialect.lower(type(at: i) == .text ? c : "CAST(\(c) AS \(dialect.text))"), needle)
      }
      return total ? "coalesce(\(each.joined(separator: " OR ")), FALSE)" : "(\(each.joined(separator: " OR ")))"
    }
  }

  /// sift tests each element of a JSON array; SQL here sees the array's text. A record whose
  /// field holds an array stops the statement with an error rather than answer differently.
  private func refusingArrays(_ field: ResolvedField, _ tested: String) throws(SQLError) -> String {
    let message = try dialect.literal(
      "sift: \(field.name) holds a JSON array, whose elements SQL cannot test as sift does; "
        + "run this query with sift itself")
    let c = try column(field)
    let array = "(\(c) LIKE '[%' AND \(c) <> '[]')"
    switch dialect {
    case .duckdb: return "(CASE WHEN \(array) THEN error(\(message)) ELSE \(tested) END)"
    case .spark: return "(CASE WHEN \(array) THEN raise_error(\(message)) ELSE \(tested) END)"
    case .clickhouse: return "(throwIf(\(array), \(message)) = 0 AND \(tested))"
    case .postgres, .trino: return tested
    }
  }

  /// One typed test of a field's value (Docs/QueryLanguage.md, Filter terms). On a typed
  /// column (Docs/Engines.md, Typed columns) a number or date test is a plain comparison of the
  /// column, which the engine pushes into its scan; a double's also asks `isfinite`.
  private func test(_ test: TypedTest, _ field: ResolvedField) throws(SQLError) -> String {
    let v = try value(field)
    let lowered = dialect.lower(v)
    let type = type(of: field)
    switch test {
    case .textIn(let texts):
      return "\(lowered) IN (\(try folded(texts).joined(separator: ", ")))"
    case .numberEquals(let n, let text):
      let number = try number(of: field)
      // A typed number column holds no text that is not a number (a double's `nan` is no
      // number literal's text).
      if type.holdsNumbers { return "\(number) = \(try numberLiteral(n, field))" }
      return "coalesce(\(number) = \(try numberLiteral(n, field)), \(lowered) = \(try folded([text])[0]))"
    case .inPeriod(let period, let text, _):
      if type.holdsDates { return try within(field, from: period, to: period) }
      let key = try dateKey(of: field)
      let otherwise = try text.map { (t: String) throws(SQLError) in "\(lowered) = \(try folded([t])[0])" }
      return "(CASE WHEN \(key) IS NOT NULL THEN \(try within(field, from: period, to: period)) "
        + "ELSE \(otherwise ?? "FALSE") END)"
    case .switchIs(let on):
      let spellings = on ? ["on", "yes", "true", "y", "1"] : ["off", "no", "false", "n", "0"]
      return "(CASE WHEN \(try isEmpty(field)) THEN \(on ? "FALSE" : "TRUE") ELSE \(lowered) IN ("
        + spellings.map { "'\($0)'" }.joined(separator: ", ") + ") END)"
    case .numberCompare(let op, let n):
      let literal = try numberLiteral(n, field)
      return try numberTest(field) { "\($0) \(op.rawValue) \(literal)" }
    case .dateCompare(let op, let period):
      let key = try dateKey(of: field)
      switch op {
      case .less: return "\(key) < \(try dateBound(period.start, field))"
      case .lessOrEqual: return "\(key) < \(try dateBound(period.end, field))"
      case .greater: return "\(key) >= \(try dateBound(period.end, field))"
      case .greaterOrEqual: return "\(key) >= \(try dateBound(period.start, field))"
      }
    case .textCompare(let op, let text):
      return "(CASE WHEN \(try isEmpty(field)) THEN FALSE ELSE \(dialect.byteOrder(lowered)) \(op.rawValue) "
        + "\(try folded([text])[0]) END)"
    case .numberRange(let low, let high):
      // `BETWEEN` reads the number once (a derived column may be computed where it is named).
      let range: (String) -> String
      switch (low, high) {
      case (let low?, let high?):
        let (l, h) = (try numberLiteral(low, field), try numberLiteral(high, field))
        range = { "\($0) BETWEEN \(l) AND \(h)" }
      case (let low?, nil):
        let l = try numberLiteral(low, field)
        range = { "\($0) >= \(l)" }
      case (nil, let high?):
        let h = try numberLiteral(high, field)
        range = { "\($0) <= \(h)" }
      case (nil, nil): range = { "\($0) IS NOT NULL" }
      }
      return try numberTest(field, range)
    case .dateRange(let low, let high):
      return try within(field, from: low, to: high)
    case .textRange(let low, let high):
      var parts = ["NOT \(try isEmpty(field))"]
      if let low { parts.append("\(dialect.byteOrder(lowered)) >= \(try folded([low])[0])") }
      if let high { parts.append("\(dialect.byteOrder(lowered)) <= \(try folded([high])[0])") }
      return "(" + parts.joined(separator: " AND ") + ")"
    case .glob(let pattern):
      return try like(dialect.lower(try present(field)), pattern)
    case .regex(let pattern, let caseInsensitive, _):
      let flagged = (caseInsensitive ? "(?i)" : "") + pattern
      return dialect.matches(try present(field), try dialect.literal(flagged))
    case .empty:
      // sift's own run finds no value at a nested path that is missing, so `field:""` does
      // not match it (Docs/Engines.md, Nested fields).
      if !field.path.isEmpty { return "(\(try column(field)) IS NOT NULL AND \(try isEmpty(field)))" }
      return try isEmpty(field)
    case .present:
      return "(NOT \(try isEmpty(field)))"
    }
  }

  /// `compare` of the field's number; a double column's own value, so that the engine can push
  /// the comparison into its scan, and `isfinite`, since a `nan` compares above every number.
  private func numberTest(_ field: ResolvedField, _ compare: (String) -> String) throws(SQLError) -> String {
    guard type(of: field) == .double else { return compare(try number(of: field)) }
    let c = try column(field)
    return "(\(compare(c)) AND isfinite(\(c)))"
  }

  /// A number literal for a comparison with `field`'s number: on an integer or decimal column
  /// the number's exact text, which the engine compares exactly; else a double, refused where
  /// it would not compare as sift does, exactly (Docs/QueryLanguage.md, How numbers compare;
  /// Docs/Engines.md).
  private func numberLiteral(_ n: NumberLiteral, _ field: ResolvedField) throws(SQLError) -> String {
    let exact = n.description
    if type(of: field).alwaysNumber && n.exact.digits.count <= 38 && !exact.contains("e") {
      return exact
    }
    guard n.fitsDouble else {
      throw SQLError(
        "the number \(n) has more than \(NumberReading.doubleDigits) significant digits, which "
          + "sift compares exactly and the SQL would compare as a binary double")
    }
    return try dialect.number(n.value)
  }

  /// Texts lowercased as sift folds them, as literals.
  private func folded(_ texts: [String]) throws(SQLError) -> [String] {
    try texts.map { (t: String) throws(SQLError) in
      try dialect.literal(String(decoding: TextFold.fold(t), as: UTF8.self))
    }
  }

  /// `field`'s date key from the start of `low` up to the end of `high`; `nil` ends are open.
  private func within(_ field: ResolvedField, from low: Period?, to high: Period?) throws(SQLError) -> String {
    let key = try dateKey(of: field)
    var parts: [String] = []
    if let low { parts.append("\(key) >= \(try dateBound(low.start, field))") }
    if let high { parts.append("\(key) < \(try dateBound(high.end, field))") }
    return "(" + (parts.isEmpty ? ["\(key) IS NOT NULL"] : parts).joined(separator: " AND ") + ")"
  }

  /// A whole-value glob, `*` any run of characters, as `LIKE` with an explicit escape; ClickHouse
  /// has no `ESCAPE` clause and escapes with a backslash.
  private func like(_ e: String, _ pattern: String) throws(SQLError) -> String {
    let escape = dialect.likeEscape
    var out = ""
    for c in String(decoding: TextFold.fold(pattern), as: UTF8.self) {
      switch c {
      case "*": out.append("%")
      case "%", "_", escape:
        out.append(escape)
        out.append(c)
      default: out.append(c)
      }
    }
    let literal = try dialect.literal(out)
    return dialect.like(e, literal)
  }

  // MARK: Values

  /// A field's value as text, an empty value (and a missing one) as `''`; a typed column's
  /// as the engine writes it.
  private func value(_ field: ResolvedField) throws(SQLError) -> String {
    let c = try column(field)
    return type(of: field) == .text ? "coalesce(\(c), '')" : "coalesce(CAST(\(c) AS \(dialect.text)), '')"
  }

  /// How the statement reads a field: in its engine type (DuckDB on a typed source), else text.
  private func type(of field: ResolvedField) -> SQLColumnType {
    field.path.isEmpty ? type(at: field.index) : .text
  }

  private func type(at index: Int) -> SQLColumnType {
    guard dialect == .duckdb, let types = columnTypes, index < types.count else { return .text }
    // A column of another type is read as its text (the relation casts it).
    return types[index] == .other ? .text : types[index]
  }

  private func value(at index: Int) throws(SQLError) -> String {
    let names = plan.schema.names
    if index >= names.count { return try value(derived.nested[index - names.count]) }
    return try value(ResolvedField(index: index, path: [], name: names[index]))
  }

  /// The field's value as a number: a number column itself (a double's `nan` and infinities,
  /// which sift does not read as numbers, NULL), NULL for a date column, else its derived column.
  private func number(of field: ResolvedField) throws(SQLError) -> String {
    let c = try column(field)
    switch type(of: field) {
    case .integer, .decimal: return c
    case .double: return "(CASE WHEN isfinite(\(c)) THEN \(c) END)"
    case .date, .timestamp, .timestampWithZone: return "NULL"
    case .text, .other:
      derived.numbers.insert(slot(field))
      return "sift_n\(slot(field))"
    }
  }

  /// The field's exact number sort key, after its double (ExactNumberOrder).
  /// `nil` for a typed column, whose own type orders it exactly (Docs/Engines.md, Typed columns).
  private func exactKey(_ field: ResolvedField) throws(SQLError) -> String? {
    guard type(of: field) == .text else { return nil }
    let v = try value(field)
    return try ExactNumberOrder.key(
      dialect, value: v, canonical: withoutSeparators(v), number: try number(of: field))
  }

  /// Throws where the SQL would read `field`'s dates otherwise than sift: the SQL reads ISO
  /// dates only and keeps an offset as written (Docs/Engines.md).
  private func requireSQLDates(_ field: ResolvedField) throws(SQLError) {
    let convention = plan.convention(of: field)
    if convention.order != .ymd || convention.otherStyles {
      throw SQLError(
        "the dates in \(field.name) are not all written YYYY-MM-DD, and the SQL reads only "
          + "those")
    }
    if convention.movesInstants {
      throw SQLError(
        "the dates in \(field.name) have offsets other than --tz's, which sift compares as "
          + "instants and the SQL would compare as written")
    }
  }

  /// The field's value as a date key: a date or timestamp column itself, NULL for a number
  /// column, else its derived column. `dateBound` writes what it is compared with.
  private func dateKey(of field: ResolvedField) throws(SQLError) -> String {
    let c = try column(field)
    switch type(of: field) {
    case .date, .timestamp, .timestampWithZone: return c
    case .integer, .decimal, .double: return "NULL"
    case .text, .other:
      try requireSQLDates(field)
      derived.dates.insert(slot(field))
      return "sift_d\(slot(field))"
    }
  }

  /// A wall time as what `dateKey(of: field)` is compared with: its 20 digits for a text
  /// column; a `DATE` (at midnight, for a date column) or `TIMESTAMP` literal; for a
  /// `TIMESTAMP WITH TIME ZONE` the instant it is in `--tz`'s zone, with its offset written.
  private func dateBound(_ t: WallTime, _ field: ResolvedField) throws(SQLError) -> String {
    let type = type(of: field)
    if type == .text { return try dialect.literal(SQLWriter.digits(t)) }
    let zone = plan.convention(of: field).zone
    let shifted = type == .timestampWithZone ? t - zone.offset(atUTC: t - zone.offset(atUTC: t)) : t
    let d = Array(SQLWriter.digits(shifted))
    if d.count != 20 {
      // Before year 0 or from year 10000 on: beyond every value.
      return (d.count > 20 ? "'infinity'" : "'-infinity'") + "::" + (type == .date ? "DATE" : "TIMESTAMP")
    }
    let date = String(d[0..<4]) + "-" + String(d[4..<6]) + "-" + String(d[6..<8])
    if type == .date && shifted % Calendar.microsPerDay == 0 { return "DATE '\(date)'" }
    let time = date + " " + String(d[8..<10]) + ":" + String(d[10..<12]) + ":" + String(d[12..<14])
      + "." + String(d[14..<20])
    return type == .timestampWithZone ? "TIMESTAMPTZ '\(time)+00'" : "TIMESTAMP '\(time)'"
  }

  /// A field's value as text, NULL where the field is missing (a JSON key not in the record);
  /// globs and regular expressions do not match a missing field.
  private func present(_ field: ResolvedField) throws(SQLError) -> String {
    source.nullIsMissing ? try column(field) : try value(field)
  }

  /// A field as an output column, named by its header as the input wrote it (a duplicate CSV
  /// header `a` is the field `a_2`; Docs/Formats.md). An empty header keeps its column number.
  private func output(_ field: ResolvedField) throws(SQLError) -> String {
    let c = try column(field)
    if !field.path.isEmpty { return "\(c) AS \(try dialect.identifier(field.name))" }
    let header = String(decoding: plan.schema.header(field.index), as: UTF8.self)
    // ClickHouse writes a NULL as `\N` in CSV: an empty or missing value is written empty.
    let value = dialect == .clickhouse ? "ifNull(\(c), '')" : c
    if header.isEmpty || header == plan.schema.names[field.index] {
      return value == c ? c : "\(value) AS \(c)"
    }
    return "\(value) AS \(try dialect.identifier(header))"
  }

  private func column(_ field: ResolvedField) throws(SQLError) -> String {
    guard field.path.isEmpty else {
      // Refused here, where the dialect reads no nested JSON (SQLNestedField).
      _ = try nestedValue(field)
      return SQLNestedField.valueColumn(slot(field))
    }
    return try dialect.identifier(plan.schema.names[field.index])
  }

  /// Where a field's derived columns are numbered: a top-level field's index, a nested
  /// field's place after the top-level fields (registered on first use).
  private func slot(_ field: ResolvedField) -> Int {
    if field.path.isEmpty { return field.index }
    let names = plan.schema.names.count
    if let at = derived.nested.firstIndex(where: { $0.index == field.index && $0.path == field.path }) {
      return names + at
    }
    derived.nested.append(field)
    return names + derived.nested.count - 1
  }

  /// A nested field's value at its path (SQLNestedField), from DuckDB's `JSON` reading of its
  /// top-level column, else from the column's text.
  private func nestedValue(_ field: ResolvedField) throws(SQLError) -> String {
    let top = dialect == .duckdb
      ? SQLNestedField.jsonColumn(field.index) : try dialect.identifier(plan.schema.names[field.index])
    return try SQLNestedField.value(dialect, column: top, path: field.path, name: field.name)
  }

  /// `relation` with a column per nested field the statement reads (`sift_v7`), below the
  /// derived columns that read them.
  private func withNestedColumns(_ relation: String) throws(SQLError) -> String {
    if derived.nested.isEmpty { return relation }
    let names = plan.schema.names.count
    let columns = try derived.nested.enumerated().map { (i, f) throws(SQLError) in
      "\(try nestedValue(f)) AS \(SQLNestedField.valueColumn(names + i))"
    }
    return "(SELECT *,\n  \(columns.joined(separator: ",\n  "))\nFROM \(relation)) AS v"
  }

  /// Whether the field is empty: a typed column's NULL, else `isEmpty` of its text.
  private func isEmpty(_ field: ResolvedField) throws(SQLError) -> String {
    type(of: field) == .text ? isEmpty(try value(field)) : "(\(try column(field)) IS NULL)"
  }

  /// Whether the value is empty or a null token (`NA`, `N/A`, `null`, `None`, `-`, any case).
  /// An empty JSON array or object counts as empty too.
  private func isEmpty(_ v: String) -> String {
    let containers = source.nullIsMissing ? ", '[]', '{}'" : ""
    return "(\(dialect.lower(v)) IN ('', 'na', 'n/a', 'null', 'none', '-'\(containers)))"
  }

  /// The value as a number, NULL when it is not one: sift's own grammar (Docs/QueryLanguage.md,
  /// Values and types), thousands separators removed before a cast that cannot fail. Under a
  /// decimal comma the marks swap (`1.234,50`; Docs/Formats.md, Decimal commas).
  private func number(_ v: String) -> String {
    let (group, fraction) = plan.decimalMark == .comma ? ("[.]", ",") : (",", "[.]")
    let pattern =
      "'^ *[+-]?([0-9]{1,3}(\(group)[0-9]{3})+|[0-9]+)(\(fraction)[0-9]+)?([eE][+-]?[0-9]+)? *$'"
    let stripped = withoutSeparators(v)
    return "(CASE WHEN \(dialect.matches(v, pattern)) THEN \(dialect.castToNumber(stripped)) END)"
  }

  /// A number's text without its thousands separators and surrounding spaces, in sift's
  /// canonical form (`1234.50`; a decimal comma becomes a point).
  private func withoutSeparators(_ v: String) -> String {
    let replace = dialect.replaceAll
    guard plan.decimalMark == .comma else {
      return replace(replace(v, "','", "''"), "' '", "''")
    }
    return replace(replace(replace(v, "'.'", "''"), "' '", "''"), "','", "'.'")
  }

  /// The pattern whose first group is a number's decimals, as the input writes them.
  private var decimalsPattern: String {
    plan.decimalMark == .comma ? "'[,]([0-9]+)'" : "'[.]([0-9]+)'"
  }

  /// The value as a date key, NULL when it is not a date: the 20 digits
  /// `YYYYMMDDhhmmssffffff` of its wall time, which order as the times do. A date must be valid
  /// (no 30 February), written as sift reads dates; an offset is kept, not applied.
  private func dateKey(_ v: String) throws(SQLError) -> String {
    let valid = try dialect.literal(SQLWriter.datePattern)
    let parts = try dialect.literal(SQLWriter.dateParts)
    let dashed = dialect.replaceAll(v, "'/'", "'-'")
    return "(CASE WHEN \(dialect.matches(v, valid)) THEN "
      + dialect.padRight(try dialect.replaceFirst(dashed, parts, groups: 1...7), width: 20) + " END)"
  }

  /// A whole date or date-time value as sift reads one: `-` or `/` between the date's parts,
  /// a valid day (leap years included), an optional time and offset.
  static let datePattern: String = {
    func day(_ s: String) -> String {
      let monthDay = "(0[13578]|1[02])\(s)(0[1-9]|[12][0-9]|3[01])|(0[469]|11)\(s)(0[1-9]|[12][0-9]|30)"
        + "|02\(s)(0[1-9]|1[0-9]|2[0-8])"
      let leap = "([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)\(s)02\(s)29"
      return "[0-9]{4}\(s)(\(monthDay))|\(leap)"
    }
    let time = "([Tt ]([01][0-9]|2[0-3]):[0-5][0-9](:([0-5][0-9]|60)([.,][0-9]+)?)?"
      + "([Zz]|[+-]([01][0-9]|2[0-3]):?[0-5][0-9])?)?"
    return "^ *(\(day("-"))|\(day("/")))\(time) *$"
  }()

  /// The digits of a valid date or date-time (its `/` already `-`): year, month, day, hour,
  /// minute, second and up to six digits of the fraction, absent ones empty.
  static let dateParts =
    "^ *([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})"
    + "(?:[.,]([0-9]{0,6})[0-9]*)?)?)?.*$"

  /// A wall time as the 20 digits of `dateKey`; before year 0 all zeros, from year 10000 on
  /// all nines and one more, so bounds outside the writable years still compare.
  static func digits(_ t: WallTime) -> String {
    var days = t / Calendar.microsPerDay
    var micros = t % Calendar.microsPerDay
    if micros < 0 {
      days -= 1
      micros += Calendar.microsPerDay
    }
    let (y, m, d) = Calendar.civil(fromDays: Int(days))
    if y < 0 { return String(repeating: "0", count: 20) }
    if y > 9999 { return String(repeating: "9", count: 21) }
    func padded(_ n: Int64, _ width: Int) -> String {
      let s = String(n)
      return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    let seconds = micros / 1_000_000
    return padded(Int64(y), 4) + padded(Int64(m), 2) + padded(Int64(d), 2)
      + padded(seconds / 3600, 2) + padded(seconds / 60 % 60, 2) + padded(seconds % 60, 2)
      + padded(micros % 1_000_000, 6)
  }
}
