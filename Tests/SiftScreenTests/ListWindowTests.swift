import SiftCore
import Testing

@testable import SiftScreen

/// A result longer than the rows a list keeps (Docs/Interactive.md, List): moving past the rows
/// kept asks for the window of rows there, and the highlight lands on the row asked for; `G`
/// reaches the last record of 1,000,000. The session's stand-in is a result of numbered rows
/// that answers any window.
@Suite struct ListWindowTests {
  static let records = 1_000_000
  static let size = ScreenSize(columns: 60, rows: 16)

  /// The rows `firstRow..<firstRow + rowLimit` of a result of `records` numbered rows.
  static func window(_ request: RunRequest, records: Int = records) -> RunOutcome {
    let rows = (request.firstRow..<min(records, request.firstRow + ListResult.rowLimit)).map {
      ["row \($0 + 1)", "\($0 % 7)"]
    }
    var summary = RunSummary()
    summary.total = records
    summary.matched = records
    summary.shown = records
    var result = ListResult(
      columns: ["name", "n"], numeric: [false, true], rows: rows, groups: [], summary: summary,
      chips: [], limited: false, fields: [("name", .text), ("n", .number)], sort: [], group: nil,
      inputError: nil)
    result.firstRow = request.firstRow
    return .list(id: request.id, result)
  }

  func listRuns(_ effects: [ScreenEffect]) -> [RunRequest] {
    effects.compactMap { effect in
      if case .run(let request) = effect, request.purpose == .list { return request }
      return nil
    }
  }

  func lines(_ model: ScreenModel) -> [String] {
    model.render(Self.size).lines.map { $0.text.trimmingTrailingSpaces }
  }

  func positionLine(_ model: ScreenModel) -> String {
    lines(model).first { $0.hasPrefix("Row ") || $0.hasPrefix("Reading") } ?? ""
  }

  /// The screen opened on the result, its first window answered.
  func opened() throws -> ScreenModel {
    var model = ScreenModel(setup: Fixture.setup(views: false))
    model.resize(to: Self.size)
    let first = try #require(listRuns(model.start()).first)
    #expect(first.firstRow == 0)
    _ = model.receive(Self.window(first))
    return model
  }

  /// Presses `key` and answers the window it asks for, if any; returns that window's first row.
  @discardableResult
  func press(_ key: Key, _ model: inout ScreenModel) -> Int? {
    guard let request = listRuns(model.handle(key)).first else { return nil }
    _ = model.receive(Self.window(request))
    return request.firstRow
  }

  /// Moves the highlight to the last of the first window's rows, a page and a row at a time,
  /// no window asked for on the way.
  func toLastRowKept(_ model: inout ScreenModel) {
    while model.page.place + model.listHeight < ListResult.rowLimit - 1 {
      #expect(press(.pageDown, &model) == nil)
    }
    while model.page.place < ListResult.rowLimit - 1 { #expect(press(.down, &model) == nil) }
  }

  @Test func endReachesTheLastRecordAndHomeTheFirst() throws {
    var model = try opened()
    #expect(positionLine(model) == "Row 1 of 1,000,000")
    #expect(press(.text("G"), &model) == 990_000)
    #expect(positionLine(model) == "Row 1,000,000 of 1,000,000")
    #expect(lines(model).contains { $0.hasPrefix("row 1000000 ") }, "the last record is listed")
    #expect(press(.up, &model) == nil, "a row kept: no run")
    #expect(positionLine(model) == "Row 999,999 of 1,000,000")
    #expect(press(.home, &model) == 0)
    #expect(positionLine(model) == "Row 1 of 1,000,000")
    #expect(lines(model).contains { $0.hasPrefix("row 1 ") })
    #expect(press(.end, &model) == 990_000)
    #expect(press(.text("g"), &model) == 0)
  }

  @Test func movingPastTheRowsKeptAsksForTheWindowAroundTheRowMovedTo() throws {
    var model = try opened()
    // To the last row kept, then one more: the window around row 10,001.
    toLastRowKept(&model)
    #expect(positionLine(model) == "Row 10,000 of 1,000,000")
    #expect(press(.down, &model) == 5_000)
    #expect(positionLine(model) == "Row 10,001 of 1,000,000")
    #expect(model.page.row == 5_000)
    #expect(lines(model).contains { $0.hasPrefix("row 10001 ") })
    // Up past the window's first row: the window before it.
    for _ in 0..<5_000 { press(.up, &model) }
    #expect(positionLine(model) == "Row 5,001 of 1,000,000")
    #expect(model.page.table?.result.firstRow == 5_000)
    #expect(press(.up, &model) == 0)
    #expect(positionLine(model) == "Row 5,000 of 1,000,000")
  }

  /// The window is of the shown query; while a typed query waits for its run, keys stay among
  /// the rows kept.
  @Test func noWindowIsAskedForWhileANewerQueryWaits() throws {
    var model = try opened()
    _ = model.handle(.text("/"))
    _ = model.handle(.text("x"))
    _ = model.handle(.escape)
    #expect(press(.text("G"), &model) == nil)
    #expect(positionLine(model) == "Row 10,000 of 1,000,000")
  }

  /// Marks are places in the result: a record marked in a window further down is marked there
  /// and is the one exported.
  @Test func marksArePlacesInTheResult() throws {
    var model = try opened()
    press(.text("G"), &model)
    _ = model.handle(.up)
    _ = model.handle(.text("m"))
    #expect(model.page.marks.exported == [999_998])
    #expect(positionLine(model).hasPrefix("Row 1,000,000 of 1,000,000 · 1 marked"))
    press(.text("g"), &model)
    #expect(model.page.marks.exported == [999_998], "kept when another window arrives")
    #expect(!lines(model).contains { $0.hasPrefix("• ") }, "no row of this window is marked")
  }

  /// The record's page moves along the whole result: `→` on the last row kept shows the next
  /// record once its window arrives.
  @Test func theRecordsPageMovesPastTheRowsKept() throws {
    var model = try opened()
    toLastRowKept(&model)
    _ = model.handle(.enter)
    #expect(lines(model).contains { $0.contains("Record 10,000 of 1,000,000") })
    #expect(press(.right, &model) == 5_000)
    #expect(lines(model).contains { $0.contains("Record 10,001 of 1,000,000") })
    #expect(lines(model).contains { $0.contains("row 10001") })
    #expect(press(.left, &model) == nil)
    #expect(lines(model).contains { $0.contains("Record 10,000 of 1,000,000") })
  }

  /// A run over the window asked for keeps the rows on screen and says it reads.
  @Test func theWindowsRunSaysItReads() throws {
    var model = try opened()
    let request = try #require(listRuns(model.handle(.text("G"))).first)
    _ = model.receive(.progress(id: request.id, .records(400_000)))
    #expect(positionLine(model) == "Reading… 400,000 records")
    #expect(lines(model).contains { $0.hasPrefix("row 1 ") })
    _ = model.receive(Self.window(request))
    #expect(positionLine(model) == "Row 1,000,000 of 1,000,000")
  }
}
