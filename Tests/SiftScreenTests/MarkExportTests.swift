import SiftCore
import Testing

@testable import SiftScreen

extension Driver {
  /// The bottom line's question, or `nil` when none is asked.
  var prompt: BottomPrompt? { model.prompt }

  /// The screen's last line before the tab bar: the position line or the question.
  var bottomLine: String {
    let lines = text().split(separator: "\n", omittingEmptySubsequences: false)
    return String(lines[lines.count - (model.setup.views.count >= 2 ? 2 : 1)])
  }

  /// The exports asked for since the last answer.
  var exports: [ExportOrder] {
    runs.compactMap { if case .export(let order) = $0.purpose { return order } else { return nil } }
  }
}

/// Marking records and exporting them (Docs/Interactive.md, Marking and export): key sequences
/// → states.
@Suite struct MarkExportTests {
  @Test func mMarksTheHighlightedRecordAndMovesDown() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("m"))
    #expect(driver.model.page.marks.contains(0))
    #expect(driver.model.page.row == 1)
    driver.press(.text("m"))
    #expect(driver.bottomLine.hasSuffix("2 marked"))
    let rows = driver.text().split(separator: "\n")
    // The marks stand in two columns before the table.
    #expect(rows[5].hasPrefix("• GRN-"))
    #expect(rows[6].hasPrefix("• GRN-"))
    #expect(rows[7].hasPrefix("  GRN-"))
    #expect(rows[3].hasPrefix("  grn_no"))
    // m again unmarks.
    driver.press(.up, .text("m"))
    #expect(!driver.model.page.marks.contains(1))
    #expect(driver.bottomLine.hasSuffix("1 marked"))
  }

  @Test func capitalMMarksAllThenClears() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("M"))
    #expect(driver.model.page.marks.all)
    #expect(driver.bottomLine.hasSuffix("all marked"))
    // Unmarking one of all keeps every other listed record marked.
    driver.press(.down, .text("m"))
    #expect(driver.model.page.marks.exported == [0, 2, 3, 4, 5, 6, 7])
    driver.press(.text("M"))
    #expect(driver.model.page.marks.isEmpty)
    #expect(!driver.text().contains("•"))
  }

  @Test func aNewQueryClearsTheMarks() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("m"), .text("/"))
    driver.type("status:received")
    driver.answer()
    #expect(driver.model.page.marks.isEmpty)
  }

  @Test func eOffersTheViewAndTodayAndEnterWritesTheWholeResult() throws {
    var driver = Driver(Fixture.setup(query: "status:received"))
    driver.press(.text("e"))
    #expect(driver.bottomLine == "Export 5 records to: grn-2024-06-08.csv")
    #expect(driver.screen().cursor == Frame.Position(row: 14, column: 39))
    driver.press(.enter)
    #expect(driver.prompt == nil)
    let order = try #require(driver.exports.first)
    #expect(order == ExportOrder(path: "grn-2024-06-08.csv", format: .csv, records: nil, replace: false))
    // The query of the records on screen is run again into the file.
    #expect(driver.runs.first?.query == "status:received")
    #expect(driver.bottomLine == "Exporting 5 records to grn-2024-06-08.csv…")
    driver.answer()
    #expect(driver.bottomLine == "Exported 5 records to grn-2024-06-08.csv")
    // The next key clears the bar's word.
    driver.press(.down)
    #expect(driver.bottomLine.hasPrefix("Row 2 of 5"))
  }

  @Test func theMarkedRecordsAreExportedByTheirPlace() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.down, .text("m"), .down, .text("m"))
    driver.press(.text("e"))
    #expect(driver.bottomLine == "Export 2 records to: grn-2024-06-08.csv")
    driver.press(.control("u"))
    driver.type("picked.ndjson")
    driver.press(.enter)
    #expect(driver.exports == [ExportOrder(path: "picked.ndjson", format: .ndjson, records: [1, 3], replace: false)])
  }

  @Test func escCancelsAndTypingEditsTheName() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("e"), .backspace, .backspace, .backspace)
    driver.type("tsv")
    #expect(driver.bottomLine == "Export 8 records to: grn-2024-06-08.tsv")
    driver.press(.escape)
    #expect(driver.prompt == nil)
    #expect(driver.runs.isEmpty)
    #expect(driver.bottomLine.hasPrefix("Row 1 of 8"))
  }

  @Test func aNameWithoutAKnownExtensionIsRefusedInThePrompt() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("e"), .control("u"))
    driver.type("out.txt")
    driver.press(.enter)
    #expect(driver.runs.isEmpty)
    #expect(driver.bottomLine.contains("end the name in .csv .tsv .json .ndjson .md .html .xlsx"))
    // Typing on takes the message away.
    driver.press(.backspace)
    #expect(driver.bottomLine == "Export 8 records to: out.tx")
  }

  @Test func anExistingFileAsksBeforeItIsReplaced() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("e"), .enter)
    let request = try #require(driver.runs.first)
    driver.effects = []
    _ = driver.model.receive(
      .exportRefused(id: request.id, path: "grn-2024-06-08.csv", exists: true, message: "sift: File exists"))
    #expect(driver.bottomLine == "grn-2024-06-08.csv exists. Replace it? y yes  n no")
    // n goes back to the name.
    driver.press(.text("n"))
    #expect(driver.bottomLine == "Export 8 records to: grn-2024-06-08.csv")
    driver.press(.enter)
    let again = try #require(driver.runs.first)
    driver.effects = []
    _ = driver.model.receive(.exportRefused(id: again.id, path: "grn-2024-06-08.csv", exists: true, message: ""))
    driver.press(.text("y"))
    #expect(driver.exports == [ExportOrder(path: "grn-2024-06-08.csv", format: .csv, records: nil, replace: true)])
  }

  @Test func aFailedExportSaysWhy() throws {
    var driver = Driver(Fixture.setup())
    driver.press(.text("e"), .enter)
    let request = try #require(driver.runs.first)
    _ = driver.model.receive(
      .exportRefused(id: request.id, path: "grn.csv", exists: false, message: "sift: grn.csv: Permission denied"))
    #expect(driver.bottomLine == "sift: grn.csv: Permission denied")
    #expect(driver.screen().lines[14].spans.first?.style == .error)
  }

  @Test func keysKeepWorkingWhileAnExportRuns() {
    var driver = Driver(Fixture.setup())
    driver.press(.text("e"), .enter)
    driver.press(.down, .down)
    #expect(driver.model.page.row == 2)
    driver.answer()
    #expect(driver.bottomLine == "Exported 8 records to grn-2024-06-08.csv")
  }

  @Test(arguments: [
    ("grn.csv", OutputFormat.csv), ("out/GRN.TSV", .tsv), ("a.json", .json), ("a.ndjson", .ndjson),
    ("report.md", .markdown), ("r.html", .html), ("book.xlsx", .xlsx),
  ])
  func theExtensionNamesTheFormat(path: String, format: OutputFormat) {
    #expect(ExportOrder.format(ofPath: path) == format)
  }

  @Test(arguments: ["grn", "grn.txt", ".csv", "dir.csv/grn", "grn.csv.gz"])
  func otherNamesNameNoFormat(path: String) {
    #expect(ExportOrder.format(ofPath: path) == nil)
  }

  @Test(arguments: [
    ("grn", "2024-06-12", OutputFormat.csv, "grn-2024-06-12.csv"),
    ("SampleData/grn.csv", "2024-06-12", .table, "grn-2024-06-12.csv"),
    ("stdin", "2024-06-12", .json, "stdin-2024-06-12.json"),
    ("orders.ndjson", "2024-06-12", .markdown, "orders-2024-06-12.md"),
    ("grn.csv", "", .xlsx, "grn.xlsx"),
  ])
  func theDefaultName(source: String, today: String, format: OutputFormat, name: String) {
    #expect(ExportOrder.defaultName(source: source, today: today, format: format) == name)
  }
}
