import SiftCore
import Testing

@testable import SiftScreen

/// The filter sheet: its sections, and how applying it rewrites the query text
/// (Docs/Interactive.md, Filter sheet).
@Suite struct FilterSheetTests {
  @Test func fOpensTheSheetAndAsksForValuesWithoutTheFieldsOwnTerms() throws {
    var driver = Driver(Fixture.setup(query: "status:received customer:acme qty:>2"))
    driver.press(.text("f"))
    let sheet = try #require(driver.sheet)
    #expect(sheet.sections.map(\.title) == ["Sort", "Group", "Status", "Customer", "Urgent", "Date", "Qty"])
    #expect(
      driver.runs.map { "\($0.purpose): \($0.query)" } == [
        "values(field: \"status\"): customer:acme qty:>2",
        "values(field: \"customer\"): status:received qty:>2",
      ])
    driver.answer()
    guard case .values(let values) = driver.sheet?.sections[2].kind else {
      Issue.record("no values")
      return
    }
    #expect(values.selected == ["received"], "the query's values are preselected")
    #expect(
      values.values?.map(\.value) == ["cancelled", "pending", "received"],
      "counted under the other filters: Acme's statuses")
  }

  @Test func aValueOfTheQueryIsSelectedIgnoringCase() {
    var driver = Driver(Fixture.setup(query: "customer:ACME,globex"))
    driver.press(.text("f"))
    driver.answer()
    let section = driver.sheetSection("customer")
    guard case .values(let values)? = driver.sheet?.sections[section].kind else {
      Issue.record("not the kind of value the test expects")
      return
    }
    #expect(values.selected == ["Acme", "Globex"])
    #expect(values.listed.map(\.value).filter { ["Acme", "Globex"].contains($0) } == ["Acme", "Globex"])
  }

  @Test func valuesThatCannotBeCountedSayWhy() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("f"))
    let request = try #require(driver.runs.first)
    _ = driver.model.receive(.sourceError(id: request.id, message: "sift: grn.csv: Permission denied"))
    guard case .values(let values)? = driver.sheet?.sections[driver.sheetSection("status")].kind else {
      Issue.record("not the kind of value the test expects")
      return
    }
    #expect(values.problem == "sift: grn.csv: Permission denied")
    #expect(driver.text(rows: 40).contains("  sift: grn.csv: Permission denied"))
  }

  @Test func sOpensTheSheetAtSortWithTheDefaultPreselected() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("s"))
    let sheet = try #require(driver.sheet)
    #expect(sheet.cursor == .option(0, 0))
    guard case .sort(let options, let chosen) = sheet.sections[0].kind else {
      Issue.record("not the kind of value the test expects")
      return
    }
    #expect(options.map { $0.map { "\($0.field) \($0.descending)" } ?? "input" } == [
      "date true", "date false", "grn_no true", "grn_no false",
    ])
    #expect(chosen == 0)
  }

  @Test func applyingASortWritesItAndTheDefaultSortRemovesIt() {
    var driver = Driver(Fixture.setup(query: "acme"))
    driver.press(.text("s"), .down, .down, .down, .text(" "), .enter)
    #expect(driver.model.overlay == nil)
    #expect(driver.model.page.query.text == "acme sort:grn_no")
    #expect(driver.runs.last?.query == "acme sort:grn_no")
    driver.answer()
    driver.press(.text("s"), .pageUp, .text(" "), .enter)
    #expect(driver.model.page.query.text == "acme")
  }

  @Test func aSortIsReplacedInPlaceAndTheCursorStartsOnIt() throws {
    var driver = Driver(Fixture.setup(query: "sort:date acme"))
    driver.press(.text("s"))
    #expect(driver.sheet?.cursor == .option(0, 1), "Date ↑ is in effect")
    driver.press(.down, .down, .text(" "), .enter)
    #expect(driver.model.page.query.text == "sort:grn_no acme")
  }

  @Test func theSortFieldIsDisabledInGroup() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("f"))
    let sheet = try #require(driver.sheet)
    #expect(!sheet.groupOptionEnabled("date"), "sorted by date by default")
    #expect(sheet.groupOptionEnabled("customer"))
    guard case .group(let options, _) = sheet.sections[1].kind else {
      Issue.record("not the kind of value the test expects")
      return
    }
    let date = options.firstIndex { $0 == "date" }!
    driver.moveSheetCursor { $0 == .option(1, date) }
    driver.press(.text(" "), .enter)
    #expect(driver.model.page.query.text == "", "choosing the disabled option does nothing")
  }

  @Test func choosingTheGroupsFieldAsSortClearsTheGroup() {
    var driver = Driver(Fixture.setup(query: "group:grn_no"))
    driver.press(.text("s"), .down, .down, .text(" "), .enter)
    #expect(driver.model.page.query.text == "sort:-grn_no")
  }

  @Test func groupIsReplaced() {
    var driver = Driver(Fixture.setup(query: "group:status acme"))
    driver.press(.text("f"))
    guard case .group(let options, _)? = driver.sheet?.sections[1].kind else {
      Issue.record("not the kind of value the test expects")
      return
    }
    let customer = options.firstIndex { $0 == "customer" }!
    driver.moveSheetCursor { $0 == .option(1, customer) }
    driver.press(.text(" "), .enter)
    #expect(driver.model.page.query.text == "acme group:customer")
  }

  @Test func valueCellsReplaceTheFieldsTerms() {
    var driver = Driver(Fixture.setup(query: "status:cancelled acme -status:held sort:grn_no"))
    driver.press(.text("f"))
    driver.answer()
    // Counted without the status terms: every status is offered.
    driver.moveSheetCursor(toValue: "received", of: "status")
    driver.press(.text(" "))
    driver.moveSheetCursor(toValue: "pending", of: "status")
    driver.press(.text(" "))
    driver.moveSheetCursor(toValue: "cancelled", of: "status")
    driver.press(.text(" "), .enter)
    #expect(driver.model.page.query.text == "acme sort:grn_no status:received,pending")
  }

  @Test func valuesNeedingQuotesAreQuoted() throws {
    var driver = Driver(Fixture.setup(query: ""))
    driver.press(.text("f"))
    driver.answer()
    driver.moveSheetCursor(toValue: "東京商事", of: "customer")
    driver.press(.text(" "))
    try driver.answerSheetValues([ValueCount(value: "Acme, Inc", count: 2)], of: "customer")
    driver.moveSheetCursor(toValue: "Acme, Inc", of: "customer")
    driver.press(.text(" "), .enter)
    #expect(driver.model.page.query.text == #"customer:東京商事,"Acme, Inc""#)
  }

  @Test func aSwitchWritesOnAndOffRemovesIt() {
    var driver = Driver(Fixture.setup(query: "acme"))
    driver.press(.text("f"))
    let section = driver.sheetSection("urgent")
    driver.moveSheetCursor { $0 == .toggle(section) }
    driver.press(.text(" "), .enter)
    #expect(driver.model.page.query.text == "acme urgent:on")
    driver.answer()
    driver.press(.text("f"))
    guard case .toggle(let on)? = driver.sheet?.sections[section].kind else {
      Issue.record("not the kind of value the test expects")
      return
    }
    #expect(on)
    driver.moveSheetCursor { $0 == .toggle(section) }
    driver.press(.text(" "), .enter)
    #expect(driver.model.page.query.text == "acme")
  }

  @Test func aDatePresetAndARange() {
    var driver = Driver(Fixture.setup(query: "date:2024-01-01..2024-03-31"))
    driver.press(.text("f"))
    let section = driver.sheetSection("date")
    guard case .dates(nil, let from, let to)? = driver.sheet?.sections[section].kind else {
      Issue.record("the range is not read back")
      return
    }
    #expect((from.text, to.text) == ("2024-01-01", "2024-03-31"))
    driver.moveSheetCursor { $0 == .preset(section, 1) }
    driver.press(.text(" "), .enter)
    #expect(driver.model.page.query.text == "date:this-week")
    driver.answer()
    driver.press(.text("f"))
    driver.moveSheetCursor { $0 == .to(section) }
    driver.type("2024-06-30")
    driver.press(.enter)
    #expect(driver.model.page.query.text == "date:<=2024-06-30", "typing a bound clears the preset")
  }

  @Test func aNumberRange() {
    var driver = Driver(Fixture.setup(query: "qty:>2 acme"))
    driver.press(.text("f"))
    let section = driver.sheetSection("qty")
    driver.moveSheetCursor { $0 == .from(section) }
    driver.press(.control("u"))
    driver.type("5")
    driver.press(.down)
    driver.type("50")
    driver.press(.enter)
    #expect(driver.model.page.query.text == "acme qty:5..50")
  }

  @Test func resetGoesBackToTheViewsDefaults() {
    var driver = Driver(Fixture.setup(query: "status:received acme urgent:on sort:grn_no group:customer"))
    driver.press(.text("f"), .text("r"), .enter)
    #expect(driver.model.page.query.text == "acme")
  }

  @Test func cancelLeavesTheQueryAlone() {
    var driver = Driver(Fixture.setup(query: "status:received"))
    driver.press(.text("f"))
    driver.answer()
    driver.moveSheetCursor(toValue: "received", of: "status")
    driver.press(.text(" "), .escape)
    #expect(driver.model.overlay == nil)
    #expect(driver.model.page.query.text == "status:received")
    #expect(driver.runs.filter { $0.purpose == .list }.isEmpty)
  }

  @Test func openedOverAQueryErrorTheSheetWorksOnTheLastGoodQuery() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("/"))
    driver.type("status:received")
    driver.answer()
    driver.type(" nosuch:x")
    driver.answer()
    #expect(driver.model.page.error != nil)
    driver.press(.escape, .text("f"))
    let queries = driver.runs.map(\.query)
    #expect(!queries.isEmpty)
    #expect(queries.allSatisfy { !$0.contains("nosuch") })
    #expect(driver.runs.first { $0.purpose == .values(field: "customer") }?.query == "status:received")
  }

  @Test func aNestedFastFilterHasItsSection() throws {
    var setup = Fixture.setup()
    let nested = FieldName("customer.name", span: Span(0, 0))
    setup.views[0].view?.fastFilters = [.field(nested, text: "customer.name"), .field(FieldName("nosuch.name", span: Span(0, 0)), text: "nosuch.name")]
    setup.views[0].view?.labels["customer.name"] = "Customer name"
    var driver = Driver(setup)
    driver.press(.text("f"))
    let sheet = try #require(driver.sheet)
    #expect(sheet.sections.map(\.field) == ["", "", "customer.name"])
    #expect(sheet.sections[2].title == "Customer name")
    #expect(driver.runs.map(\.purpose) == [.values(field: "customer.name")])
    try driver.answerSheetValues([ValueCount(value: "Acme", count: 3)], of: "customer.name")
    driver.moveSheetCursor(toValue: "Acme", of: "customer.name")
    driver.press(.text(" "))
    driver.effects = []
    driver.press(.enter)
    #expect(driver.model.page.query.text == "customer.name:Acme")
  }

  @Test func aNearlyDistinctFieldIsASearchLineAndNoGroup() throws {
    var driver = Driver(Fixture.setup(views: false))
    driver.press(.text("f"))
    let ids = (1...20).map { ValueCount(value: "GRN-\(1000 + $0)", count: 1) }
    try driver.answerSheetValues(ids, of: "grn_no")
    var sheet = try #require(driver.sheet)
    let section = driver.sheetSection("grn_no")
    let rows = sheet.rows.filter { $0.section == section }
    #expect(rows == [.heading(section), .search(section)])
    guard case .group(let options, _) = sheet.sections[1].kind else { throw CancellationError() }
    #expect(!options.contains("grn_no"))
    #expect(options.contains("customer"))
    #expect(driver.text(rows: 80).contains("Search [            ]  nearly every value differs: type to find one"))
    // A search lists the values that hold it.
    driver.moveSheetCursor { $0 == .search(section) }
    driver.type("1007")
    sheet = try #require(driver.sheet)
    #expect(sheet.rows.filter { $0.section == section }.contains(.value(section, "GRN-1007")))
  }

  @Test func repeatedValuesStayAList() throws {
    var driver = Driver(Fixture.setup(views: false))
    driver.press(.text("f"))
    let values = (1...20).map { ValueCount(value: "C\($0)", count: $0 <= 5 ? 1 : 3) }
    try driver.answerSheetValues(values, of: "customer")
    let sheet = try #require(driver.sheet)
    let section = driver.sheetSection("customer")
    #expect(sheet.rows.filter { $0.section == section }.count == 2 + 20)
  }

  @Test func theCountsFollowTheChoicesMadeInTheSheet() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("f"))
    driver.answer()
    driver.moveSheetCursor(toValue: "pending", of: "status")
    driver.press(.text(" "))
    // The other sections are counted again under the choice, after a pause in the keys.
    let customer = try #require(driver.runs.first { $0.purpose == .values(field: "customer") })
    #expect(customer.query == "status:pending")
    #expect(customer.afterPause)
    driver.answer()
    let sheet = try #require(driver.sheet)
    guard case .values(let values) = sheet.sections[driver.sheetSection("customer")].kind else {
      Issue.record("no customer values")
      return
    }
    #expect(values.values?.map(\.value).sorted() == ["Acme", "Globex"])
  }

  @Test func manyValuesMakeASearchableListWithSelectedOnTop() throws {
    var driver = Driver(Fixture.setup(query: "customer:c3"))
    driver.press(.text("f"))
    let section = driver.sheetSection("customer")
    try driver.answerSheetValues(
      (1...12).map { ValueCount(value: "c\($0)", count: 20 - $0) }, of: "customer")
    let rows = driver.sheet!.rows.filter { $0.section == section }
    #expect(rows.prefix(4) == [.heading(section), .search(section), .selectedHeading(section), .value(section, "c3")])
    #expect(rows.count == 3 + 1 + 11)
    driver.moveSheetCursor { $0 == .search(section) }
    driver.type("1")
    #expect(driver.sheet!.rows.filter { $0.section == section }.count == 3 + 1 + 4, "c1, c10, c11, c12")
    driver.press(.down, .down, .text(" "), .enter)
    #expect(driver.model.page.query.text == "customer:c3,c1")
  }

  @Test func typingInASearchableListSearches() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("f"))
    let section = driver.sheetSection("customer")
    try driver.answerSheetValues((1...12).map { ValueCount(value: "r\($0)", count: 1 + $0 % 2) }, of: "customer")
    driver.moveSheetCursor(toValue: "r5", of: "customer")
    driver.type("r1")
    #expect(driver.sheet?.cursor == .search(section))
    guard case .values(let searched)? = driver.sheet?.sections[section].kind else {
      Issue.record("not the kind of value the test expects")
      return
    }
    #expect(searched.search.text == "r1", "r searches here instead of resetting")
  }
}
