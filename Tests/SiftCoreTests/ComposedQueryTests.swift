import Testing

@testable import SiftCore

/// A view's preset query AND the given query, with the default sort (Docs/Views.md, Running a view; Docs/Views.md, Reset).
@Suite struct ComposedQueryTests {
  func view(query: String = "", sort: String? = "-date") throws -> View {
    var body = "\"query\": \"\(query)\""
    if let sort { body += ", \"sort\": \"\(sort)\"" }
    let file = try ViewsFile.parse(Array("{\"views\": {\"v\": {\(body)}}}".utf8), path: "v.json")
    return try #require(file.views.first)
  }

  func compose(_ given: String, preset: String = "", sort: String? = "-date", reset: Bool = false)
    throws -> ComposedQuery
  {
    try view(query: preset, sort: sort).compose(
      given: try Parser.parse(given), text: given, reset: reset)
  }

  @Test func presetFiltersComeFirstThenTheGivenOnes() throws {
    let c = try compose("customer:acme", preset: "status:pending")
    #expect(
      c.query.canonicalForm == "(status = \"pending\") AND (customer = \"acme\") sort: date desc")
  }

  @Test func theGivenDirectivesWin() throws {
    let c = try compose(
      "sort:grn_no limit:5", preset: "status:pending sort:qty limit:2 group:warehouse")
    #expect(
      c.query.canonicalForm
        == "(status = \"pending\") sort: grn_no asc group: warehouse limit: 5")
  }

  @Test func resetDropsThePresetButKeepsTheDefaultSort() throws {
    let c = try compose("", preset: "status:pending", reset: true)
    #expect(c.query.canonicalForm == "sort: date desc")
  }

  @Test func groupingByTheDefaultSortFieldDropsThatKey() throws {
    #expect(
      try compose("group:Date", sort: "-date,grn_no").query.canonicalForm
        == "sort: grn_no asc group: Date")
  }

  /// Docs/Views.md, Running a view: a summary's rows are in group order, so a query with
  /// aggregates (in the given query or the preset) drops the default sort whole.
  @Test(arguments: ["group:warehouse sum:qty,amount", "avg:qty", "status:pending group:customer p75:qty"])
  func aggregatesDropTheDefaultSort(given: String) throws {
    let c = try compose(given, sort: "-date,grn_no")
    #expect(c.query.sort.isEmpty)
    #expect(c.parts.allSatisfy { $0.key != "sort" })
    #expect(try compose("", preset: given, sort: "-date").query.sort.isEmpty)
    #expect(try compose(given + " sort:-count", sort: "-date").query.sort.map(\.field.name) == ["count"])
  }

  @Test func spansAreTracedBackToTheirOwnText() throws {
    let c = try compose("customer:acme", preset: "status:pending")
    let filters = c.query.topLevelFilters
    let preset = try #require(c.locate(filters[0].span))
    #expect(preset.part.key == "query")
    #expect(preset.span == Span(0, 14))
    let given = try #require(c.locate(filters[1].span))
    #expect(given.part.key == "")
    #expect(given.part.text == "customer:acme")
    #expect(given.span == Span(0, 13))
    let sort = try #require(c.locate(c.query.sort[0].field.span))
    #expect(sort.part.key == "sort")
    #expect(sort.part.text == "sort:-date")
    #expect(sort.span == Span(6, 10))
  }

  @Test func badgeCountsWithinThePresetQuery() throws {
    let file = try ViewsFile.parse(
      Array(
        #"{"views": {"v": {"source": "a.csv", "query": "qty:>1", "badge": "status:new"}}}"#.utf8),
      path: "v.json")
    let view = try #require(file.views.first)
    let badge = try #require(view.badgeQuery())
    #expect(badge.query.canonicalForm == "(qty > 1) AND (status = \"new\")")
  }
}
