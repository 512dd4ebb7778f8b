import Testing

@testable import SiftCore

/// Which fast filters a query applies, and how the others show in the bar (Docs/FeedbackBar.md; Docs/Views.md, The views file).
@Suite struct FastFilterTests {
  static let schema = Schema(names: ["grn_no", "status", "customer", "empty_stock", "updated"])
  /// 2024-06-12 10:00.
  static let now =
    WallTime(Calendar.days(year: 2024, month: 6, day: 12)) * Calendar.microsPerDay
    + 10 * 3_600_000_000

  func fastFilters(_ texts: [String]) throws -> [FastFilter] {
    let json =
      "{\"views\": {\"v\": {\"fastFilters\": [" + texts.map { "\"\($0)\"" }.joined(separator: ", ")
      + "]}}}"
    return try #require(try ViewsFile.parse(Array(json.utf8), path: "v.json").views.first)
      .fastFilters
  }

  /// The bar's filter chips as plain captions: active `[…]` in query order, then inactive `(…)`.
  func chips(_ query: String, _ fast: [String], labels: [String: String] = [:]) throws -> [String] {
    let plan = try Plan(query: try Parser.parse(query), schema: Self.schema, now: Self.now) {
      $0.name == "updated" ? .dateTime : .text
    }
    let maker = FilterChips(plan: plan, labels: Labels(labels))
    let all = maker.filterChips() + (try maker.inactiveChips(for: try fastFilters(fast)))
    return all.map { $0.active ? "[\($0.caption)]" : "(\($0.caption))" }
  }

  @Test func nothingAppliedShowsEveryFastFilterInactiveInTheViewsOrder() throws {
    #expect(
      try chips("", ["status", "customer", "grn_no"], labels: ["grn_no": "GRN No"])
        == ["(Status)", "(Customer)", "(GRN No)"])
  }

  /// The interactive screen applies an inactive chip's fast filter by this index.
  @Test func anInactiveChipNamesItsFastFilter() throws {
    let plan = try Plan(query: try Parser.parse("status:received"), schema: Self.schema, now: Self.now) { _ in .text }
    let chips = try FilterChips(plan: plan)
      .inactiveChips(for: try fastFilters(["status", "customer", "status:pending", "grn_no"]))
    #expect(chips.map(\.caption) == ["Customer", "Status: pending", "Grn No"])
    #expect(chips.map(\.fastFilter) == [1, 2, 3])
  }

  @Test func aFilteredFieldTurnsItsFastFilterActiveInQueryOrder() throws {
    #expect(
      try chips("customer:acme status:received", ["status", "customer", "grn_no"])
        == ["[Customer: acme]", "[Status: received]", "(Grn No)"])
  }

  @Test(arguments: [
    "Status:received", "STATUS:received", "-status:cancelled", "has:status", "status:\"\"",
  ])
  func anyTopLevelTermOnTheFieldAppliesIt(query: String) throws {
    let shown = try chips(query, ["status", "customer"])
    #expect(shown.count == 2)
    #expect(shown[1] == "(Customer)")
    #expect(shown[0].hasPrefix("[Status: "))
  }

  @Test func aTermInsideAnOrGroupDoesNotApplyAFieldFastFilter() throws {
    #expect(
      try chips("status:a OR customer:b", ["status"]) == [
        "[(Status: a or Customer: b)]", "(Status)",
      ])
  }

  @Test func aWholeTermIsActiveOnlyForTheSameTerm() throws {
    let fast = ["updated:today", "updated:this-week"]
    #expect(try chips("", fast) == ["(Updated: today)", "(Updated: this week)"])
    #expect(try chips("updated:this-week", fast) == ["[Updated: this week]", "(Updated: today)"])
    #expect(try chips("Updated:THIS-WEEK", fast) == ["[Updated: this week]", "(Updated: today)"])
    #expect(
      try chips("updated:last-week", fast)
        == ["[Updated: last week]", "(Updated: today)", "(Updated: this week)"],
      "another value on the same field leaves both term fast filters inactive")
  }

  @Test func aNegatedWholeTermMatchesOnlyItsNegation() throws {
    #expect(
      try chips("-empty_stock:yes", ["empty_stock:yes"]) == [
        "[Empty Stock: not yes]", "(Empty Stock: yes)",
      ])
    #expect(try chips("-empty_stock:yes", ["-empty_stock:yes"]) == ["[Empty Stock: not yes]"])
  }

  @Test func anUnknownFieldIsAnErrorPointingIntoTheFastFilter() throws {
    let plan = try Plan(query: Query(), schema: Self.schema, now: Self.now) { _ in .text }
    #expect {
      _ = try FilterChips(plan: plan).inactiveChips(for: try fastFilters(["status", "costumer"]))
    } throws: { error in
      guard let e = error as? FastFilterError else { return false }
      return e.filter.text == "costumer" && e.error.span == Span(0, 8)
        && e.error.message == "unknown field 'costumer'; did you mean 'customer'?"
    }
  }
}
