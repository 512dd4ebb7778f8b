import SiftCore
import Testing

@testable import SiftScreen

extension Driver {
  /// Ctrl-F, `text`, Enter.
  mutating func find(_ text: String) {
    press(.control("f"), .control("u"))
    type(text)
    press(.enter)
  }

  /// The highlighted row's first cell.
  var highlightedKey: String? { model.page.table?.result.rows[model.page.row][0] }
}

/// Find inside the result (Docs/Interactive.md, Find): key sequences → states.
@Suite struct FindTests {
  /// The list sorted by GRN number, so the rows are in a known order.
  static func driver(columns: Int = 100) -> Driver {
    Driver(Fixture.setup(query: "sort:grn_no"), size: ScreenSize(columns: columns, rows: 16))
  }

  @Test func ctrlFAsksAndEnterJumpsToTheNextRecordHoldingTheText() {
    var driver = Self.driver()
    driver.press(.control("f"))
    #expect(driver.bottomLine == "Find:")
    driver.type("globex")
    #expect(driver.bottomLine == "Find: globex")
    driver.press(.enter)
    #expect(driver.prompt == nil)
    #expect(driver.highlightedKey == "GRN-0002")
    // It moves the highlight; the query and the result stay.
    #expect(driver.runs.isEmpty)
    #expect(driver.model.page.query.text == "sort:grn_no")
  }

  @Test func nAndCapitalNRepeatForwardAndBack() {
    var driver = Self.driver()
    driver.press(.down)
    driver.find("acme")
    #expect(driver.highlightedKey == "GRN-0004")
    driver.press(.text("n"))
    #expect(driver.highlightedKey == "GRN-0006")
    // Past the end, round to the top, and the bar says so.
    driver.press(.text("n"))
    #expect(driver.highlightedKey == "GRN-0001")
    #expect(driver.bottomLine == "Found “acme” again from the top")
    driver.press(.text("N"))
    #expect(driver.highlightedKey == "GRN-0006")
    #expect(driver.bottomLine == "Found “acme” again from the bottom")
    driver.press(.text("N"))
    #expect(driver.highlightedKey == "GRN-0004")
  }

  @Test func theMatchIsHighlighted() {
    var driver = Self.driver()
    driver.find("LOBE")
    let line = driver.screen().lines[5 + driver.model.page.row]
    #expect(line.spans.contains(StyledSpan("lobe", .selected)))
    #expect(line.text.contains("Globex"))
  }

  @Test func theFirstFindStartsAtTheHighlightedRecord() {
    var driver = Self.driver()
    driver.find("acme")
    #expect(driver.highlightedKey == "GRN-0001")
    #expect(driver.bottomLine.hasPrefix("Row 1 of 8"))
  }

  @Test func aTextNoRecordHoldsSaysSoAndStays() {
    var driver = Self.driver()
    driver.press(.down)
    driver.find("zebra")
    #expect(driver.highlightedKey == "GRN-0002")
    #expect(driver.bottomLine == "No record holds “zebra”")
  }

  @Test func aTextOnlyThisRecordHoldsSaysSo() {
    var driver = Self.driver()
    driver.find("Initech")
    #expect(driver.highlightedKey == "GRN-0003")
    driver.press(.text("n"))
    #expect(driver.highlightedKey == "GRN-0003")
    #expect(driver.bottomLine == "Only this record holds “Initech”")
  }

  @Test func aMatchInAColumnScrolledOutScrollsItIn() {
    var driver = Self.driver(columns: 40)
    driver.find("bubble")
    #expect(driver.highlightedKey == "GRN-0004")
    #expect(driver.text().contains("Bubble"))
  }

  @Test func escCancelsTheFindAndCtrlFOffersTheLastText() {
    var driver = Self.driver()
    driver.press(.control("f"))
    driver.type("acme")
    driver.press(.escape)
    #expect(driver.prompt == nil)
    #expect(driver.highlightedKey == "GRN-0001")
    driver.find("acme")
    driver.press(.control("f"))
    #expect(driver.bottomLine == "Find: acme")
  }
}
