import SiftCore
import Testing

@testable import SiftScreen

/// Drilling down from a group (Docs/Interactive.md, Drilling down): key sequences → states.
/// With `group:customer sort:grn_no` the rows are Acme ×3, Globex ×2, Initech, Umbrella, 東京商事.
@Suite struct DrillDownTests {
  static func grouped() -> Driver {
    Driver(Fixture.setup(query: "group:customer sort:grn_no"))
  }

  @Test func upFromAGroupsFirstRowRestsOnItsHeading() {
    var driver = Self.grouped()
    driver.press(.down, .down, .down)
    #expect(driver.model.page.row == 3 && !driver.model.page.onHeading)
    driver.press(.up)
    #expect(driver.model.page.row == 3 && driver.model.page.onHeading)
    driver.press(.up)
    #expect(driver.model.page.row == 2 && !driver.model.page.onHeading)
    driver.press(.down)
    #expect(driver.model.page.row == 3 && !driver.model.page.onHeading)
  }

  @Test func downFromAHeadingGoesToItsFirstRow() {
    var driver = Self.grouped()
    driver.press(.up)
    #expect(driver.model.page.row == 0 && driver.model.page.onHeading)
    driver.press(.down)
    #expect(driver.model.page.row == 0 && !driver.model.page.onHeading)
  }

  @Test func enterOnAHeadingFiltersOnItsValueAndDropsTheGroup() {
    var driver = Self.grouped()
    driver.press(.down, .down, .down, .up, .enter)
    #expect(driver.model.overlay == nil)
    #expect(driver.model.page.query.text == #"sort:grn_no customer:"Globex""#)
    driver.answer()
    #expect(driver.model.page.table?.result.rows.map { $0[0] } == ["GRN-0002", "GRN-0008"])
    #expect(driver.model.page.table?.result.groups.isEmpty == true)
  }

  /// A time bucket's heading filters on its period, not on its label as text
  /// (Docs/QueryLanguage.md, Time buckets).
  @Test func enterOnATimeBucketsHeadingFiltersOnItsPeriod() {
    var driver = Driver(Fixture.setup(query: "group:date/day sort:grn_no"))
    driver.press(.up, .enter)
    #expect(driver.model.page.query.text == "sort:grn_no date:2024-06-03")
  }

  @Test(arguments: [Key.backspace, .escape])
  func backspaceOrEscAfterADrillDownReturnsToTheGroups(key: Key) {
    var driver = Self.grouped()
    driver.press(.up, .enter)
    driver.answer()
    #expect(driver.model.page.query.text == #"sort:grn_no customer:"Acme""#)
    driver.press(key)
    #expect(driver.model.page.query.text == "group:customer sort:grn_no")
    driver.answer()
    #expect(driver.model.page.table?.result.groups.count == 5)
    driver.effects = []
    driver.press(key)
    #expect(driver.effects.isEmpty)
  }

  @Test func editingTheQueryAfterADrillDownForgetsTheWayBack() {
    var driver = Self.grouped()
    driver.press(.up, .enter)
    driver.answer()
    driver.press(.text("/"))
    driver.type(" urgent:no")
    driver.press(.escape)
    driver.answer()
    driver.press(.backspace)
    #expect(driver.model.page.query.text == #"sort:grn_no customer:"Acme" urgent:no"#)
  }

  @Test func enterOnARowStillOpensItsPage() {
    var driver = Self.grouped()
    driver.press(.down, .enter)
    #expect(driver.recordTop == 0)
  }

  @Test func withoutGroupsUpOnTheFirstRowStaysOnIt() {
    var driver = Driver(Fixture.setup(query: "sort:grn_no"))
    driver.press(.up)
    #expect(!driver.model.page.onHeading)
    driver.press(.enter)
    #expect(driver.recordTop == 0)
  }

  @Test func aViewsOwnGroupingStaysOnTheHeading() throws {
    let json = #"{ "views": { "grn": { "source": "grn.csv", "query": "group:customer" } } }"#
    let view = try #require(try ViewsFile.parse(Array(json.utf8), path: "sift.json").views.first)
    var driver = Driver(
      ScreenSetup(views: [ScreenView(view: view, sourceName: "grn.csv")], active: 0, query: "", files: [], ascii: false))
    driver.press(.up)
    #expect(driver.model.page.onHeading)
    driver.press(.enter)
    #expect(driver.model.page.onHeading && driver.model.overlay == nil)
    #expect(driver.model.page.query.text == "")
  }

  @Test func theHighlightedHeadingAndTheDrilledList() throws {
    var driver = Self.grouped()
    driver.press(.down, .down, .down, .up)
    try GoldenScreens.check("drill-heading", driver, rows: 14)
    driver.press(.enter)
    driver.answer()
    try GoldenScreens.check("drill-down", driver, rows: 10)
  }
}
