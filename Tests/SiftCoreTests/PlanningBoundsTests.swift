import Testing

@testable import SiftCore

/// Planning costs grow with the query and the fields, not with their product (Docs/Performance.md,
/// Bounds). Each case is sized so that the quadratic code it replaced takes minutes even in a
/// release build, while the linear code takes well under a second in a debug one; the bound is
/// generous, so a busy machine does not fail it, and each case also checks the answer.
@Suite(.serialized) struct PlanningBoundsTests {
  static let bound = Duration.seconds(30)

  func timed<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = try body()
    return (result, clock.now - start)
  }

  @Test func aTermOfManyTextsIsOneTestAndPlansInLinearTime() throws {
    // 13.4 s for 60,000 values before (every value copied the texts gathered so far).
    let count = 150_000
    let query = try Parser.parse("name:" + (0..<count).map { "n\($0)" }.joined(separator: ","))
    let (plan, took) = try timed {
      try Plan(query: query, schema: Schema(names: ["name"]), now: 0) { _ in .text }
    }
    guard case .field(_, let tests)? = plan.filter, tests.count == 1, case .textIn(let texts) = tests[0]
    else {
      Issue.record("expected one textIn test")
      return
    }
    #expect(texts.count == count)
    #expect(texts.last == "n\(count - 1)")
    #expect(took < Self.bound)
  }

  @Test(arguments: [3, 16, 17, 40])
  func aTermOfManyTextsMatchesAsAFewDo(count: Int) {
    // Past `manyTexts` values are looked up in a set: the same answers, case folded alike.
    let texts = (0..<count).map { "Wert\($0)" } + ["Müller", ""]
    let test = ValueTests.textEquals(anyOf: texts)
    let cases: [(String, Bool)] = [
      ("wert0", true), ("WERT\(count - 1)", true), ("wert\(count)", false), ("MÜLLER", true),
      ("müller ", false), ("", true), ("Wert", false),
    ]
    for (value, expected) in cases {
      let bytes = Array(value.utf8)
      let matched = bytes.withUnsafeBufferPointer { test(FieldValue(raw: $0, encoding: .csv)) }
      #expect(matched == expected, "\(value)")
    }
  }

  @Test func manyNamesOverManyFieldsResolveInLinearTime() throws {
    // 20,000 names over 20,000 fields: each name was compared with every field, three ways.
    let names = (0..<20_000).map { "Field_\($0)" }
    let resolver = FieldResolver(schema: Schema(names: names))
    let (fields, took) = try timed {
      try names.indices.map { i throws(PlanError) in
        // Every third by its normalized spelling, every other by case.
        let written = i % 3 == 0 ? "field\(i)" : i % 2 == 0 ? "FIELD_\(i)" : names[i]
        return try resolver.resolve(FieldName(written, span: Span(0, 0)))
      }
    }
    #expect(fields.map(\.index) == Array(names.indices))
    #expect(took < Self.bound)
  }

  @Test func resolvingStillFindsNestedPathsAndAmbiguity() throws {
    let schema = Schema(names: ["customer", "Code", "code"], nestedPaths: [0: ["name", "id"]])
    let resolver = FieldResolver(schema: schema)
    let nested = try resolver.resolve(FieldName("Customer.ID", span: Span(0, 0)))
    #expect(nested == ResolvedField(index: 0, path: ["id"], name: "customer.id"))
    #expect(try resolver.resolve(FieldName("code", span: Span(0, 0))).index == 2)
    #expect(throws: PlanError.self) { try resolver.resolve(FieldName("CODE", span: Span(0, 0))) }
  }

  @Test func manyGroupAndSortFieldsPlanInLinearTime() throws {
    let names = (0..<20_000).map { "c\($0)" }
    let query = try Parser.parse("group:" + names.joined(separator: ","))
    let (plan, took) = try timed {
      try Plan(query: query, schema: Schema(names: names), now: 0, intent: .count) { _ in .text }
    }
    #expect(plan.group.count == names.count)
    #expect(took < Self.bound)
    #expect(throws: QueryError.self) { try Parser.parse("group:" + names.joined(separator: ",") + ",C_0") }
  }

  @Test func aViewsFileOfManyViewsReadsInLinearTime() throws {
    // 22.7 s for 100,000 views before: each name was looked for among the views before it.
    let count = 100_000
    let body = (0..<count).map { "\"v\($0)\": {\"source\": \"a.csv\"}" }.joined(separator: ",")
    let bytes = Array("{\"views\": {\(body)}}".utf8)
    let (file, took) = try timed { try ViewsFile.parse(bytes, path: "sift.json") }
    #expect(file.views.count == count)
    #expect(file.views.last?.name == "v\(count - 1)")
    #expect(took < Self.bound)
    let twice = Array("{\"views\": {\"a\": {}, \"b\": {}, \"a\": {}}}".utf8)
    #expect(throws: ViewsFileError.self) { try ViewsFile.parse(twice, path: "sift.json") }
  }
}
