import SiftCore

/// The interactive screen's logic (Docs/Interactive.md): the state of every view, the focus, the
/// filter sheet and help, changed by keys and run outcomes; `render` draws it.
public struct ScreenModel: ScreenLogic {
  /// What has the keyboard (Docs/Interactive.md, Keys): Tab cycles query → bar → list.
  enum Focus: CaseIterable, Sendable { case query, bar, list }

  /// A modal over the screen.
  enum Overlay: Sendable {
    /// The keys, scrolled to line `top`.
    case help(top: Int)
    case sheet(FilterSheet)
    /// The highlighted row's own page, scrolled to line `top`.
    case record(top: Int)
  }

  let setup: ScreenSetup
  var pages: [Page]
  var active: Int
  var focus: Focus = .list
  var overlay: Overlay?
  /// The size `render` will draw at, for paging (`resize`).
  var size = ScreenSize(columns: 80, rows: 24)
  /// What the bottom line says after `y`, an export or a find, until the next key.
  var notice: Notice?
  /// The question on the bottom line (an export's file name, find's text), which has the keys.
  var prompt: BottomPrompt?
  /// The export under way: its request, what it writes and how many records.
  var exportRequest: (id: Int, order: ExportOrder, count: Int)?
  /// Tab's wait for a field's values: the query line as it was and the word to complete.
  var completionRequest: (id: Int, line: TextField, completion: QueryCompletion)?
  /// The text the last find looked for; `n` and `N` look for it again.
  var findText = ""
  /// The id of the next run request.
  var nextID = 1

  public init(setup: ScreenSetup) {
    self.setup = setup
    pages = setup.views.indices.map { Page(query: $0 == setup.active ? setup.query : "") }
    active = min(max(setup.active, 0), max(setup.views.count - 1, 0))
  }

  var page: Page {
    get { pages[active] }
    set { pages[active] = newValue }
  }

  // MARK: Effects

  public mutating func start() -> [ScreenEffect] {
    [listRun(afterPause: false)] + badgeRuns()
  }

  /// Asks for every view's badge.
  mutating func badgeRuns() -> [ScreenEffect] {
    setup.views.indices.filter { setup.views[$0].view?.badge != nil }.map { index in
      let id = takeID()
      pages[index].badgeRequest = id
      return .run(RunRequest(id: id, view: index, purpose: .badge, query: "", afterPause: false))
    }
  }

  public mutating func resize(to size: ScreenSize) {
    self.size = size
    keepRowInView()
    if case .sheet(var sheet) = overlay {
      sheet.keepCursorInView(height: sheetHeight)
      overlay = .sheet(sheet)
    }
  }

  mutating func takeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  /// Asks for the active view's list with the query line's text.
  mutating func listRun(afterPause: Bool) -> ScreenEffect {
    let id = takeID()
    let text = page.query.text
    page.listRequest = (id, text)
    page.progress = nil
    return .run(RunRequest(id: id, view: active, purpose: .list, query: text, afterPause: afterPause))
  }

  /// Leaving: the command line that reproduces the active view (Docs/Interactive.md, Leaving).
  /// While the query line holds an error, the query of the records on screen (the last one that
  /// ran), or none, so the command printed never fails on it.
  var quitEffect: ScreenEffect {
    var words = ["sift"] + setup.leadingArguments
    if let name = setup.views[active].view?.name { words.append("@" + name) }
    let query = (page.error == nil ? page.query.text : page.table?.query ?? "").trimmingSpaces
    // Before FILEs an empty query is written out (`sift '' grn.csv`): the first word after the
    // options is always the query (Docs/CommandLine.md).
    if !query.isEmpty || !setup.files.isEmpty { words.append(query) }
    return .quit(arguments: words + setup.files)
  }

  // MARK: Keys

  public mutating func handle(_ key: Key) -> [ScreenEffect] {
    if key == .control("c") { return [quitEffect] }
    notice = nil
    if let prompt { return handlePrompt(key, prompt) }
    switch overlay {
    case .help(let top):
      let page = max(1, size.rows - 1)
      switch key {
      case .escape, .enter, .text("?"), .text("q"): overlay = nil
      case .up: overlay = .help(top: max(0, top - 1))
      case .down: overlay = .help(top: top + 1)
      case .pageUp: overlay = .help(top: max(0, top - page))
      case .pageDown: overlay = .help(top: top + page)
      default: break
      }
      return []
    case .sheet(var sheet):
      return handleSheet(key, &sheet)
    case .record(let top):
      return handleRecord(key, top: top)
    case nil:
      break
    }
    if focus == .query, let effects = handleQuery(key) { return effects }
    switch key {
    case .tab: moveFocus(1)
    case .backTab: moveFocus(-1)
    case .text("/"):
      focus = .query
      _ = page.query.edit(.end)
    case .text("q"): return [quitEffect]
    case .text("?"): overlay = .help(top: 0)
    case .text("f"): return openSheet(at: nil)
    case .text("s"): return openSheet(at: .sort)
    case .control("f"): openFind()
    case .text("["): return switchView(to: (active + pages.count - 1) % pages.count)
    case .text("]"): return switchView(to: (active + 1) % pages.count)
    case .text(let digit) where ["1", "2", "3", "4", "5"].contains(digit):
      let index = Int(digit)! - 1
      if index < pages.count { return switchView(to: index) }
    default:
      if focus == .bar { return handleBar(key) }
      if focus == .list { return handleList(key) }
    }
    return []
  }

  private mutating func moveFocus(_ step: Int) {
    let all = Focus.allCases
    focus = all[(all.firstIndex(of: focus)! + step + all.count) % all.count]
  }

  /// The query line's keys; `nil` for keys it leaves to the rest of the screen (Tab, Ctrl-C).
  private mutating func handleQuery(_ key: Key) -> [ScreenEffect]? {
    switch key {
    case .escape, .enter:
      focus = .list
      return []
    case .tab:
      return complete()
    case .backTab:
      return nil
    default:
      let (handled, changed) = page.query.edit(key)
      guard handled else { return [] }
      guard changed else { return [] }
      page.drilledFrom = nil
      return [listRun(afterPause: true)]
    }
  }

  private mutating func switchView(to index: Int) -> [ScreenEffect] {
    guard index != active else { return [] }
    active = index
    keepRowInView()
    return page.hasList ? [] : [listRun(afterPause: false)]
  }

  // MARK: List

  /// Rows of the list body (between the table's header and the position line) at `size`.
  var listHeight: Int { max(1, size.rows - ScreenLayout(self).fixedRows) }

  private mutating func handleList(_ key: Key) -> [ScreenEffect] {
    if key == .backspace || key == .escape { return drillBack() }
    guard let table = page.table, !table.result.rows.isEmpty else { return [] }
    let last = table.result.rows.count - 1
    let onHeading = page.onHeading
    page.onHeading = false
    switch key {
    case .left, .right:
      // Sideways: one column at a time, from where the screen shows it now.
      page.onHeading = onHeading
      let window = columnWindow(table, width: size.columns)
      page.firstColumn = window.start
      if key == .left, window.hiddenLeft { page.firstColumn -= 1 }
      if key == .right, window.hiddenRight { page.firstColumn += 1 }
      return []
    case .text("m"):
      page.marks.toggle(page.place, listed: table.places)
      page.row += 1
    case .text("M"):
      page.onHeading = onHeading
      page.marks.toggleAll()
      return []
    case .text("e"):
      page.onHeading = onHeading
      openExport()
      return []
    case .text("n"), .text("N"):
      findAgain(forward: key == .text("n"))
      return []
    case .enter:
      if onHeading {
        // It stays on the heading when the grouping cannot be drilled (a view's preset query's).
        page.onHeading = true
        return drillDown()
      }
      overlay = .record(top: 0)
      return []
    case .up:
      // The highlight rests on a group's heading between its first row and the row above.
      if !onHeading && rowStartsGroup {
        page.onHeading = true
      } else {
        return move(to: page.place - 1, in: table)
      }
    case .down:
      if !onHeading { return move(to: page.place + 1, in: table) }
    case .pageUp: return move(to: page.place - listHeight, in: table)
    case .pageDown: return move(to: page.place + listHeight, in: table)
    case .text("g"), .home: return move(to: 0, in: table)
    case .text("G"), .end: return move(to: table.rowCount - 1, in: table)
    default:
      page.onHeading = onHeading
      return []
    }
    page.row = min(max(page.row, 0), last)
    keepRowInView()
    return []
  }

  /// Moves the highlight to the row at `place` in the result (within its bounds): among the rows
  /// kept, at once; past them, it asks for the window of rows around it, and the highlight moves
  /// there when it arrives (Docs/Interactive.md, List). A window is asked for only while the
  /// result on screen is of the newest query (a typed one waiting runs first).
  mutating func move(to place: Int, in table: ListTable) -> [ScreenEffect] {
    let place = min(max(place, 0), max(0, table.rowCount - 1))
    let places = table.places
    guard !places.contains(place), page.listRequest?.query == table.query else {
      page.row = min(max(place - places.lowerBound, 0), max(0, table.result.rows.count - 1))
      keepRowInView()
      return []
    }
    let half = ListResult.rowLimit / 2
    let firstRow = min(max(0, place - half), max(0, table.rowCount - ListResult.rowLimit))
    let id = takeID()
    page.listRequest = (id, table.query)
    page.pendingPlace = place
    page.progress = nil
    return [
      .run(RunRequest(
        id: id, view: active, purpose: .list, query: table.query, afterPause: false,
        firstRow: firstRow))
    ]
  }

  /// Scrolls the list so the highlighted row (and its group's heading, when it is the group's
  /// first row) is on screen.
  mutating func keepRowInView() {
    guard let table = page.table, !table.lineOfRow.isEmpty else {
      page.top = 0
      return
    }
    page.row = min(max(page.row, 0), table.lineOfRow.count - 1)
    let line = table.lineOfRow[page.row]
    var first = line
    while first > 0, case .heading = table.lines[first - 1] { first -= 1 }
    if first < page.top { page.top = first }
    if line >= page.top + listHeight { page.top = line - listHeight + 1 }
    page.top = max(0, min(page.top, max(0, table.lines.count - listHeight)))
    if first < page.top, line - first < listHeight { page.top = first }
  }

  // MARK: Outcomes

  public mutating func receive(_ outcome: RunOutcome) -> [ScreenEffect] {
    if outcome.id == exportRequest?.id {
      receiveExport(outcome)
    } else if outcome.id == completionRequest?.id {
      return receiveCompletion(outcome)
    } else if let index = pages.firstIndex(where: { $0.listRequest?.id == outcome.id }) {
      return receiveList(outcome, view: index)
    } else if let index = pages.firstIndex(where: { $0.badgeRequest == outcome.id }) {
      switch outcome {
      case .badge(_, let count): pages[index].badge = .count(count)
      case .sourceError, .queryError: pages[index].badge = .broken
      default: break
      }
    } else if case .sheet(var sheet) = overlay {
      switch outcome {
      case .values(let id, let field, let values, let complete):
        sheet.receive(id: id, field: field, values: values, complete: complete)
      case .queryError(let id, let message, _), .sourceError(let id, let message):
        sheet.fail(id: id, message: message)
      default: break
      }
      sheet.keepCursorInView(height: sheetHeight)
      overlay = .sheet(sheet)
    }
    return []
  }

  private mutating func receiveList(_ outcome: RunOutcome, view index: Int) -> [ScreenEffect] {
    var page = pages[index]
    var effects: [ScreenEffect] = []
    switch outcome {
    case .progress(_, let count): page.progress = count
    case .list(_, let result):
      let previous = page.table
      // The highlight keeps its place in the result, or moves to the one asked for.
      let place = page.pendingPlace ?? page.place
      page.pendingPlace = nil
      page.table = ListTable(result, query: page.listRequest?.query ?? "")
      page.row = max(0, place - result.firstRow)
      page.error = nil
      page.sourceError = nil
      page.progress = nil
      if previous?.query != page.table?.query {
        page.row = 0
        page.onHeading = false
        page.marks = RecordMarks()
      }
      page.chip = min(page.chip, max(0, result.chips.count - 1))
      // A pipe still open: the same query again over what arrives next (Docs/Interactive.md,
      // Piped standard input), after the pause a typed query waits for.
      // Its end: the badges counted what had arrived, so they count again.
      if previous?.result.arriving != nil && result.arriving == nil { effects += badgeRuns() }
      if result.arriving != nil, let query = page.listRequest?.query {
        let id = takeID()
        page.listRequest = (id, query)
        effects.append(
          .run(RunRequest(
            id: id, view: index, purpose: .list, query: query, afterPause: true,
            firstRow: result.firstRow)))
      }
    case .queryError(_, let message, let span):
      page.error = (message, span)
      page.progress = nil
      page.pendingPlace = nil
    case .sourceError(_, let message):
      page.sourceError = message
      page.progress = nil
      page.pendingPlace = nil
    case .values, .badge, .exported, .exportRefused:
      break
    }
    pages[index] = page
    if index == active { keepRowInView() }
    return effects
  }
}

extension String {
  /// The text without leading and trailing whitespace.
  var trimmingSpaces: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
