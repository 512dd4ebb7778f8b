import Testing

@testable import SiftCore

/// The typed plan (Docs/Architecture.md, Plan): each value of the query is read once, for its
/// field's type, into the test the closures and `--explain` are made from.
@Suite struct PlanTypingTests {
  static let schema = Schema(names: ["status", "qty", "date", "empty_stock", "note"])
  static let types: [String: ColumnType] = [
    "status": .text, "qty": .number, "date": .date, "empty_stock": .boolean, "note": .text,
  ]
  /// 2024-06-12 10:00.
  static let now =
    WallTime(Calendar.days(year: 2024, month: 6, day: 12)) * Calendar.microsPerDay
    + 10 * 3_600_000_000

  func plan(_ query: String) throws -> Plan {
    try Plan(query: try Parser.parse(query), schema: Self.schema, now: Self.now) {
      Self.types[$0.name] ?? .text
    }
  }

  /// The typed filter as a short outline: `field[test; test]`.
  func outline(_ query: String) throws -> String {
    func day(_ t: WallTime) -> String {
      let (y, m, d) = Calendar.civil(fromDays: Int(t / Calendar.microsPerDay))
      return "\(y)-\(m)-\(d)"
    }
    func test(_ t: TypedTest) -> String {
      switch t {
      case .textIn(let texts): return "text in \(texts)"
      case .numberEquals(let n, let text): return "number = \(n.value) or text \(text)"
      case .inPeriod(let p, let text, let word):
        return "in \(day(p.start))..<\(day(p.end))" + (text.map { " or text \($0)" } ?? "")
          + (word.map { " from \($0)" } ?? "")
      case .switchIs(let on): return on ? "on" : "off"
      case .numberCompare(let op, let n): return "number \(op.rawValue) \(n.value)"
      case .dateCompare(let op, let p): return "date \(op.rawValue) \(day(p.start))"
      case .textCompare(let op, let text): return "text \(op.rawValue) \(text)"
      case .numberRange(let a, let b): return "number \(a.map { "\($0.value)" } ?? "*")..\(b.map { "\($0.value)" } ?? "*")"
      case .dateRange(let a, let b):
        return "date \(a.map { day($0.start) } ?? "*")..<\(b.map { day($0.end) } ?? "*")"
      case .textRange(let a, let b): return "text \(a ?? "*")..\(b ?? "*")"
      case .glob(let p): return "glob \(p)"
      case .regex(let p, let ci, _): return "regex \(p)\(ci ? " ci" : "")"
      case .empty: return "empty"
      case .present: return "present"
      }
    }
    func walk(_ f: TypedFilter) -> String {
      switch f {
      case .all(let parts): return "all(" + parts.map(walk).joined(separator: ", ") + ")"
      case .any(let parts): return "any(" + parts.map(walk).joined(separator: ", ") + ")"
      case .not(let inner): return "not(" + walk(inner) + ")"
      case .field(let field, let tests): return field.name + "[" + tests.map(test).joined(separator: "; ") + "]"
      case .anyFieldContains(let text): return "contains \(text)"
      }
    }
    return try plan(query).filter.map(walk) ?? "everything"
  }

  @Test(arguments: [
    ("status:received,pending", "status[text in [\"received\", \"pending\"]]"),
    ("qty:10", "qty[number = 10.0 or text 10]"),
    ("qty:\"10\"", "qty[text in [\"10\"]]"),
    ("qty:>=10", "qty[number >= 10.0]"),
    ("qty:1..5", "qty[number 1.0..5.0]"),
    ("qty:*..5", "qty[number *..5.0]"),
    ("date:2024-03", "date[in 2024-3-1..<2024-4-1 or text 2024-03]"),
    ("date:2024", "date[in 2024-1-1..<2025-1-1 or text 2024]"),
    ("note:2024", "note[number = 2024.0 or text 2024]"),
    ("date:today", "date[in 2024-6-12..<2024-6-13 from today]"),
    ("date:<2024-03", "date[date < 2024-3-1]"),
    ("date:2024-01..2024-03", "date[date 2024-1-1..<2024-4-1]"),
    ("empty_stock:yes", "empty_stock[on]"),
    ("empty_stock:\"yes\"", "empty_stock[text in [\"yes\"]]"),
    ("status:m..p", "status[text m..p]"),
    ("status:>m", "status[text > m]"),
    ("status:rec*", "status[glob rec*]"),
    ("status:/rec/i", "status[regex rec ci]"),
    ("note:\"\"", "note[empty]"),
    ("has:note", "note[present]"),
    ("status:a,>b,c", "status[text in [\"a\"]; text > b; text in [\"c\"]]"),
    ("-status:a (qty:1 OR widget)", "all(not(status[text in [\"a\"]]), any(qty[number = 1.0 or text 1], contains widget))"),
    ("sort:-qty", "everything"),
  ])
  func eachValueIsReadOnceForItsFieldsType(query: String, typed: String) throws {
    #expect(try outline(query) == typed)
  }

  @Test func directivesAreDataInQueryOrderOfKinds() throws {
    let p = try plan("status:a limit:3 fields:-note group:status sort:-qty")
    #expect(p.sort == [SortOrder(field: p.fields.values.first { $0.name == "qty" }!, descending: true)])
    #expect(p.group.map(\.name) == ["status"])
    #expect(p.limit == 3)
    #expect(p.projection?.map(\.name) == ["status", "qty", "date", "empty_stock"])
    #expect(p.directives.count == 4)
  }

  @Test(arguments: [
    ("status:a", false, ExecutionShape.stream),
    ("status:a limit:3", false, .stream),
    ("sort:qty", false, .order),
    ("group:status", false, .order),
    ("status:a", true, .count),
    ("group:status sort:qty", true, .tally),
  ])
  func theShapeFollowsTheDirectivesAndCounting(query: String, forCount: Bool, shape: ExecutionShape) throws {
    let planned = try Plan(
      query: try Parser.parse(query), schema: Self.schema, now: Self.now,
      intent: forCount ? .count : .records
    ) { Self.types[$0.name] ?? .text }
    #expect(planned.shape == shape)
  }

  /// A plain count (no filter, group or aggregate) reads no field, so its plan asks the sample
  /// for the types of the fields its directives name only; a count with a filter, a group or an
  /// aggregate, and a plan for the records, type every top-level field, as the writers and the
  /// fast filters read them (Docs/Performance.md, A count typed for what it reads).
  @Test(arguments: [
    ("", Plan.Intent.count, [String]()),
    ("sort:qty limit:3", .count, ["qty"]),
    ("status:a", .count, ["date", "empty_stock", "note", "qty", "status"]),
    ("group:status", .count, ["date", "empty_stock", "note", "qty", "status"]),
    ("sum:qty", .count, ["date", "empty_stock", "note", "qty", "status"]),
    ("", .records, ["date", "empty_stock", "note", "qty", "status"]),
  ])
  func aPlainCountTypesOnlyTheFieldsItNames(
    query: String, intent: Plan.Intent, typed: [String]
  ) throws {
    var asked = Set<String>()
    let planned = try Plan(
      query: try Parser.parse(query), schema: Self.schema, now: Self.now, intent: intent
    ) {
      asked.insert($0.name)
      return Self.types[$0.name] ?? .text
    }
    #expect(asked.sorted() == typed)
    #expect(planned.types.keys.map(\.name).sorted() == typed)
  }

  /// `-c group:` (a plan made for a count): a `sort:` naming only the tally's columns (the group
  /// fields, `count`) orders the counts; one naming the input's fields leaves them alone, and a
  /// plan made for the records reads `count` as a field.
  @Test func aCountPerGroupSortsByItsColumns() throws {
    let query = try Parser.parse("group:status,qty sort:-count limit:2")
    let counted = try Plan(query: query, schema: Self.schema, now: Self.now, intent: .count) {
      Self.types[$0.name] ?? .text
    }
    #expect(counted.tallyColumns.map(\.name) == ["status", "qty", "count"])
    #expect(counted.tallySort.map(\.field.index) == [2])
    #expect(counted.tallySort.map(\.descending) == [true])
    #expect(counted.limit == 2)
    #expect(throws: PlanError.self) { try plan("group:status sort:-count") }
    let byField = try Plan(
      query: try Parser.parse("group:status sort:-qty"), schema: Self.schema, now: Self.now, intent: .count
    ) { Self.types[$0.name] ?? .text }
    #expect(byField.tallySort.isEmpty)
    #expect(byField.sort.map(\.field.name) == ["qty"])
  }

  @Test func aBadRegexIsAnErrorWhileThePlanIsMadeNotWhenCompiled() throws {
    #expect(throws: PlanError.self) { try plan("status:/a(/") }
  }
}
