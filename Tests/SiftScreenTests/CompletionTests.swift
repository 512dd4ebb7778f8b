import SiftCore
import Testing

@testable import SiftScreen

/// Tab on the query line (Docs/Interactive.md, Completion): key sequences → states.
@Suite struct CompletionTests {
  /// The query line holding `text`, focused, its results in.
  static func typed(_ text: String) -> Driver {
    var driver = Driver(Fixture.setup(views: false))
    driver.press(.text("/"))
    driver.type(text)
    driver.answer()
    return driver
  }

  @Test(arguments: [
    ("cus", "customer:"),
    ("status:received grn", "status:received grn_no:"),
    ("-ur", "-urgent:"),
    ("(it", "(item:"),
    ("so", "sort:"),
    ("sort:-da", "sort:-date"),
    ("fields:grn_no,cu", "fields:grn_no,customer"),
    ("SUM:q", "SUM:qty"),
    ("customer:glo", "customer:Globex "),
    ("customer:ac", "customer:Acme "),
    ("status:c", "status:cancelled "),
    ("customer:東", "customer:東京商事 "),
  ])
  func tabCompletesTheWordBeforeTheCursor(typed: String, completed: String) {
    var driver = Self.typed(typed)
    driver.press(.tab)
    driver.answer()
    #expect(driver.model.page.query.text == completed)
    #expect(driver.model.focus == .query)
  }

  @Test func severalCandidatesAreTakenAsFarAsTheyAgreeThenListed() {
    var driver = Self.typed("item:b")
    driver.press(.tab)
    driver.answer()
    // Bolt, Bubble wrap, Blue roll, Bin liners (quoted: they hold spaces) agree on `"B`.
    #expect(driver.model.page.query.text == "item:\"B")
    // Tab again adds nothing, so they are listed, most frequent first.
    driver.press(.tab)
    driver.answer()
    #expect(driver.model.page.query.text == "item:\"B")
    #expect(driver.bottomLine.contains("\"Bubble wrap 750mm x 100m\""))
    #expect(driver.bottomLine.contains("\"Bolt M8x40\""))
    var names = Self.typed("gr")
    names.press(.tab)
    #expect(names.model.page.query.text == "gr")
    #expect(names.bottomLine == "grn_no:  group:")
  }

  @Test func aValueWithSpacesIsQuoted() {
    var driver = Self.typed("item:bu")
    driver.press(.tab)
    driver.answer()
    #expect(driver.model.page.query.text == "item:\"Bubble wrap 750mm x 100m\" ")
  }

  @Test func theValuesAreCountedWithoutTheWordsOwnTerm() throws {
    var driver = Self.typed("status:pending customer:ac")
    driver.press(.tab)
    let request = try #require(driver.runs.first)
    #expect(request.purpose == .values(field: "customer"))
    #expect(request.query == "status:pending ")
  }

  @Test func tabAfterASpaceOrOnAnEmptyLineMovesTheFocus() {
    var driver = Self.typed("status:received ")
    driver.press(.tab)
    #expect(driver.model.focus == .bar)
    var empty = Self.typed("")
    empty.press(.tab)
    #expect(empty.model.focus == .bar)
  }

  @Test(arguments: ["zz", "status:received", "customer:ACME", "sort:grn_no", "nosuchfield:x"])
  func aWholeOrUnknownWordLeavesTheLineAndMovesTheFocus(text: String) {
    var driver = Self.typed(text)
    driver.press(.tab)
    driver.answer()
    #expect(driver.model.page.query.text == text)
    #expect(driver.model.focus == .bar)
  }

  @Test func aValueNothingStartsWithSaysSo() {
    var driver = Self.typed("customer:zz")
    driver.press(.tab)
    driver.answer()
    #expect(driver.model.page.query.text == "customer:zz")
    #expect(driver.bottomLine == "No value of this field starts with “zz”")
  }

  @Test func valuesArrivingAfterAnEditAreNotTaken() {
    var driver = Self.typed("customer:ac")
    driver.press(.tab)
    driver.type("x")
    driver.answer()
    #expect(driver.model.page.query.text == "customer:acx")
  }

  @Test func theCursorInsideTheLineCompletesTheWordBeforeIt() {
    var driver = Self.typed("cus status:received")
    for _ in 0..<16 { driver.press(.left) }
    driver.press(.tab)
    #expect(driver.model.page.query.text == "customer: status:received")
    #expect(driver.model.page.query.cursor == 9)
  }
}
