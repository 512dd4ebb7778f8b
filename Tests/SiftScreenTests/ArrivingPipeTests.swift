import SiftCore
import Testing

@testable import SiftScreen

/// A pipe still open (Docs/Interactive.md, Piped standard input): the list shows the records
/// arrived so far and asks for them again as more arrive; a query typed meanwhile runs at once
/// over what has arrived. The session's stand-in here is a source that delivers the fixture's
/// records in steps.
@Suite struct ArrivingPipeTests {
  /// A pipe delivering the fixture's rows: `arrived` of them so far, open until `ended`.
  struct SteppedPipe {
    var arrived: Int
    var ended = false

    /// The counts the runner would give: a header line and a line per record, 40 bytes each.
    var counts: ArrivingInput.Counts {
      let lines = arrived + 1
      return ArrivingInput.Counts(lines: lines, bytes: lines * 40, complete: lines * 40, ended: ended)
    }

    /// The answer to `request` over the rows arrived so far.
    func answer(_ request: RunRequest, setup: ScreenSetup) -> RunOutcome {
      guard case .list(let id, var result) = Fixture.answer(request, setup: setup) else {
        return Fixture.answer(request, setup: setup)
      }
      // The fixture's list is in input order here (no sort): the rows arrived are a prefix.
      let arrivedRows = Set(Fixture.rows.prefix(arrived).map { $0[0] })
      result.rows = result.rows.filter { arrivedRows.contains($0[0]) }
      result.summary.total = arrived
      result.summary.matched = result.rows.count
      result.summary.shown = result.rows.count
      result.arriving = ended ? nil : counts
      return .list(id: id, result)
    }
  }

  /// The runs asked for in `effects`.
  func runs(_ effects: [ScreenEffect]) -> [RunRequest] {
    effects.compactMap { if case .run(let request) = $0 { request } else { nil } }
  }

  /// The list runs asked for in `effects`.
  func listRuns(_ effects: [ScreenEffect]) -> [RunRequest] {
    runs(effects).filter { $0.purpose == .list }
  }

  func positionLine(_ model: ScreenModel) -> String {
    model.render(ScreenSize(columns: 100, rows: 16)).lines.map { $0.text.trimmingTrailingSpaces }
      .first { $0.hasPrefix("Row ") || $0.hasPrefix("Reading") } ?? ""
  }

  static let setup = Fixture.setup(views: false)

  /// The screen as it opens over standard input, and its first list run (not answered yet).
  func opened() throws -> (ScreenModel, RunRequest) {
    var model = ScreenModel(setup: Self.setup)
    model.resize(to: ScreenSize(columns: 100, rows: 16))
    let first = try #require(listRuns(model.start()).first)
    return (model, first)
  }

  func barCounts(_ model: ScreenModel) -> String {
    model.render(ScreenSize(columns: 100, rows: 16)).lines.map { $0.text.trimmingTrailingSpaces }
      .first { $0.hasSuffix(" records") || $0.hasSuffix(" record") } ?? ""
  }

  @Test func theListFillsAsRecordsArriveAndStopsAskingOnceThePipeEnds() throws {
    let setup = Self.setup
    var (model, request) = try opened()
    var pipe = SteppedPipe(arrived: 3)
    // Three records so far: listed, counted, and the pipe said to be still open.
    var next = listRuns(model.receive(pipe.answer(request, setup: setup)))
    #expect(model.page.table?.result.rows.count == 3)
    #expect(positionLine(model) == "Row 1 of 3 · Reading… 4 lines (1 KB) so far · the pipe is still open")
    #expect(barCounts(model).hasSuffix("3 records"))
    // The same query again, after the typing pause, over what arrives next.
    request = try #require(next.first)
    #expect(next.count == 1 && request.afterPause && request.query == "")
    _ = model.handle(.down)
    // A run under way over the records arrived keeps the rows on screen.
    _ = model.receive(.progress(id: request.id, .records(2)))
    #expect(positionLine(model).hasPrefix("Row 2 of 3 · Reading… 4 lines"))
    pipe.arrived = 6
    next = listRuns(model.receive(pipe.answer(request, setup: setup)))
    #expect(model.page.table?.result.rows.count == 6)
    #expect(positionLine(model) == "Row 2 of 6 · Reading… 7 lines (1 KB) so far · the pipe is still open",
            "the highlight stays on its row")
    #expect(barCounts(model).hasSuffix("6 records"))
    request = try #require(next.first)
    pipe.arrived = 8
    pipe.ended = true
    next = listRuns(model.receive(pipe.answer(request, setup: setup)))
    #expect(next.isEmpty, "the pipe ended: nothing more to follow")
    #expect(model.page.table?.result.rows.count == 8)
    #expect(positionLine(model) == "Row 2 of 8")
  }

  /// The list of a pipe still open, at 40, 100 and 200 columns: its rows, the bar's counts of
  /// what has arrived, the position line saying so.
  @Test func theScreenOfAPipeStillOpen() throws {
    var driver = Driver(Fixture.setup(views: false))
    driver.press(.text("/"))
    driver.type("status:received")
    driver.press(.escape)
    let request = try #require(driver.runs.last)
    driver.effects = []
    _ = driver.model.receive(SteppedPipe(arrived: 6).answer(request, setup: Self.setup))
    try GoldenScreens.check("pipe-arriving", driver, rows: 10)
  }

  @Test func aQueryTypedWhileThePipeIsOpenRunsOverWhatHasArrived() throws {
    let setup = Self.setup
    var (model, first) = try opened()
    let pipe = SteppedPipe(arrived: 5)
    let follow = try #require(listRuns(model.receive(pipe.answer(first, setup: setup))).first)
    _ = model.handle(.text("/"))
    var typed: [RunRequest] = []
    for character in "status:received" { typed += listRuns(model.handle(.text(String(character)))) }
    // Each edit asks at once (after the typing pause, as ever), nothing waits for the pipe's end.
    let last = try #require(typed.last)
    #expect(last.query == "status:received" && last.id > follow.id)
    // The follow-up of the old query is stale now: its answer is ignored.
    #expect(listRuns(model.receive(pipe.answer(follow, setup: setup))).isEmpty)
    let next = listRuns(model.receive(pipe.answer(last, setup: setup)))
    #expect(model.page.table?.result.rows.map { $0[0] } == ["GRN-0001", "GRN-0003", "GRN-0005"])
    #expect(positionLine(model).hasPrefix("Row 1 of 3 · Reading… 6 lines"))
    #expect(barCounts(model).hasSuffix("3 of 5 records"))
    #expect(next.map(\.query) == ["status:received"], "the typed query follows the pipe")
  }

  @Test func noMatchYetStillSaysThePipeIsOpen() throws {
    var (model, first) = try opened()
    _ = model.receive(SteppedPipe(arrived: 0).answer(first, setup: Self.setup))
    #expect(positionLine(model) == "Reading… 1 line (1 KB) so far · the pipe is still open")
  }

  /// With views over standard input (`sift -i @grn -`), the badges counted what had arrived
  /// when they ran: the pipe's end counts them again.
  @Test func thePipesEndCountsTheBadgesAgain() throws {
    let setup = Fixture.setup()
    var model = ScreenModel(setup: setup)
    model.resize(to: ScreenSize(columns: 100, rows: 16))
    let opening = runs(model.start())
    let badges = opening.filter { $0.purpose == .badge }
    #expect(badges.count == 3)
    var request = try #require(opening.first { $0.purpose == .list })
    var pipe = SteppedPipe(arrived: 4)
    var next = runs(model.receive(pipe.answer(request, setup: setup)))
    #expect(next.map(\.purpose) == [RunRequest.Purpose.list], "still open: the list alone follows")
    request = try #require(next.first)
    pipe.ended = true
    next = runs(model.receive(pipe.answer(request, setup: setup)))
    #expect(next.map(\.purpose) == badges.map(\.purpose))
    #expect(next.map(\.view) == badges.map(\.view))
  }

  /// The runner gives the last list again, not running it, while nothing new has arrived, and
  /// runs it again when a line has and its wait is over (FollowedList).
  @Test(arguments: [
    // (lines arrived since, milliseconds since it finished, the run took, runs again)
    (0, 10_000, 10, false),
    (5, 100, 10, false),
    (5, 300, 10, true),
    (5, 300, 200, false),
    (5, 401, 200, true),
  ])
  func aFollowedListRunsAgainOnlyWhenDue(arrivedSince: Int, after: Int, took: Int, runs: Bool) {
    let request = RunRequest(id: 1, view: 0, purpose: .list, query: "x", afterPause: true)
    let before = ArrivingInput.Counts(lines: 10, bytes: 400, complete: 400, ended: false)
    guard case .list(_, var result) = SteppedPipe(arrived: 3).answer(request, setup: Fixture.setup(views: false))
    else { Issue.record("no list"); return }
    result.arriving = before
    let followed = FollowedList(request, result: result, took: Int64(took))
    var now = before
    now.lines += arrivedSince
    now.complete += arrivedSince * 40
    now.bytes = now.complete + 7
    let again = followed.again(request, arrived: now, now: MonotonicClock.now() + Int64(after))
    #expect((again == nil) == runs)
    if let again { #expect(again.arriving == now, "given again with the counts of now") }
    var ended = now
    ended.ended = true
    #expect(followed.again(request, arrived: ended) == nil, "the pipe's end always runs")
    let other = RunRequest(id: 2, view: 0, purpose: .list, query: "y", afterPause: true)
    #expect(followed.again(other, arrived: before) == nil, "another query runs")
  }
}
