import SiftCore
import Testing

@testable import SiftScreen

extension Driver {
  /// The record's page's scroll line, or `nil` when it is not open.
  var recordTop: Int? {
    if case .record(let top) = model.overlay { return top }
    return nil
  }

  /// Replaces the list's result with one whose row `row` holds `cells` (the other rows kept).
  mutating func setRow(_ row: Int, _ cells: [String]) {
    var result = model.page.table!.result
    result.rows[row] = cells
    _ = model.receive(.list(id: model.page.listRequest!.id, result))
  }
}

/// The record's own page (Docs/Interactive.md, The record's page): key sequences → states.
@Suite struct RecordPageTests {
  @Test func enterOpensTheHighlightedRecord() {
    var driver = Driver(Fixture.setup())
    driver.press(.down, .enter)
    #expect(driver.recordTop == 0)
    let text = driver.text()
    #expect(text.hasPrefix("‹ Back  Record 2 — GRN List"))
    // Every field, label and value, one a line (sorted by -date: GRN-0008 second).
    #expect(text.contains("  GRN No    GRN-0008\n"))
    #expect(text.contains("  Customer  Globex\n"))
    #expect(text.contains("Record 2 of 8"))
  }

  @Test func enterElsewhereThanTheListOpensNothing() {
    var driver = Driver(Fixture.setup())
    driver.press(.tab, .enter)
    #expect(driver.recordTop == nil)
    #expect(driver.model.focus == .list)
  }

  @Test func upAndDownScrollWithinTheFields() {
    var driver = Driver(Fixture.setup(), size: ScreenSize(columns: 100, rows: 6))
    driver.press(.enter)
    driver.press(.down)
    #expect(driver.recordTop == 1)
    // 7 fields in 4 lines: the page stops when the last field is on screen.
    driver.press(.down, .down, .down, .down)
    #expect(driver.recordTop == 3)
    #expect(driver.text().split(separator: "\n")[4] == "  Item      梱包テープ 48mm")
    driver.press(.up)
    #expect(driver.recordTop == 2)
    driver.press(.home)
    #expect(driver.recordTop == 0)
    driver.press(.end)
    #expect(driver.recordTop == 3)
    driver.press(.pageUp)
    #expect(driver.recordTop == 0)
  }

  @Test(arguments: [
    ([Key.right], 1), ([.text("]")], 1), ([.right, .right, .left], 1), ([.right, .text("[")], 0),
    ([.left], 0), (Array(repeating: .right, count: 12), 7),
  ])
  func leftAndRightGoToThePreviousAndNextRecord(keys: [Key], row: Int) {
    var driver = Driver(Fixture.setup())
    driver.press(.enter)
    for key in keys { driver.press(key) }
    #expect(driver.recordTop == 0)
    #expect(driver.model.page.row == row)
    #expect(driver.text().hasPrefix("‹ Back  Record \(row + 1) — GRN List"))
  }

  @Test func theNextRecordStartsAtItsFirstField() {
    var driver = Driver(Fixture.setup(), size: ScreenSize(columns: 100, rows: 6))
    driver.press(.enter, .down, .down, .right)
    #expect(driver.recordTop == 0)
  }

  @Test(arguments: [Key.escape, .backspace, .text("q")])
  func backToTheListAtTheRecordShown(key: Key) {
    var driver = Driver(Fixture.setup(), size: ScreenSize(columns: 100, rows: 10))
    driver.press(.enter, .right, .right, .right, .right, .right, key)
    #expect(driver.recordTop == nil)
    #expect(driver.model.page.row == 5)
    // The list scrolled to keep the row on screen.
    #expect(driver.text().contains("Row 6 of 8"))
    #expect(driver.screen().lines.contains { $0.spans.contains { $0.style == .focused } })
  }

  @Test func theFieldsOfTheQueryAreMarked() {
    var driver = Driver(Fixture.setup(query: "status:received sort:grn_no"))
    driver.press(.enter)
    let text = driver.text()
    #expect(text.contains("• Status    received\n"))
    #expect(text.contains("• GRN No    GRN-0001\n"))
    #expect(text.contains("  Customer  Acme\n"))
    #expect(text.contains("• filtered or sorted on"))
  }

  @Test func emptyValuesShowADash() {
    var driver = Driver(Fixture.setup())
    driver.setRow(0, ["GRN-0007", "2024-06-08", "", "東京商事", "20", "no", ""])
    driver.press(.enter)
    #expect(driver.text().contains("  Status    —\n"))
    #expect(driver.text().contains("  Item      —\n"))
  }

  @Test func longValuesWrapAndNestedJSONIsIndented() {
    var driver = Driver(Fixture.setup(), size: ScreenSize(columns: 40, rows: 30))
    driver.setRow(0, [
      "GRN-0007", "2024-06-08", "received", #"{"name":"Acme","tags":["a","b"],"empty":{}}"#, "20", "no",
      "Bubble wrap 750mm x 100m, perforated every 500mm, clear",
    ])
    driver.press(.enter)
    let lines = driver.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let customer = try! #require(lines.firstIndex { $0.hasPrefix("  Customer") })
    #expect(Array(lines[customer...].prefix(9)) == [
      "  Customer  {",
      "              \"name\": \"Acme\",",
      "              \"tags\": [",
      "                \"a\",",
      "                \"b\"",
      "              ],",
      "              \"empty\": {}",
      "            }",
      "  Qty       20",
    ])
    let item = try! #require(lines.firstIndex { $0.hasPrefix("  Item") })
    #expect(Array(lines[item...].prefix(3)) == [
      "  Item      Bubble wrap 750mm x 100m,",
      "            perforated every 500mm,",
      "            clear",
    ])
  }

  @Test func yCopiesTheRecordAsCSVAndSaysSo() {
    var driver = Driver(Fixture.setup())
    driver.setRow(1, ["GRN-0008", "2024-06-08", "received", "Globex, \"Ltd\"", "9", "no", "Party box"])
    driver.press(.enter, .right)
    driver.effects = []
    driver.press(.text("y"))
    #expect(driver.effects == [.copy(text: """
      grn_no,date,status,customer,qty,urgent,item
      GRN-0008,2024-06-08,received,"Globex, ""Ltd\"\"",9,no,Party box

      """)])
    #expect(driver.text().hasSuffix("Copied record 2 as CSV to the terminal's clipboard"))
    driver.press(.down)
    #expect(driver.text().hasSuffix("Record 2 of 8 · • filtered or sorted on · ← → previous, next · y copy · Esc back"))
  }

  @Test func yWithAWorkbookOutputCopiesCSVAndSaysCSV() {
    var setup = Fixture.setup()
    setup.copyFormat = .xlsx
    var driver = Driver(setup)
    driver.press(.enter)
    driver.effects = []
    driver.press(.text("y"))
    guard case .copy(let text)? = driver.effects.first else {
      Issue.record("nothing copied")
      return
    }
    #expect(text.hasPrefix("grn_no,date,status,customer,qty,urgent,item\n"))
    #expect(driver.text().hasSuffix("Copied record 1 as CSV to the terminal's clipboard"))
  }

  @Test func yInTheListCopiesNothing() {
    var driver = Driver(Fixture.setup())
    driver.effects = []
    driver.press(.text("y"))
    #expect(driver.effects.isEmpty)
  }

  @Test func aListWithoutRowsOpensNoPageButAnEmptyOne() {
    var driver = Driver(Fixture.setup(query: "status:nothing"))
    driver.press(.enter)
    #expect(driver.recordTop == nil)
  }
}

/// The record as the clipboard gets it, in each output format, and OSC 52's base64. The text is
/// the output writers' own: what `sift -o FORMAT` writes for the same record.
@Suite struct RecordCopyTests {
  static let columns = ["id", "name", "qty"]
  static let cells = ["7", "a|b <c> \"d\"", "1.5"]

  @Test(arguments: [
    (OutputFormat.csv, "id,name,qty\n7,\"a|b <c> \"\"d\"\"\",1.5\n"),
    (.table, "id,name,qty\n7,\"a|b <c> \"\"d\"\"\",1.5\n"),
    (.xlsx, "id,name,qty\n7,\"a|b <c> \"\"d\"\"\",1.5\n"),
    (.tsv, "id\tname\tqty\n7\ta|b <c> \"d\"\t1.5\n"),
    (.json, "[\n" + #"{"id":7,"name":"a|b <c> \"d\"","qty":1.5}"# + "\n]\n"),
    (.ndjson, #"{"id":7,"name":"a|b <c> \"d\"","qty":1.5}"# + "\n"),
    (.markdown, "| id | name | qty |\n| --- | --- | ---: |\n| 7 | a\\|b &lt;c&gt; \"d\" | 1.5 |\n"),
  ])
  func eachFormat(format: OutputFormat, text: String) {
    #expect(RecordCopy.text(columns: Self.columns, cells: Self.cells, numeric: [false, false, true], format: format) == text)
  }

  /// Values the hand-made copy got wrong: a tab and a line break in TSV, a line break in a
  /// Markdown cell, `007` in a numeric column (not a JSON number), an empty value.
  static let awkward = ["007", "one\ttwo\nthree", ""]

  @Test func tsvEscapesTabsAndLineBreaksAsTheWriterDoes() {
    let text = RecordCopy.text(columns: Self.columns, cells: Self.awkward, numeric: [true, false, true], format: .tsv)
    #expect(text == "id\tname\tqty\n007\tone\\ttwo\\nthree\t\n")
  }

  @Test func jsonWritesOnlyCanonicalNumbersBare() {
    let text = RecordCopy.text(columns: Self.columns, cells: Self.awkward, numeric: [true, false, true], format: .ndjson)
    #expect(text == #"{"id":"007","name":"one\ttwo\nthree","qty":""}"# + "\n")
  }

  @Test func markdownKeepsALineBreakInsideItsCell() {
    let text = RecordCopy.text(columns: Self.columns, cells: Self.awkward, numeric: [true, false, true], format: .markdown)
    #expect(text.split(separator: "\n").count == 3)
  }

  /// For every text format, the copy is byte for byte what sift's engine writes with `-o FORMAT`
  /// for the same record read from CSV.
  @Test(arguments: [OutputFormat.csv, .tsv, .json, .ndjson, .markdown, .html])
  func theCopyIsWhatSiftWritesForTheRecord(format: OutputFormat) throws {
    let cells = ["007", "a|b <c> \"d\", e\tf\ng & h", "1.5", ""]
    let columns = ["id", "name", "qty", "note"]
    let numeric = [true, false, true, false]
    let csv = columns.joined(separator: ",") + "\n"
      + cells.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\n"
    let reader = try ReaderFactory.makeReader(
      source: ByteSource(bytes: Array(csv.utf8), name: "input"), format: .csv,
      options: ReaderOptions(name: "input")
    ).reader
    let dataset = Dataset(inputs: [DatasetInput(reader: reader)], parallel: ParallelOptions(workers: 1))
    let sink = MemorySink()
    let buffer = OutputBuffer(sink: sink)
    let writer = makeWriter(WriterOptions(format: format, numericColumns: numeric), output: buffer)
    _ = try dataset.run(try dataset.plan(try Parser.parse(""), now: 0), writer: writer)
    try buffer.flush()
    #expect(RecordCopy.text(columns: columns, cells: cells, numeric: numeric, format: format) == sink.text)
  }

  @Test(arguments: [("", ""), ("M", "TQ=="), ("Ma", "TWE="), ("Man", "TWFu"), ("東", "5p2x")])
  func base64(text: String, encoded: String) {
    #expect(String(decoding: ClipboardSequence.base64(Array(text.utf8)), as: UTF8.self) == encoded)
  }

  @Test func theSequence() {
    #expect(ClipboardSequence.bytes("hi") == Array("\u{1B}]52;c;aGk=\u{07}".utf8))
  }
}

/// Wrapping and nested values, as tables.
@Suite struct RecordValueLayoutTests {
  @Test(arguments: [
    ("short", 10, ["short"]),
    ("two words", 5, ["two", "words"]),
    ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
    ("東京商事", 5, ["東京", "商事"]),
    ("", 4, [""]),
  ])
  func wrap(text: String, width: Int, lines: [String]) {
    #expect(TextWrap.lines(text, width: width) == lines)
    #expect(TextWrap.lines(text, width: width).allSatisfy { displayWidth(of: $0) <= width })
  }

  @Test(arguments: [
    ("plain text", ["plain text"]),
    ("{not json", ["{not json"]),
    ("[]", ["[]"]),
    (#"[1,2]"#, ["[", "  1,", "  2", "]"]),
    (#"{"a":"x, {y}"}"#, ["{", #"  "a": "x, {y}""#, "}"]),
    (#"{"q":"say \"hi\", ok"}"#, ["{", #"  "q": "say \"hi\", ok""#, "}"]),
  ])
  func nested(text: String, lines: [String]) {
    #expect(NestedValue.lines(text) == lines)
  }
}

/// The view's `key` field names the record (Docs/Views.md, The views file).
@Suite struct RecordKeyTests {
  static func setup(key: String) -> ScreenSetup {
    var setup = Fixture.setup(query: "sort:grn_no")
    setup.views[0].view?.key = key
    return setup
  }

  @Test func theRecordPageIsTitledByTheKeyFieldsValue() {
    var driver = Driver(Self.setup(key: "grn_no"))
    driver.press(.down, .enter)
    #expect(driver.text().hasPrefix("‹ Back  GRN-0002 — GRN List"))
    driver.press(.right)
    #expect(driver.text().hasPrefix("‹ Back  GRN-0003 — GRN List"))
  }

  @Test(arguments: ["GRN No", "Customer"])
  func theKeyIsMatchedAsAFieldNameIs(key: String) {
    var driver = Driver(Self.setup(key: key))
    driver.press(.enter)
    #expect(driver.text().hasPrefix(key == "Customer" ? "‹ Back  Acme — GRN List" : "‹ Back  GRN-0001 — GRN List"))
  }

  @Test func aKeyTheResultLacksFallsBackToTheNumber() {
    var driver = Driver(Self.setup(key: "nosuch"))
    driver.press(.enter)
    #expect(driver.text().hasPrefix("‹ Back  Record 1 — GRN List"))
  }
}
