import SiftCore
import Testing

@testable import SiftScreen

/// States → golden screens at 40, 100 and 200 columns (Tests/SiftScreenTests/Screens).
@Suite struct ScreenGoldenTests {
  @Test func opening() throws {
    try GoldenScreens.check("opening", Driver(Fixture.setup()))
  }

  @Test func withoutAViewsFile() throws {
    try GoldenScreens.check("without-views", Driver(Fixture.setup(views: false)))
  }

  @Test func typingShowsLiveResults() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("/"))
    driver.type("status:received customer:acme")
    driver.answer()
    driver.press(.left, .left)
    try GoldenScreens.check("typing", driver)
  }

  @Test func aQueryErrorShowsACaretAndKeepsTheRows() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("/"))
    driver.type("status:received")
    driver.answer()
    driver.type(" qty:50..10")
    driver.answer()
    try GoldenScreens.check("query-error", driver)
  }

  @Test func groupsAndTheHighlightedRow() throws {
    var driver = Driver(Fixture.setup(query: "group:customer sort:grn_no"))
    driver.press(.down, .down, .down)
    try GoldenScreens.check("groups", driver, rows: 14)
  }

  @Test func theBarWithTheFocusScrollsItsChips() throws {
    var driver = Driver(
      Fixture.setup(query: "status:received,pending customer:acme,globex qty:>2 sort:grn_no group:urgent"))
    driver.press(.tab, .tab, .right, .right, .right, .right)
    try GoldenScreens.check("bar-focused", driver, rows: 8)
  }

  @Test func aNarrowBarDropsInTheSpecsOrder() throws {
    let driver = Driver(
      Fixture.setup(query: "status:received item:\"Bubble wrap 750mm x 100m\" sort:grn_no group:customer"))
    try GoldenScreens.check("bar-narrow", driver, widths: [40, 60, 80, 100, 200], rows: 6)
  }

  @Test func wideCharactersAlign() throws {
    var driver = Driver(Fixture.setup(views: false, query: "sort:-customer"))
    driver.press(.down)
    try GoldenScreens.check("wide-characters", driver, rows: 14)
  }

  @Test func tabsWithBadgesAndMore() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("5"))
    driver.answer()
    try GoldenScreens.check("tabs-more", driver, rows: 8)
  }

  @Test func help() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("?"))
    try GoldenScreens.check("help", driver, widths: [40, 100], rows: 34)
  }
}
