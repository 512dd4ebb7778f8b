import SiftCore
import Testing

@testable import SiftScreen

/// Sideways in the list (Docs/Interactive.md, List): key sequences → states.
@Suite struct SidewaysScrollTests {
  static let narrow = ScreenSize(columns: 40, rows: 16)

  /// The header line and the position line.
  static func header(_ driver: Driver) -> (header: String, position: String) {
    let lines = driver.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return (lines[3], lines[lines.count - 2])
  }

  @Test func rightScrollsOneColumnWithTheFirstFrozen() {
    var driver = Driver(Fixture.setup(), size: Self.narrow)
    #expect(Self.header(driver) == ("grn_no    date        status           ›", "Row 1 of 8 · fields 1–3 of 7"))
    driver.press(.right)
    #expect(driver.model.page.firstColumn == 2)
    #expect(Self.header(driver) == ("grn_no   ‹ status     customer  qty    ›", "Row 1 of 8 · fields 3–5 of 7"))
    driver.press(.right, .right)
    #expect(Self.header(driver) == ("grn_no   ‹ qty    urgent  item", "Row 1 of 8 · fields 5–7 of 7"))
  }

  /// The view's `key` field stays frozen on the left in place of the first column; the
  /// first column scrolls with the others (Docs/Interactive.md, List).
  @Test func theViewsKeyColumnIsFrozenInPlaceOfTheFirst() throws {
    var setup = Fixture.setup()
    setup.views[0].view?.key = "customer"
    var driver = Driver(setup, size: Self.narrow)
    #expect(Self.header(driver).header.hasPrefix("customer  grn_no"))
    driver.press(.right)
    #expect(Self.header(driver).header.hasPrefix("customer ‹ date"))
    #expect(Self.header(driver).position.hasPrefix("Row 1 of 8 · fields 3–"))
    for _ in 0..<20 { driver.press(.right) }
    #expect(Self.header(driver).header.hasPrefix("customer ‹ "))
    #expect(Self.header(driver).header.hasSuffix("item"))
    #expect(!Self.header(driver).header.contains("grn_no"))
    try GoldenScreens.check("sideways-key-frozen", driver, widths: [40, 100], rows: 12)
    for _ in 0..<20 { driver.press(.left) }
    #expect(Self.header(driver).header.hasPrefix("customer  grn_no"))
  }

  @Test func theLastColumnStopsTheScrollAndLeftComesBack() {
    var driver = Driver(Fixture.setup(), size: Self.narrow)
    for _ in 0..<20 { driver.press(.right) }
    let last = driver.model.page.firstColumn
    #expect(Self.header(driver).header == "grn_no   ‹ qty    urgent  item")
    #expect(Self.header(driver).position == "Row 1 of 8 · fields 5–7 of 7")
    driver.press(.right)
    #expect(driver.model.page.firstColumn == last)
    for _ in 0..<20 { driver.press(.left) }
    #expect(driver.model.page.firstColumn == 1)
    #expect(Self.header(driver).header.hasPrefix("grn_no    date"))
  }

  @Test func aWideScreenHasNothingToScroll() {
    var driver = Driver(Fixture.setup(), size: ScreenSize(columns: 200, rows: 16))
    driver.press(.right)
    #expect(driver.model.page.firstColumn == 1)
    #expect(!Self.header(driver).position.contains("fields"))
  }

  @Test func aGrownScreenScrollsBackToShowWhatFits() {
    var driver = Driver(Fixture.setup(), size: Self.narrow)
    for _ in 0..<20 { driver.press(.right) }
    driver.model.resize(to: ScreenSize(columns: 100, rows: 16))
    driver.size = ScreenSize(columns: 100, rows: 16)
    #expect(Self.header(driver).header.hasPrefix("grn_no    date"))
    driver.press(.left)
    #expect(driver.model.page.firstColumn == 1)
  }

  @Test func rowsMoveAsBeforeAndTheRowKeepsItsColumns() {
    var driver = Driver(Fixture.setup(), size: Self.narrow)
    driver.press(.right, .down)
    #expect(driver.model.page.row == 1)
    #expect(driver.model.page.firstColumn == 2)
    #expect(driver.text().contains("GRN-0008   received   Globex"))
  }

  @Test func groupHeadingsKeepTheirPlace() {
    var driver = Driver(Fixture.setup(query: "group:customer sort:grn_no"), size: Self.narrow)
    driver.press(.right, .right)
    let lines = driver.text().split(separator: "\n").map(String.init)
    #expect(lines.contains("Acme (3)"))
  }

  @Test func leftAndRightStillMoveTheChipsAndTheCursor() {
    var driver = Driver(Fixture.setup(query: "status:received"), size: Self.narrow)
    driver.press(.tab, .tab, .right)
    #expect(driver.model.page.chip == 1)
    #expect(driver.model.page.firstColumn == 1)
    driver.press(.text("/"), .left)
    #expect(driver.model.page.query.cursor == "status:received".count - 1)
    #expect(driver.model.page.firstColumn == 1)
  }

  /// Columns are never narrowed below their header while scrolling can show them whole.
  @Test(arguments: [30, 40, 50, 60, 80])
  func shownColumnsKeepTheirHeaderWidth(width: Int) {
    let driver = Driver(Fixture.setup(), size: ScreenSize(columns: width, rows: 16))
    let table = driver.model.page.table!
    for start in 1..<table.result.columns.count {
      let window = ColumnWindow(table, start: start, width: width)
      for (position, column) in window.columns.enumerated() where window.columns.count > 1 {
        #expect(window.widths[position] >= table.headerWidths[column])
      }
      #expect(window.widths.reduce(0, +) + 2 * (window.widths.count - 1) + (window.hiddenLeft ? 1 : 0)
        + (window.hiddenRight ? 2 : 0) <= width)
    }
  }
}
