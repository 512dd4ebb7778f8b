import SiftCore
import Testing

@testable import SiftScreen

/// Key sequences → states and effects (Docs/Interactive.md, Keys).
@Suite struct ScreenModelTests {
  @Test func openingAsksForTheListAndEveryBadge() {
    var model = ScreenModel(setup: Fixture.setup())
    let runs = model.start().compactMap { if case .run(let r) = $0 { r } else { nil } }
    #expect(runs.map(\.purpose) == [.list, .badge, .badge, .badge])
    #expect(runs.map(\.view) == [0, 0, 1, 3])
    #expect(runs.allSatisfy { !$0.afterPause })
    #expect(Set(runs.map(\.id)).count == runs.count)
  }

  @Test func everyEditRunsTheQueryAfterAPause() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("/"))
    driver.type("acme")
    #expect(driver.runs.map(\.query) == ["a", "ac", "acm", "acme"])
    #expect(driver.runs.allSatisfy { $0.afterPause && $0.purpose == .list })
    driver.press(.left)
    #expect(driver.runs.count == 4, "moving the cursor runs nothing")
  }

  @Test(arguments: [
    ([Key.text("status:x customer:y")], "status:x customer:y", 19),
    ([.text("status:x customer:y"), .control("w")], "status:x ", 9),
    ([.text("status:x customer:y"), .control("w"), .control("w")], "", 0),
    ([.text("status:x customer:y"), .home, .delete], "tatus:x customer:y", 0),
    ([.text("status:x customer:y"), .left, .left, .control("u")], ":y", 0),
    ([.text("ab"), .control("a"), .text("x"), .control("e"), .text("y")], "xaby", 4),
    ([.text("abc"), .left, .backspace], "ac", 1),
    ([.text("abc"), .home, .right, .control("k")], "a", 1),
    ([.text("東京 🎉"), .left, .backspace], "東京🎉", 2),
  ])
  func queryLineEditing(keys: [Key], text: String, cursor: Int) {
    var field = TextField()
    for key in keys { _ = field.edit(key) }
    #expect(field.text == text)
    #expect(field.cursor == cursor)
  }

  @Test func keysOtherThanTextGoToTheQueryLineOnlyWhileItHasTheFocus() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("q"))
    #expect(driver.effects == [.quit(arguments: ["sift", "@grn"])])
    driver = Driver(Fixture.setup())
    driver.press(.text("/"), .text("q"))
    #expect(driver.model.page.query.text == "q")
    #expect(driver.effects.allSatisfy { if case .quit = $0 { false } else { true } })
  }

  @Test func quitPrintsTheCommandLineThatReproducesTheScreen() {
    var driver = Driver(Fixture.setup(files: ["grn.csv"]))
    driver.press(.text("/"))
    driver.type("status:received sort:grn_no  ")
    driver.press(.control("c"))
    #expect(driver.effects.last == .quit(arguments: ["sift", "@grn", "status:received sort:grn_no", "grn.csv"]))
    driver = Driver(Fixture.setup(views: false, files: ["grn.csv"]))
    driver.press(.text("q"))
    // The first word after the options is the query: an empty one is written out before FILEs.
    #expect(driver.effects.last == .quit(arguments: ["sift", "", "grn.csv"]))
    var setup = Fixture.setup(views: false)
    setup.leadingArguments = ["--config", "views.json", "--now", "2024-06-08", "@grn"]
    driver = Driver(setup)
    driver.press(.text("q"))
    #expect(driver.effects.last == .quit(arguments: ["sift", "--config", "views.json", "--now", "2024-06-08", "@grn"]))
  }

  @Test func quitWhileTheQueryLineHoldsAnErrorPrintsTheLastGoodQuery() {
    var driver = Driver(Fixture.setup(files: ["grn.csv"]))
    driver.press(.text("/"))
    driver.type("status:received")
    driver.answer()
    driver.type(" (")
    driver.answer()
    #expect(driver.model.page.error != nil)
    driver.press(.control("c"))
    #expect(driver.effects.last == .quit(arguments: ["sift", "@grn", "status:received", "grn.csv"]))
    // An error from the start: no query ran, so none is printed.
    driver = Driver(Fixture.setup(views: false, query: "status:received (", files: ["grn.csv"]))
    #expect(driver.model.page.error != nil)
    driver.press(.control("c"))
    #expect(driver.effects.last == .quit(arguments: ["sift", "", "grn.csv"]))
  }

  @Test func focusCyclesQueryBarList() {
    var driver = Driver(Fixture.setup())
    #expect(driver.model.focus == .list)
    driver.press(.tab)
    #expect(driver.model.focus == .query)
    driver.press(.tab)
    #expect(driver.model.focus == .bar)
    driver.press(.tab)
    #expect(driver.model.focus == .list)
    driver.press(.backTab)
    #expect(driver.model.focus == .bar)
  }

  @Test func aQueryErrorKeepsTheLastGoodResult() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("/"))
    driver.type("status:received")
    driver.answer()
    #expect(driver.model.page.table?.result.rows.count == 5)
    driver.type(" (qty:1")
    driver.answer()
    #expect(driver.model.page.error?.message.contains("'('") == true)
    #expect(driver.model.page.table?.result.rows.count == 5)
    #expect(driver.model.page.table?.query == "status:received")
    driver.press(.backspace, .backspace, .backspace, .backspace, .backspace, .backspace, .backspace)
    driver.answer()
    #expect(driver.model.page.error == nil)
  }

  @Test func staleOutcomesAreIgnored() {
    var model = ScreenModel(setup: Fixture.setup())
    let first = model.start()
    guard case .run(let old) = first[0] else {
      Issue.record("not the kind of value the test expects")
      return
    }
    _ = model.handle(.text("/"))
    _ = model.handle(.text("x"))
    _ = model.receive(Fixture.answer(old, setup: model.setup))
    #expect(model.page.table == nil, "the answer to an edited query's older run is stale")
  }

  @Test func listKeysMoveTheHighlightedRow() {
    var driver = Driver(Fixture.setup(), size: ScreenSize(columns: 100, rows: 12))
    driver.press(.down, .down)
    #expect(driver.model.page.row == 2)
    driver.press(.text("G"))
    #expect(driver.model.page.row == 7)
    driver.press(.pageUp)
    #expect(driver.model.page.row == 7 - driver.model.listHeight)
    driver.press(.text("g"), .up)
    #expect(driver.model.page.row == 0)
    driver.press(.pageDown, .pageDown, .pageDown)
    #expect(driver.model.page.row == 7)
    #expect(driver.model.page.top + driver.model.listHeight > driver.model.page.table!.lineOfRow[7])
  }

  // MARK: The bar

  @Test func spaceOnAnActiveChipRemovesItsTerm() {
    var driver = Driver(Fixture.setup(query: "status:received customer:acme AND qty:>5 sort:grn_no"))
    // Chips: Sort, Status, Customer, Qty, then the inactive fast filters.
    driver.press(.tab, .tab, .right, .right)
    driver.press(.text(" "))
    #expect(driver.model.page.query.text == "status:received qty:>5 sort:grn_no")
    #expect(driver.runs.last?.afterPause == false)
    driver.answer()
    driver.press(.home, .text(" "))
    #expect(driver.model.page.query.text == "status:received qty:>5")
  }

  @Test func spaceOnATermFastFilterAppliesItAtOnce() throws {
    var driver = Driver(Fixture.setup())
    let chips = try #require(driver.model.page.table?.result.chips)
    let pending = try #require(chips.firstIndex { $0.caption == "Status: pending" })
    driver.press(.tab, .tab)
    for _ in 0..<pending { driver.press(.right) }
    driver.press(.text(" "))
    #expect(driver.model.page.query.text == "status:pending")
    driver.answer()
    #expect(driver.model.page.table?.result.rows.count == 2)
  }

  @Test func spaceOnAFieldFastFilterOpensTheSheetOnThatField() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.tab, .tab, .right, .text(" "))
    guard case .sheet(let sheet) = driver.model.overlay else {
      Issue.record("no sheet")
      return
    }
    #expect(sheet.sections[sheet.cursor.section].field == "customer")
    #expect(driver.runs.map(\.purpose).contains(.values(field: "customer")))
  }

  // MARK: Tabs

  @Test func eachViewKeepsItsQuery() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("/"))
    driver.type("acme")
    driver.answer()
    driver.press(.escape, .text("2"))
    #expect(driver.model.active == 1)
    #expect(driver.runs.map(\.view) == [1])
    driver.answer()
    #expect(driver.model.page.sourceError != nil)
    driver.press(.text("["))
    #expect(driver.model.active == 0)
    #expect(driver.model.page.query.text == "acme")
    #expect(driver.runs.isEmpty, "a view with a result runs nothing when shown again")
    driver.press(.text("["), .text("["))
    #expect(driver.model.active == 4)
  }

  @Test func badgesComeFromTheirRuns() {
    let driver = Driver(Fixture.setup())
    #expect(driver.model.pages[0].badge == .count(2))
    #expect(driver.model.pages[1].badge == .broken)
    #expect(driver.model.pages[2].badge == .none)
  }
}

/// The chips' edits of the query text in the states where the text and the result differ.
@Suite struct ChipEditTests {
  /// The fixture with the GRN view's preset query set to `preset`.
  static func presetSetup(_ preset: String, query: String) -> ScreenSetup {
    var setup = Fixture.setup(query: query)
    setup.views[0].view!.query = (preset, try! Parser.parse(preset))
    return setup
  }

  @Test func aPresetChipCannotBeRemovedButTheTypedOnesCan() {
    var driver = Driver(Self.presetSetup("status:received", query: "customer:acme"))
    let chips = driver.model.page.table!.result.chips.filter(\.active).map(\.caption)
    #expect(chips == ["Status: received", "Customer: acme"])
    driver.press(.tab, .tab, .text(" "))
    #expect(driver.model.page.query.text == "customer:acme")
    #expect(driver.runs.isEmpty)
    driver.press(.right, .text(" "))
    #expect(driver.model.page.query.text == "")
  }

  @Test func withAQueryErrorAChipEditsTheShownResultsQuery() {
    var driver = Driver(Fixture.setup(query: "status:received acme"))
    driver.press(.text("/"))
    driver.type(" (")
    driver.answer()
    #expect(driver.model.page.error != nil)
    driver.press(.tab, .text(" "))
    #expect(driver.model.page.query.text == "acme")
  }

  @Test func aggregateGroupAndSortChipsRemoveTheirDirectives() {
    var driver = Driver(Fixture.setup(views: false, query: "sum:qty group:customer acme"))
    #expect(driver.model.page.table!.result.chips.map(\.kind).prefix(3) == [.group, .aggregate, .filter])
    driver.press(.tab, .tab, .right, .text(" "))
    #expect(driver.model.page.query.text == "group:customer acme")
    driver.answer()
    driver.press(.home, .text(" "))
    #expect(driver.model.page.query.text == "acme")
    driver = Driver(Fixture.setup(query: "sort:grn_no acme"))
    driver.press(.tab, .tab, .text(" "))
    #expect(driver.model.page.query.text == "acme")
  }

  @Test(arguments: [
    ("a AND b c", 1, "a c"),
    ("a AND b", 1, "a"),
    ("a AND b", 0, "b"),
    ("(x OR y) AND z", 0, "z"),
    ("z -( x OR y )", 1, "z"),
    ("((x OR y)) z", 0, "z"),
    ("NOT (x y) z", 0, "z"),
    ("  a   b  ", 0, "b  "),
    ("status:\"x y\" qty:>2", 0, "qty:>2"),
  ])
  func removingATermKeepsTheRestParsing(text: String, index: Int, expected: String) throws {
    let edited = try #require(QueryText(text).removingFilter(index))
    #expect(edited.text == expected)
    #expect(edited.parsed != nil)
  }
}

/// Progress, an input error, an empty result, a source error.
@Suite struct ListStateGoldenTests {
  @Test func progressThenAnInputErrorKeepsTheRowsBeforeIt() throws {
    var driver = Driver(Fixture.setup(views: false))
    driver.press(.text("/"))
    driver.type("customer:acme")
    let request = driver.runs.last!
    driver.effects = []
    _ = driver.model.receive(.progress(id: request.id, .records(1_250_000)))
    try GoldenScreens.check("progress", driver, widths: [40], rows: 10)
    guard case .list(let id, var result) = Fixture.answer(request, setup: driver.model.setup) else {
      Issue.record("not the kind of value the test expects")
      return
    }
    result.inputError = "sift: grn.csv:7:12: unterminated quoted field"
    _ = driver.model.receive(.list(id: id, result))
    driver.press(.escape)
    try GoldenScreens.check("input-error", driver, widths: [40, 100], rows: 10)
  }

  /// A pipe still open (Docs/Interactive.md, Piped standard input): the position line follows
  /// what has arrived, then the records read, then the list's rows take its place.
  @Test func aPipeStillOpenShowsWhatHasArrivedThenTheRecordsThenTheList() throws {
    var driver = Driver(Fixture.setup(views: false))
    // The screen as it opens, its first list run not answered yet.
    driver.model = ScreenModel(setup: driver.model.setup)
    driver.model.resize(to: driver.size)
    driver.effects = driver.model.start()
    let request = try #require(driver.runs.first { if case .list = $0.purpose { true } else { false } })
    func positionLine() -> String {
      driver.text().split(separator: "\n").first { $0.hasPrefix("Reading") || $0.hasPrefix("Row ") }
        .map(String.init) ?? ""
    }
    _ = driver.model.receive(.progress(id: request.id, .arriving(lines: 1_200, bytes: 60_000)))
    #expect(positionLine().hasPrefix("Reading… 1,200 lines (59 KB) so far · the pipe is still open"))
    try GoldenScreens.check("progress-arriving", driver, widths: [40, 100], rows: 10)
    _ = driver.model.receive(.progress(id: request.id, .arriving(lines: 4_801, bytes: 240_050)))
    #expect(positionLine().hasPrefix("Reading… 4,801 lines (235 KB) so far"))
    _ = driver.model.receive(.progress(id: request.id, .records(3_000)))
    #expect(positionLine().hasPrefix("Reading… 3,000 records"))
    _ = driver.model.receive(Fixture.answer(request, setup: driver.model.setup))
    #expect(positionLine().hasPrefix("Row 1 of "))
  }

  @Test func noMatches() throws {
    var driver = Driver(Fixture.setup(views: false, ascii: true))
    driver.press(.text("/"))
    driver.type("customer:nobody")
    driver.answer()
    try GoldenScreens.check("no-matches-ascii", driver, widths: [60], rows: 8)
  }
}
