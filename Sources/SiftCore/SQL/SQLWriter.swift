/// Writes a typed plan as one SQL statement with the meaning of sift's own run (Docs/Engines.md):
/// generated from the plan's typed tests and directives, never from the query's text. Every
/// name and literal goes through the dialect's quoting, so no input changes the statement's shape.
/// The statement is written to be read (Docs/Engines.md, Readable statements): one common table
/// expression per stage, each rule written once as a named column, and a comment naming the
/// sift term each predicate, sort key and aggregate comes from.
public struct SQLWriter {
  public let plan: Plan
  public let dialect: SQLDialect
  public let source: SQLSource
  /// With `group:`, each record's group values in last columns (`groupColumns`), for a client
  /// that writes group headers (`--engine`).
  public var groupColumn = false
  /// The engine's type of each column of a Parquet file or a table (`SQLStatement.described`):
  /// DuckDB and Spark read a typed column in its own type (Docs/Engines.md, Typed columns);
  /// `nil`, or another dialect, reads every column as text.
  public var columnTypes: [SQLColumnType]?
  /// The query as it was typed: the comments quote each filter term from it, as written. Without
  /// it (or where its spans do not fit it) they give the term's canonical form.
  public var queryText: String?

  /// The names of the columns that hold a record's group values with `groupColumn`:
  /// `sift_group`, or with `group:a,b` `sift_group1`, `sift_group2`.
  public static func groupColumns(_ count: Int) -> [String] {
    count == 1 ? ["sift_group"] : (1...max(count, 1)).map { "sift_group\($0)" }
  }

  /// The column that numbers each group's records with `limit:N/group`.
  static let rank = "sift_rank"

  /// The column that holds the input order.
  static let row = "sift_row"

  /// What a statement reads besides the fields, learnt while it is written: the fields whose
  /// value is read as a number or a date, each computed once in the `typed` stage, in a column
  /// named for the field and what it holds (`qty_number`, `date_key`, DuckDB's `amount_parts`),
  /// which the filter and the order name; the columns a stage after grouping adds.
  private final class Derived {
    var numbers: Set<Int> = []
    var dates: Set<Int> = []
    /// DuckDB's exact sums: a number's decimals and units (DuckDBExactSum).
    var exactParts: Set<Int> = []
    /// Whether the statement reads the input order (`sift_row`): only a sort, an ordered
    /// aggregate or records in input order do (Docs/Engines.md, Input order).
    var row = false
    /// Columns computed over the grouped rows (the `summary` stage), in the order named.
    var results: [(name: String, expression: String)] = []
    /// The name given to each derived column, by what it is (`n3`, `d3`, `x3`, `r:…`).
    var names: [String: String] = [:]
    /// Every name in use, lowercased: the fields', the statement's own, those given.
    var taken: Set<String> = []
    /// The nested fields the statement reads, in first-use order: each is a column of its own
    /// (`sift_v7`), numbered after the top-level fields (`slot`).
    var nested: [ResolvedField] = []

    func reset(fields: [String]) {
      numbers = []
      dates = []
      exactParts = []
      row = false
      nested = []
      results = []
      names = [:]
      taken = Set((fields + [SQLWriter.row, SQLWriter.rank]).map { $0.lowercased() })
        .union(DuckDBExactSum.lambdaNames)
    }

    /// The name of the derived column `key`: `base`, or where a field or another column
    /// already has it (ignoring case, as engines compare names) `base_2`, `base_3`…
    func name(_ key: String, base: String) -> String {
      if let given = names[key] { return given }
      var name = base
      var n = 2
      while taken.contains(name.lowercased()) {
        name = base + "_\(n)"
        n += 1
      }
      taken.insert(name.lowercased())
      names[key] = name
      return name
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
    try checkNames()
    derived.reset(fields: plan.schema.names)
    let filter = try filterLines()
    // A first pass learns which derived columns (and whether the input order) the statement
    // names; the second writes the stages that compute them.
    var first = SQLStages(source: source, settings: try source.settings(dialect))
    _ = try body(&first)
    let (setup, stages) = try leadingStages(filter: filter)
    var all = stages
    let final = try body(&all)
    return setup + [all.statement(final)]
  }

  private func checkNames() throws(SQLError) {
    let names = plan.schema.names
    if names.isEmpty { throw SQLError("the FILE has no fields to select") }
    if let clash = names.first(where: SQLWriter.isOwnColumn) {
      throw SQLError("the field \(SQLError.shown(clash)) has a name sift gives a column of its own")
    }
  }

  /// The stages every statement starts with: `source` (the reader, and the input order where
  /// the statement reads it), `typed` (the derived columns, where there are any) and, with a
  /// filter, `filtered`.
  private func leadingStages(
    filter: [String]?
  ) throws(SQLError) -> (setup: [String], stages: SQLStages) {
    let relation = try self.relation()
    var stages = SQLStages(source: source, settings: try source.settings(dialect))
    stages.add("source", relation.lines)
    if !derived.nested.isEmpty {
      stages.add("nested", SQLStages.select(adding: try nestedColumns(), from: stages.last))
    }
    let columns = try derivedColumns()
    if !columns.isEmpty {
      stages.add("typed", SQLStages.select(adding: columns, from: stages.last))
    }
    if let filter { stages.add("filtered", ["SELECT *", "FROM \(stages.last)", "WHERE"] + filter) }
    return (relation.setup, stages)
  }

  /// The filter as the lines of a `WHERE`: each term of a filter of several after a comment
  /// naming it (`-- status:received`), joined by `AND`.
  private func filterLines() throws(SQLError) -> [String]? {
    guard let filter = plan.filter else { return nil }
    if case .all(let parts) = filter, case .and(let terms, _)? = plan.query.filter,
      terms.count == parts.count
    {
      var lines: [String] = []
      for (i, (part, term)) in zip(parts, terms).enumerated() {
        let and = i == 0 ? "" : "AND "
        lines += ["  " + SQLComment.line(termText(term)), "  " + and + (try condition(part))]
      }
      return lines
    }
    let text = plan.query.filter.map(termText) ?? ""
    return ["  " + SQLComment.line(text), "  " + (try condition(filter))]
  }

  /// A term of the query as typed, else in canonical form.
  private func termText(_ e: Expr) -> String {
    if let text = queryText {
      let bytes = Array(text.utf8)
      let span = e.span
      if span.start >= 0, span.start < span.end, span.end <= bytes.count {
        return String(decoding: bytes[span.start..<span.end], as: UTF8.self)
      }
    }
    return e.canonicalForm
  }

  /// The feedback bar's counts of a run on an engine, in one row: the records read (`total`),
  /// those that match (`matched`), with aggregates the values left out for not being numbers
  /// or dates (`left_out`, Docs/Aggregates.md) and the groups (`groups`), else 0.
  public func totals() throws(SQLError) -> String {
    try checkNames()
    derived.reset(fields: plan.schema.names)
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
    let (_, stages) = try leadingStages(filter: nil)
    return stages.statement(
      "SELECT count(*) AS total, count(CASE WHEN \(matches) THEN 1 END) AS matched, "
        + (leftOut.isEmpty ? "0" : leftOut.joined(separator: " + "))
        + " AS left_out, \(groups) AS groups"
        + "\nFROM \(stages.last)")
  }

  /// The source's relation, with the input order where the statement reads it, and each
  /// column in its engine type where the dialect reads a typed source (DuckDB, Spark).
  private func relation() throws(SQLError) -> SQLSource.Relation {
    try source.relation(
      dialect, fields: plan.schema.names, row: derived.row ? SQLWriter.row : nil,
      types: dialect.readsTypedColumns ? columnTypes : nil,
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
    try checkNames()
    derived.reset(fields: plan.schema.names)
    let filter = try filterLines()
    let firstGroup = plan.summaryColumns.firstIndex { $0.kind == .group }
    let limited = try limitedGroups()
    var columns = try plan.summaryColumns.enumerated().map { (i, c) throws(SQLError) in
      let name = try dialect.identifier(c.name)
      switch c.kind {
      case .group: return "\(i == firstGroup ? "'Total'" : "''") AS \(name)"
      case .count: return "count(*) AS \(name)"
      case .aggregate(let function):
        return "\(try aggregate(function, c.field!)) AS \(name)"
      }
    }
    let (_, stages) = try leadingStages(filter: filter)
    if let firstGroup, let limited {
      columns[firstGroup] = try totalLabel(limited, from: stages.last) + " AS "
        + dialect.identifier(plan.summaryColumns[firstGroup].name)
    }
    let kept = plan.projection.map { $0.map { columns[$0.index] } } ?? columns
    return stages.statement("SELECT \(kept.joined(separator: ", "))\nFROM \(stages.last)")
  }

  /// Under `limit:` or `limit:N/group`, the count of groups (every combination of the group
  /// fields) and the outer group fields' values, made before the relation so that the derived
  /// columns they read are in it; `nil` without a limit.
  private func limitedGroups() throws(SQLError) -> (groups: String, outer: [String])? {
    guard !plan.group.isEmpty, plan.limit != nil || plan.limitPerGroup != nil else { return nil }
    let outer = plan.limitPerGroup == nil ? [] : try plan.group.dropLast().map {
      (g: ResolvedField) throws(SQLError) in try groupValue(g)
    }
    return ("count(DISTINCT \(try groupCombination()))", outer)
  }

  /// The `Total` row's label under a limit, as sift's own run writes it (Docs/Aggregates.md,
  /// Output): `Total (all 40 groups)` when the limit left groups out (more groups than
  /// `limit:N`, or an outer group with more than N under `limit:N/group`), else `Total`.
  private func totalLabel(
    _ limited: (groups: String, outer: [String]), from: String
  ) throws(SQLError) -> String {
    var leftOut: [String] = []
    if let limit = plan.limit { leftOut.append("\(limited.groups) > \(limit)") }
    if let perGroup = plan.limitPerGroup {
      if limited.outer.isEmpty {
        leftOut.append("\(limited.groups) > \(perGroup)")
      } else {
        // The most groups under one outer group.
        leftOut.append(
          "(SELECT max(sift_k) FROM (SELECT \(limited.groups) AS sift_k\nFROM \(from)"
            + "\nGROUP BY \(limited.outer.joined(separator: ", "))) AS o) > \(perGroup)")
      }
    }
    return dialect.totalLabel(groups: limited.groups, groupsLeftOut: leftOut.joined(separator: " OR "))
  }


  /// The final query of the statement, after the stages it adds to `stages`.
  private func body(_ stages: inout SQLStages) throws(SQLError) -> String {
    switch plan.shape {
    case .count: return "SELECT count(*) AS count\nFROM \(stages.last)"
    case .tally: return try tally(&stages)
    case .summarize: return try summary(&stages)
    case .stream, .order: return try records(&stages)
    }
  }

  /// Whether a name is one of the statement's own columns: `sift_row`, `sift_rank`,
  /// `sift_group` (`sift_group2`…), and the names of DuckDBExactSum's lambda parameters.
  /// (The derived columns take names no field has: Readable statements.)
  static func isOwnColumn(_ name: String) -> Bool {
    if DuckDBExactSum.lambdaNames.contains(name.lowercased()) { return true }
    let lower = Array(name.lowercased().utf8)
    if lower == Array(row.utf8) || lower == Array(rank.utf8) { return true }
    let group = Array("sift_group".utf8)
    if lower.starts(with: group),
      lower[group.count...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    {
      return true
    }
    // A nested field's JSON and value columns (SQLNestedField): `sift_j3`, `sift_v14`.
    guard lower.count > 6, lower.starts(with: Array("sift_".utf8)), Array("jv".utf8).contains(lower[5])
    else { return false }
    return lower[6...].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// The derived columns of the `typed` stage, each after its comment: a field's number, its
  /// date key, DuckDB's exact parts of its number.
  private func derivedColumns() throws(SQLError) -> [[String]] {
    var columns: [[String]] = []
    for i in derived.numbers.sorted() {
      columns.append([
        SQLComment.line("\(slotName(i)) as a number"),
        "\(number(try value(at: i))) AS \(try numberName(i))",
      ])
    }
    for i in derived.dates.sorted() {
      columns.append([
        SQLComment.line("\(slotName(i)) as a date key (YYYYMMDDhhmmssffffff)"),
        "\(try dateKey(try value(at: i))) AS \(try dateKeyName(i))",
      ])
    }
    for i in derived.exactParts.sorted() {
      let v = try value(at: i)
      let canonical = type(at: i) == .text ? withoutSeparators(v) : v
      columns.append([
        SQLComment.line("\(slotName(i)) as exact decimals and units"),
        "\(DuckDBExactSum.parts(ofCanonical: canonical)) AS \(try partsName(i))",
      ])
    }
    return columns
  }

  /// The name of the field at a slot (`slot`): a top-level field's, or a nested field's path.
  private func slotName(_ i: Int) -> String {
    let names = plan.schema.names
    return i < names.count ? names[i] : derived.nested[i - names.count].name
  }

  /// A derived column's name from the field at a slot: a nested path's dots made `_`
  /// (`medals_gold_number`).
  private func slotBase(_ i: Int) -> String {
    String(slotName(i).map { $0 == "." ? "_" : $0 })
  }

  private func numberName(_ i: Int) throws(SQLError) -> String {
    try dialect.identifier(derived.name("n\(i)", base: slotBase(i) + "_number"))
  }

  private func dateKeyName(_ i: Int) throws(SQLError) -> String {
    try dialect.identifier(derived.name("d\(i)", base: slotBase(i) + "_key"))
  }

  private func partsName(_ i: Int) throws(SQLError) -> String {
    try dialect.identifier(derived.name("x\(i)", base: slotBase(i) + "_parts"))
  }

  /// The statements as text, each ended by `;`.
  public func text() throws(SQLError) -> String {
    try statements().map { $0 + ";\n" }.joined()
  }

  // MARK: Records

  private func records(_ stages: inout SQLStages) throws(SQLError) -> String {
    var kept = try (plan.projection ?? plan.schema.names.enumerated().map {
      ResolvedField(index: $0.offset, path: [], name: $0.element)
    }).map { (f: ResolvedField) throws(SQLError) in try output(f) }
    if groupColumn {
      for (g, name) in zip(plan.group, SQLWriter.groupColumns(plan.group.count)) {
        kept.append("\(try groupValue(g)) AS \(name)")
      }
    }
    // Groups in `group:` order: each field typed as `sort:` orders it (descending where a `sort:`
    // key on it says, `Plan.groupDescending`), then by its exact bytes.
    var groups: [SortSection] = []
    for (i, g) in plan.group.enumerated() {
      let descending = plan.groupDescending[i]
      let comment = "group:\(g.name)"
      guard plan.groupBuckets[i] == nil else {
        // A time bucket orders by its label, so its records keep their order inside it.
        let label = try groupValue(g)
        groups.append(SortSection(comment, try sortOrder(label, number(label), try dateKey(label),
          descending: descending) + [dialect.byteOrder(label)]))
        continue
      }
      groups.append(SortSection(comment,
        try fieldOrder(g, descending: descending) + [dialect.byteOrder(try groupValue(g))]))
    }
    var order: [SortSection] = []
    for key in plan.sort {
      let comment = "sort:\(key.descending ? "-" : "")\(key.field.name)"
      order.append(SortSection(comment, try fieldOrder(key.field, descending: key.descending)))
    }
    order.append(SortSection("input order", [inputOrder]))
    let select = "SELECT \(kept.joined(separator: ", "))\n"
    guard let perGroup = plan.limitPerGroup else {
      return select + "FROM \(stages.last)\nORDER BY\n" + SortSection.lines(groups + order) + limit
    }
    // `limit:N/group`: the first N records of each group, numbered in the group's order.
    let partition = try plan.group.map { (g: ResolvedField) throws(SQLError) in try groupValue(g) }
    stages.add("numbered", [
      SQLComment.line("limit:\(perGroup)/group"),
      "SELECT *, ROW_NUMBER() OVER (PARTITION BY \(partition.joined(separator: ", "))"
        + " ORDER BY \(SortSection.inline(order))) AS \(SQLWriter.rank)",
      "FROM \(stages.last)",
    ])
    return select + "FROM \(stages.last)\nWHERE \(SQLWriter.rank) <= \(perGroup)\nORDER BY\n"
      + SortSection.lines(groups + order)
  }

  /// Sort keys after a comment naming what they come from (`sort:-date`, `group:customer`).
  private struct SortSection {
    var comment: String
    var keys: [String]
    init(_ comment: String, _ keys: [String]) {
      self.comment = comment
      self.keys = keys
    }

    /// The keys one a line, each section's after its comment.
    static func lines(_ sections: [SortSection]) -> String {
      let items = sections.flatMap { s in
        s.keys.enumerated().map {
          $0.offset == 0 ? [SQLComment.line(s.comment), $0.element] : [$0.element]
        }
      }
      return SQLStages.list(items).joined(separator: "\n")
    }

    /// The keys on one line, for a window's `ORDER BY`.
    static func inline(_ sections: [SortSection]) -> String {
      sections.flatMap(\.keys).joined(separator: ", ")
    }
  }

  private var limit: String { plan.limit.map { "\nLIMIT \($0)" } ?? "" }

  // MARK: Counts and summaries

  /// `-c` with `group:`: one row per group value (empty and null values are one group), in
  /// group order; with `group:a,b` one per combination, a column per field (`value1`, `value2`).
  private func tally(_ stages: inout SQLStages) throws(SQLError) -> String {
    guard !plan.group.isEmpty else { throw SQLError("a count per group needs group:") }
    for g in plan.group { try requireSQLDates(g) }
    let keys = try plan.group.map { (g: ResolvedField) throws(SQLError) in try groupValue(g) }
    let names = keys.count == 1 ? ["value"] : keys.indices.map { "value\($0 + 1)" }
    // The count of each group as read, named apart from the group fields (`partial`).
    let partialCount = try dialect.identifier(derived.name("c:partial", base: "count"))
    for name in names { derived.taken.insert(name) }
    derived.taken.insert("count")
    let inner = zip(plan.group, zip(keys, names)).map {
      [SQLComment.line("group:\($0.name)"), "\($1.0) AS \($1.1)"]
    }
    // `sort:` over the tally's columns (the group fields, then `count`), then group order. A
    // group value is never NULL.
    var order: [SortSection] = []
    for key in plan.tallySort {
      let comment = "sort:\(key.descending ? "-" : "")\(key.field.name)"
      guard key.field.index < names.count else {
        order.append(SortSection(comment, ["count \(key.descending ? "DESC" : "ASC")"]))
        continue
      }
      let v = names[key.field.index]
      let (n, d) = try resultKeys(v, base: v)
      order.append(SortSection(comment, try sortOrder(v, n, d, descending: key.descending)))
    }
    for (g, name) in zip(plan.group, names) {
      order.append(SortSection("group:\(g.name)", try groupOrder(column: name, base: name)))
    }
    var count = "count(*) AS count"
    if groupsInParts() {
      try addPartialStage(&stages, [["count(*) AS \(partialCount)"]])
      count = "CAST(sum(\(partialCount)) AS BIGINT) AS count"
    }
    stages.add("grouped", ["SELECT"] + SQLStages.list(inner + [[count]])
      + ["FROM \(stages.last)", "GROUP BY \(keys.joined(separator: ", "))"])
    addSummaryStage(&stages, [])
    return "SELECT \(names.joined(separator: ", ")), count\nFROM \(stages.last)\nORDER BY\n"
      + SortSection.lines(order) + limit
  }

  /// The columns computed over the grouped rows (`written`, and the keys the order registered),
  /// as the `summary` stage, where there are any.
  private func addSummaryStage(_ stages: inout SQLStages, _ written: [[String]]) {
    let columns = written + derived.results.map { ["\($0.expression) AS \($0.name)"] }
    if !columns.isEmpty {
      stages.add("summary", SQLStages.select(adding: columns, from: stages.last))
    }
  }

  /// A number and a date key of a grouped row's `v`, computed once in the `summary` stage as
  /// `base_number` and `base_key`.
  private func resultKeys(_ v: String, base: String) throws(SQLError) -> (n: String, d: String) {
    var out: [String] = []
    for (kind, expression) in [("number", number(v)), ("key", try dateKey(v))] {
      let key = "r:\(kind):\(base)"
      let known = derived.names[key] != nil
      let name = try dialect.identifier(derived.name(key, base: base + "_" + kind))
      if !known { derived.results.append((name, expression)) }
      out.append(name)
    }
    return (out[0], out[1])
  }

  /// Aggregates (Docs/Aggregates.md): one summary row per group, or one for the whole result.
  private func summary(_ stages: inout SQLStages) throws(SQLError) -> String {
    let columns = plan.summaryColumns
    for g in plan.group { try requireSQLDates(g) }
    for key in plan.sort { if let f = columns[key.field.index].field { try requireSQLDates(f) } }
    // Each column's name in the stages: its own, made unique ignoring case. ClickHouse reads an
    // alias wherever its name is written in the same query, so there it is no field's name.
    var seen: Set<String> = [SQLWriter.row, SQLWriter.rank]
    if dialect == .clickhouse { seen.formUnion(plan.schema.names.map { $0.lowercased() }) }
    let names = columns.map { c in
      var name = c.name
      var n = 2
      while seen.contains(name.lowercased()) {
        name = c.name + "_\(n)"
        n += 1
      }
      seen.insert(name.lowercased())
      return name
    }
    derived.taken.formUnion(seen)
    let ids = try names.map { (n: String) throws(SQLError) in try dialect.identifier(n) }
    var grouped: [[String]] = []
    var written: [[String]] = []
    var totalColumns: [String: String] = [:]
    let inParts = groupsInParts(columns)
    var partial: [[String]] = []
    for (i, c) in columns.enumerated() {
      switch c.kind {
      case .group:
        grouped.append(
          [SQLComment.line("group:\(c.field!.name)"), "\(try groupValue(c.field!)) AS \(ids[i])"])
      case .count:
        if inParts {
          partial.append(["count(*) AS \(ids[i])"])
          grouped.append(["CAST(sum(\(ids[i])) AS BIGINT) AS \(ids[i])"])
        } else {
          grouped.append(["count(*) AS \(ids[i])"])
        }
      case .aggregate(let function):
        let field = c.field!
        let term = "\(function.name):\(field.name)"
        if inParts {
          // Each total once, its parts summed per group as read, merged per group.
          let total = try duckDBTotal(field)
          let name: String
          if let known = totalColumns[total.overRows] {
            name = known
          } else {
            name = try dialect.identifier(
              derived.name("t:\(total.overRows)", base: "\(field.name)_total"))
            totalColumns[total.overRows] = name
            var merged: [String] = []
            for (k, part) in total.parts.enumerated() {
              let partName = try dialect.identifier(
                derived.name("p:\(part.aggregate)", base: "\(field.name)_\(part.what)"))
              let comment = k == 0 ? [SQLComment.line("the parts of the total of \(field.name)")] : []
              partial.append(comment + ["\(part.aggregate) AS \(partName)"])
              merged.append("\(part.merge)(\(partName))")
            }
            grouped.append(
              [SQLComment.line("the total of \(field.name)"), "\(total.made(merged)) AS \(name)"])
          }
          let text = try sumWritten(function, field) { $0 == "total" ? name : "NULL" }
          written.append([SQLComment.line(term), "\(text) AS \(ids[i])"])
        } else if let totals = try sumTotals(function, field) {
          // Each total once, shared where a field's sum and mean have the same.
          var named: [String: String] = [:]
          for (what, expression) in totals {
            if let known = totalColumns[expression] {
              named[what] = known
              continue
            }
            let name = try dialect.identifier(
              derived.name("t:\(expression)", base: "\(field.name)_\(what)"))
            totalColumns[expression] = name
            named[what] = name
            grouped.append(
              [SQLComment.line("the \(what) of \(field.name)"), "\(expression) AS \(name)"])
          }
          let text = try sumWritten(function, field) { named[$0] ?? "NULL" }
          written.append([SQLComment.line(term), "\(text) AS \(ids[i])"])
        } else {
          grouped.append([SQLComment.line(term), "\(try aggregate(function, field)) AS \(ids[i])"])
        }
      }
    }
    let keys = try plan.group.map { (g: ResolvedField) throws(SQLError) in try groupValue(g) }
    let outputs = try zip(ids, columns).map { (id: String, c: SummaryColumn) throws(SQLError) in
      let name = try dialect.identifier(c.name)
      return id == name ? id : "\(id) AS \(name)"
    }
    let kept = plan.projection.map { $0.map { outputs[$0.index] } } ?? outputs
    var order: [SortSection] = []
    for key in plan.sort {
      let c = columns[key.field.index]
      let column = ids[key.field.index]
      let comment = "sort:\(key.descending ? "-" : "")\(c.name)"
      if c.kind == .group || ((c.function == .min || c.function == .max)
        && plan.type(of: c.field!) != .number)
      {
        let v = "coalesce(\(column), '')"
        let (n, d) = try resultKeys(v, base: names[key.field.index])
        order.append(SortSection(comment, try sortOrder(v, n, d, descending: key.descending)))
      } else {
        // Sums, means and percentiles are text written as sift writes them (Trino: numbers).
        // An overflow's `inf`, `-inf` or `nan` is text to sift's sort, as when read back
        // (Docs/Aggregates.md, Overflow): after the numbers, in text order, before the empty.
        let text = dialect == .clickhouse ? "toString(\(column))" : "CAST(\(column) AS \(dialect.text))"
        let overflow = "\(text) IN ('inf', '-inf', 'nan')"
        let cast: String
        switch dialect {
        case .duckdb: cast = "TRY_CAST(\(column) AS DOUBLE)"
        case .postgres: cast = "CAST(\(column) AS DOUBLE PRECISION)"
        case .clickhouse: cast = "toFloat64OrNull(toString(\(column)))"
        case .spark: cast = "CAST(\(column) AS DOUBLE)"
        case .trino: cast = column
        }
        let number = dialect == .trino ? cast : "(CASE WHEN \(overflow) THEN NULL ELSE \(cast) END)"
        let direction = key.descending ? "DESC" : "ASC"
        var keys = ["\(number) \(direction) NULLS LAST"]
        // Sums and means that tie as doubles, by their exact value (ExactNumberOrder).
        if dialect != .trino {
          let exact = try ExactNumberOrder.key(dialect, value: text, canonical: text, number: number)
          keys.append("\(exact) \(direction) NULLS LAST")
          keys.append(
            "CASE WHEN \(overflow) THEN \(dialect.byteOrder(text)) END \(direction) NULLS LAST")
        }
        order.append(SortSection(comment, keys))
      }
    }
    // The group columns are the first ones.
    var groups: [SortSection] = []
    for (i, g) in plan.group.enumerated() {
      groups.append(SortSection("group:\(g.name)", try groupOrder(column: ids[i], base: names[i])))
    }
    if inParts { try addPartialStage(&stages, partial) }
    stages.add("grouped", ["SELECT"] + SQLStages.list(grouped) + ["FROM \(stages.last)"]
      + (keys.isEmpty ? [] : ["GROUP BY \(keys.joined(separator: ", "))"]))
    addSummaryStage(&stages, written)
    let select = "SELECT \(kept.joined(separator: ", "))\nFROM "
    guard let perGroup = plan.limitPerGroup else {
      let ordered = (order + groups).isEmpty
        ? "" : "\nORDER BY\n" + SortSection.lines(order + groups)
      return select + stages.last + ordered + limit
    }
    // `limit:N/group`: the first N rows of each value of the outer group fields (all but the
    // last), in outer group order (Docs/Aggregates.md).
    let outerColumns = Array(ids.prefix(max(plan.group.count - 1, 0)))
    var outerOrder: [SortSection] = []
    for (i, column) in outerColumns.enumerated() {
      let keys = try groupOrder(column: column, base: names[i])
      outerOrder.append(SortSection("group:\(plan.group[i].name)", keys))
    }
    // The keys the order registers are computed in `summary`, before `numbered`.
    let rowOrder = SortSection.inline(order + groups)
    let finalOrder = SortSection.lines(outerOrder + order + groups)
    stages.add("numbered", [
      SQLComment.line("limit:\(perGroup)/group"),
      "SELECT *, ROW_NUMBER() OVER (PARTITION BY \(outerColumns.joined(separator: ", "))"
        + " ORDER BY \(rowOrder)) AS \(SQLWriter.rank)",
      "FROM \(stages.last)",
    ])
    return select + stages.last + "\nWHERE \(SQLWriter.rank) <= \(perGroup)\nORDER BY\n"
      + finalOrder
  }


  /// One aggregate over a group's values; empty values and values not of the kind it needs are
  /// left out.
  private func aggregate(_ function: AggregateFunction, _ field: ResolvedField) throws(SQLError) -> String {
    let v = try value(field)
    // The number, named only where it is read: an unread derived column would still be written.
    let number = { () throws(SQLError) -> String in try self.number(of: field) }
    switch function {
    case .sum, .avg:
      if let totals = try sumTotals(function, field) {
        return try sumWritten(function, field) { what in
          totals.first { $0.what == what }?.expression ?? "NULL"
        }
      }
      switch dialect {
      case .duckdb, .clickhouse, .spark:
        throw SQLError("\(dialect.rawValue) sums are written from sumTotals")
      case .postgres: return exactNumeric(function, v, try number())
      case .trino: return "\(function == .sum ? "sum" : "avg")(\(try number()))"
      }
    case .distinct: return "count(DISTINCT CASE WHEN NOT \(try isEmpty(field)) THEN \(v) END)"
    case .min, .max:
      let largest = function == .max
      let key: String
      let byNumber = plan.type(of: field) == .number
      switch plan.type(of: field) {
      case .number: key = try number()
      case .date, .dateTime: key = try dateKey(of: field)
      default: key = "CASE WHEN NOT \(try isEmpty(field)) THEN \(dialect.byteOrder(dialect.lower(v))) END"
      }
      // The first value of the smallest (largest) key, ties in input order; a decimal-comma
      // number is written as sift writes summaries (Docs/Formats.md, Decimal commas).
      let canonical = plan.decimalMark == .comma && byNumber && type(of: field) == .text
      let v = canonical ? withoutSeparators(v) : v
      let exact = byNumber ? try exactKey(field) : nil
      if let pick = ordered(
        v, by: key, exact: exact, descending: largest, percentile: nil, negatable: byNumber)
      {
        return pick
      }
      return "\(dialect.valueAtExtreme(largest: largest))(CASE WHEN \(key) IS NOT NULL THEN \(v) END, \(key))"
    case .median, .percentile:
      // The ⌈p/100 · n⌉-th smallest number, ties in input order, written as read.
      let p = function.percentile!
      let read = type(of: field) == .text ? withoutSeparators(v) : v
      guard
        let pick = ordered(
          read, by: try number(), exact: try exactKey(field), descending: false, percentile: p,
          negatable: true)
      else {
        throw cannot("\(function.name):\(field.name) (an exact nearest-rank percentile)")
      }
      return pick
    }
  }

  /// The totals DuckDB's, Spark's and ClickHouse's exact `sum:` and `avg:` are written from
  /// (`sumWritten`), each named by what it is (`total`, `count`, `places`…): a statement computes
  /// each once, as a column of its grouped rows, shared by a field's sum and mean where they
  /// are the same (Docs/Engines.md, Readable statements). `nil` for another dialect or function.
  private func sumTotals(
    _ function: AggregateFunction, _ field: ResolvedField
  ) throws(SQLError) -> [(what: String, expression: String)]? {
    guard function == .sum || function == .avg else { return nil }
    switch dialect {
    case .duckdb: return [("total", try duckDBTotal(field).overRows)]
    case .spark, .clickhouse:
      if dialect == .spark,
        let typed = ExactSumGuard.sparkTypedTotals(column: try column(field), type: type(of: field))
      {
        return typed
      }
      let v = try value(field)
      return try ExactSumGuard.totals(
        dialect, mean: function == .avg, value: v, canonical: withoutSeparators(v),
        number: try number(of: field), field: field.name)
    case .postgres, .trino: return nil
    }
  }

  /// DuckDB's exact total of a field's numbers (DuckDBExactSum), by the field's engine type.
  private func duckDBTotal(_ field: ResolvedField) throws(SQLError) -> DuckDBExactSum.Total {
    switch type(of: field) {
    case .integer: return DuckDBExactSum.total(column: try column(field), scale: 0)
    case .decimal(let scale): return DuckDBExactSum.total(column: try column(field), scale: scale)
    case .double: return DuckDBExactSum.total(double: try column(field))
    case .text, .other, .date, .timestamp, .timestampWithZone:
      let v = try value(field)
      let n = try number(of: field)
      derived.exactParts.insert(slot(field))
      let parts = try partsName(slot(field))
      return DuckDBExactSum.total(value: v, number: n, parts: parts)
    }
  }

  /// Whether groups are made in two steps (Docs/Engines.md, Readable statements): `partial`
  /// groups the fields as read, which DuckDB does from a Parquet file's dictionary, and
  /// `grouped` folds empty values and null tokens into one group after, merging each column.
  /// On DuckDB, without time buckets, where every column merges: a group value, the count, an
  /// exact sum or mean (`columns`; a tally has no other).
  private func groupsInParts(_ columns: [SummaryColumn] = []) -> Bool {
    guard dialect == .duckdb, !plan.group.isEmpty, plan.groupBuckets.allSatisfy({ $0 == nil })
    else { return false }
    return columns.allSatisfy { c in
      switch c.kind {
      case .group, .count: return true
      case .aggregate(let function): return function == .sum || function == .avg
      }
    }
  }

  /// The `partial` stage (`groupsInParts`): the group fields as read, each once, and `columns`,
  /// from the stage before.
  private func addPartialStage(_ stages: inout SQLStages, _ columns: [[String]]) throws(SQLError) {
    var read: [String] = []
    var items: [[String]] = []
    for g in plan.group {
      let c = try column(g)
      if read.contains(c) { continue }
      read.append(c)
      items.append([SQLComment.line("group:\(g.name), as read"), c])
    }
    stages.add("partial", ["SELECT"] + SQLStages.list(items + columns)
      + ["FROM \(stages.last)", "GROUP BY \(read.joined(separator: ", "))"])
  }

  /// The text of a sum or mean from its `sumTotals`, each read through `column` by what it is.
  private func sumWritten(
    _ function: AggregateFunction, _ field: ResolvedField, _ column: (String) -> String
  ) throws(SQLError) -> String {
    switch dialect {
    case .duckdb: return DuckDBExactSum.written(column("total"), mean: function == .avg)
    case .spark, .clickhouse:
      return try ExactSumGuard.written(dialect, mean: function == .avg, field: field.name, column)
    case .postgres, .trino: throw SQLError("\(dialect.rawValue) sums have no totals")
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
  /// ordered aggregate, where the dialect has one. `negatable`: the key is a number, which
  /// ClickHouse and Spark negate to put the largest first.
  private func ordered(
    _ v: String, by key: String, exact: String?, descending: Bool, percentile: Int?, negatable: Bool
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
      if descending && !negatable { return nil }
      let exactly = exact.map { "\(negated)\($0), " } ?? ""
      return "tupleElement(arrayElement(arraySort(groupArrayIf((\(negated)\(key), \(exactly)"
        + "\(inputOrder), \(v)), \(key) IS NOT NULL)), \(rank { "intDiv(\($0), \($1))" })), "
        + "\(exact == nil ? 3 : 4))"
    case .spark:
      // Structs sort field by field; only a number key can be negated for a largest first.
      if descending && !negatable { return nil }
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
      // The numbers (NULL for the rest), then `nan` and infinities as text, then NULL: each
      // key is NULL where the one before it orders the row, so no class key is needed.
      return ["\(try number(of: field)) \(direction) NULLS LAST",
        "CASE WHEN NOT \(dialect.isFinite(c)) THEN \(try value(field)) END \(direction) NULLS LAST"]
    case .text, .other:
      return try sortOrder(
        try value(field), try number(of: field), try dateKey(of: field), descending: descending)
    }
  }

  /// Groups in `group:` order by a column of a grouped result (its values already the groups',
  /// never NULL), its keys computed once in the `summary` stage as `base_number`, `base_key`.
  private func groupOrder(column v: String, base: String) throws(SQLError) -> [String] {
    let (n, d) = try resultKeys(v, base: base)
    return try sortOrder(v, n, d, descending: false) + [dialect.byteOrder(v)]
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
      // A nested path that reaches no value is missing, as a top-level field is (Docs/Engines.md,
      // Nested fields).
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
    return "(\(compare(c)) AND \(dialect.isFinite(c)))"
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
    guard dialect.readsTypedColumns, let types = columnTypes, index < types.count else { return .text }
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
    case .double: return "(CASE WHEN \(dialect.isFinite(c)) THEN \(c) END)"
    case .date, .timestamp, .timestampWithZone: return "NULL"
    case .text, .other:
      derived.numbers.insert(slot(field))
      return try numberName(slot(field))
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
      return try dateKeyName(slot(field))
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
      return try dialect.beyondEveryTime(later: d.count > 20, date: type == .date)
    }
    let date = String(d[0..<4]) + "-" + String(d[4..<6]) + "-" + String(d[6..<8])
    if type == .date && shifted % Calendar.microsPerDay == 0 { return "DATE '\(date)'" }
    let time = date + " " + String(d[8..<10]) + ":" + String(d[10..<12]) + ":" + String(d[12..<14])
      + "." + String(d[14..<20])
    return dialect.timestampLiteral(time, inUTC: type == .timestampWithZone)
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
    let value = dialect.output(c, type: type(of: field))
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

  /// A column per nested field the statement reads (`sift_v7`), each after a comment naming
  /// it: the `nested` stage, below the derived columns that read them.
  private func nestedColumns() throws(SQLError) -> [[String]] {
    let names = plan.schema.names.count
    return try derived.nested.enumerated().map { (i, f) throws(SQLError) in
      [SQLComment.line(f.name), "\(try nestedValue(f)) AS \(SQLNestedField.valueColumn(names + i))"]
    }
  }

  /// Whether the field is empty: a typed column's NULL, else `isEmpty` of its text.
  private func isEmpty(_ field: ResolvedField) throws(SQLError) -> String {
    type(of: field) == .text ? isEmpty(try value(field)) : "(\(try column(field)) IS NULL)"
  }

  /// Whether the value is empty or a null token (`NA`, `N/A`, `null`, `None`, `-`, any case).
  /// An empty JSON array or object counts as empty too. No token is longer than 4 characters
  /// (bytes, on ClickHouse: the tokens are ASCII), so `lower` runs on short values only
  /// (Docs/Engines.md, Measured).
  private func isEmpty(_ v: String) -> String {
    let containers = source.nullIsMissing ? ", '[]', '{}'" : ""
    return "(length(\(v)) <= 4 AND \(dialect.lower(v)) IN ('', 'na', 'n/a', 'null', 'none', '-'\(containers)))"
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
