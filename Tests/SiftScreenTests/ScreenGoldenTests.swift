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

/// The filter sheet's screens.
@Suite struct SheetGoldenTests {
  @Test func theSheetOpenOnItsSections() throws {
    var driver = Driver(Fixture.setup(query: "status:received urgent:on qty:5..50"))
    driver.press(.text("f"))
    driver.answer()
    driver.press(.down, .down)
    try GoldenScreens.check("sheet", driver, rows: 40)
  }

  @Test func aShortScreenScrollsTheSheetAndKeepsApply() throws {
    var driver = Driver(Fixture.setup(query: "date:this-week"))
    driver.press(.text("f"))
    driver.answer()
    let section = driver.sheetSection("date")
    driver.moveSheetCursor { $0 == .from(section) }
    driver.type("2024-06")
    try GoldenScreens.check("sheet-scrolled", driver, rows: 12)
  }

  @Test func aSearchableListWithSelectedOnTop() throws {
    var driver = Driver(Fixture.setup(query: "customer:c3,c7"))
    driver.press(.text("f"))
    let section = driver.sheetSection("customer")
    try driver.answerSheetValues(
      (1...14).map { ValueCount(value: "c\($0)", count: 1000 * (15 - $0)) }, of: "customer")
    driver.moveSheetCursor { $0 == .search(section) }
    driver.type("1")
    try GoldenScreens.check("sheet-search", driver, rows: 20)
  }

  @Test func asciiMarks() throws {
    var driver = Driver(Fixture.setup(query: "urgent:on sort:grn_no", ascii: true))
    driver.press(.text("f"))
    driver.answer()
    try GoldenScreens.check("sheet-ascii", driver, widths: [60], rows: 40)
  }
}

/// Tiny terminals: every screen still has exactly its rows, none wider than the terminal.
@Suite struct TinyScreenTests {
  @Test(arguments: [(1, 1), (5, 3), (12, 4), (20, 7), (30, 2)])
  func everyScreenFits(columns: Int, rows: Int) {
    let size = ScreenSize(columns: columns, rows: rows)
    var driver = Driver(Fixture.setup(query: "status:received sort:grn_no group:customer"))
    var states = [driver]
    driver.press(.tab, .tab, .right)
    states.append(driver)
    driver.press(.text("f"))
    driver.answer()
    states.append(driver)
    driver.press(.escape, .text("?"))
    states.append(driver)
    driver.press(.escape)
    driver.model.pages[0].firstColumn = 4
    states.append(driver)
    driver.press(.enter, .down)
    states.append(driver)
    for var state in states {
      state.model.resize(to: size)
      let frame = state.model.render(size)
      #expect(frame.lines.count == rows)
      #expect(frame.lines.allSatisfy { displayWidth(of: $0.text) <= columns })
      if let cursor = frame.cursor {
        #expect(cursor.row < rows && cursor.column < max(columns, 1))
      }
    }
  }
}

/// The record's page and the list scrolled sideways (issue 25).
@Suite struct RecordAndSidewaysGoldenTests {
  @Test func theRecordsPage() throws {
    var driver = Driver(Fixture.setup(query: "status:received sort:grn_no"))
    driver.press(.down, .down, .enter)
    try GoldenScreens.check("record-page", driver, rows: 12)
  }

  @Test func theRecordsPageWithNestedLongAndEmptyValues() throws {
    var driver = Driver(Fixture.setup())
    driver.setRow(0, [
      "GRN-0007", "2024-06-08", "", #"{"name":"東京商事","address":{"city":"Tokyo","lines":["1-2-3 Chiyoda"]}}"#,
      "20", "no", "Bubble wrap 750mm x 100m, perforated every 500mm, clear, for fragile goods",
    ])
    driver.press(.enter)
    try GoldenScreens.check("record-page-nested", driver, rows: 24)
  }

  @Test func theRecordsPageScrolledAndAscii() throws {
    var driver = Driver(Fixture.setup(ascii: true))
    driver.press(.enter, .right, .down, .down)
    try GoldenScreens.check("record-page-ascii", driver, rows: 6)
  }

  @Test func theListScrolledSideways() throws {
    var driver = Driver(Fixture.setup(), size: ScreenSize(columns: 40, rows: 16))
    driver.press(.right, .right, .down)
    try GoldenScreens.check("list-sideways", driver, rows: 12)
  }

  @Test func aGroupedListScrolledSideways() throws {
    var driver = Driver(Fixture.setup(query: "group:customer sort:grn_no", ascii: true), size: ScreenSize(columns: 40, rows: 16))
    driver.press(.right, .right, .right)
    try GoldenScreens.check("list-sideways-groups", driver, rows: 14)
  }
}

/// Marking, export and find (Docs/Interactive.md, Marking and export, and Find).
@Suite struct ExportGoldenTests {
  @Test func theExportPrompt() throws {
    var driver = Driver(Fixture.setup(query: "status:received"))
    driver.press(.down, .text("m"), .down, .text("m"), .text("e"))
    try GoldenScreens.check("export-prompt", driver, rows: 12)
  }

  @Test func theReplaceQuestion() throws {
    var driver = Driver(Fixture.setup(views: false))
    driver.press(.text("e"), .enter)
    let request = try #require(driver.runs.first)
    _ = driver.model.receive(.exportRefused(id: request.id, path: "grn-2024-06-08.csv", exists: true, message: ""))
    try GoldenScreens.check("export-replace", driver, rows: 8)
  }

  @Test func aFoundTextIsHighlighted() throws {
    var driver = Driver(Fixture.setup(views: false, query: "sort:grn_no"))
    driver.press(.control("f"))
    driver.type("END")
    driver.press(.enter, .text("n"))
    try GoldenScreens.check("find", driver, rows: 14)
  }
}
