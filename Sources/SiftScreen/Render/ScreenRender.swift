import SiftCore

extension ScreenModel {
  /// The screen at `size` (Docs/Interactive.md, The screen): exactly `size.rows` lines.
  public func render(_ size: ScreenSize) -> Frame {
    var frame: Frame
    switch overlay {
    case .sheet(let sheet)?: frame = renderSheet(sheet, size)
    case .help(let top)?: frame = renderHelp(size, top: top)
    case .record(let top)?: frame = renderRecord(size, top: top)
    case nil: frame = renderMain(size)
    }
    frame.lines = Array(frame.lines.prefix(size.rows))
    while frame.lines.count < size.rows { frame.lines.append(StyledLine()) }
    return frame
  }

  private func renderMain(_ size: ScreenSize) -> Frame {
    let width = size.columns
    var lines = [navigationBar(width)]
    let query = queryLine(width)
    var cursor = focus == .query ? Frame.Position(row: lines.count, column: query.cursor) : nil
    lines.append(query.line)
    if let error = page.error { lines.append(caretLine(error, scroll: query.scroll, width: width)) }
    lines.append(feedbackBar(width))
    let layout = ScreenLayout(self)
    let listRows = max(1, size.rows - layout.fixedRows)
    let list = listLines(width: width, rows: listRows)
    lines += list + Array(repeating: StyledLine(), count: max(0, listRows + 2 - list.count))
    if let prompt {
      let asked = promptLine(prompt, width: width)
      if let column = asked.cursor { cursor = Frame.Position(row: lines.count, column: column) }
      lines.append(asked.line)
    } else {
      lines.append(positionLine(width))
    }
    if layout.hasTabs { lines.append(tabBar(width)) }
    if let row = cursor?.row, row >= size.rows { cursor = nil }
    return Frame(lines: lines, cursor: cursor)
  }

  var ellipsis: String { setup.ascii ? "..." : "…" }
  var separator: String { setup.ascii ? " | " : " · " }

  /// The title and subtitle (Docs/Views.md, Running a view) left, the key hints right; hints go
  /// first, from the right, when the line is narrow.
  func navigationBar(_ width: Int) -> StyledLine {
    let shown = setup.views[active]
    let title =
      shown.view.map { TitleLine(title: $0.displayTitle, subtitle: shown.sourceName, ascii: setup.ascii) }
      ?? TitleLine(title: shown.sourceName, subtitle: nil, ascii: setup.ascii)
    var hints = ["Filter f", "Sort s", "? help"]
    let titleWidth = displayWidth(of: title.text)
    while !hints.isEmpty, titleWidth + 2 + displayWidth(of: hints.joined(separator: "  ")) > width {
      hints.removeLast()
    }
    var line = LineBuilder(width: width, ascii: setup.ascii)
    line.append(title.title, .title)
    if let subtitle = title.subtitle { line.append(" \(title.dash) " + subtitle, .dim) }
    if !hints.isEmpty {
      let text = hints.joined(separator: "  ")
      line.pad(to: width - displayWidth(of: text))
      line.append(text, .dim)
    }
    return line.line
  }

  /// `/ ` and the query, scrolled sideways to keep the cursor on screen; the cursor's column, and
  /// how many characters were scrolled out on the left.
  func queryLine(_ width: Int) -> (line: StyledLine, cursor: Int, scroll: Int) {
    let prompt = "/ "
    let characters = page.query.characters
    let scroll = page.query.scroll(toFit: max(1, width - prompt.count - 1))
    var line = LineBuilder(width: width, ascii: setup.ascii)
    line.append(prompt, focus == .query ? .title : .dim)
    if characters.isEmpty && focus != .query {
      line.append("type / to filter", .dim)
    } else {
      line.append(String(characters[scroll...]))
    }
    let column = prompt.count + displayWidth(of: String(characters[scroll..<page.query.cursor]))
    return (line.line, min(column, max(0, width - 1)), scroll)
  }

  /// `^` under the characters a query error points at, then the message.
  func caretLine(_ error: (message: String, span: Range<Int>?), scroll: Int, width: Int) -> StyledLine {
    var line = LineBuilder(width: width, ascii: setup.ascii)
    let characters = page.query.characters
    if let span = error.span {
      let start = min(max(span.lowerBound, scroll), characters.count)
      let end = min(max(span.upperBound, start), characters.count)
      let column = 2 + displayWidth(of: String(characters[scroll..<start]))
      let carets = max(1, displayWidth(of: String(characters[start..<end])))
      line.pad(to: column)
      line.append(String(repeating: "^", count: carets) + " ", .error)
    } else {
      line.pad(to: 2)
    }
    line.append(error.message, .error)
    return line.line
  }

  /// `Reading… 1,250,000 records`; while a pipe is still open, what has arrived from it
  /// (Docs/Interactive.md, Piped standard input).
  func progressText(_ progress: RunCount) -> String {
    switch progress {
    case .records(let records):
      return "Reading\(ellipsis) \(groupedDigits(records)) \(records == 1 ? "record" : "records")"
    case .arriving(let lines, let bytes):
      let kilobytes = groupedDigits((bytes + 1023) / 1024)
      return "Reading\(ellipsis) \(groupedDigits(lines)) \(lines == 1 ? "line" : "lines") "
        + "(\(kilobytes) KB) so far\(separator)the pipe is still open"
    }
  }

  /// `Row 12 of 874`, or the progress of a run, or what the list holds.
  func positionLine(_ width: Int) -> StyledLine {
    var line = LineBuilder(width: width, ascii: setup.ascii)
    if let notice {
      line.append(notice.text, notice.isError ? .error : .dim)
    } else if let progress = page.progress, page.table?.result.arriving == nil {
      line.append(progressText(progress), .dim)
    } else if let table = page.table, !table.result.rows.isEmpty, page.sourceError == nil {
      var text = "Row \(groupedDigits(page.place + 1)) of \(groupedDigits(table.rowCount))"
      // A pipe still open: the rows of what has arrived (Docs/Interactive.md, Piped standard input).
      if let arriving = table.result.arriving { text += separator + arrivingText(arriving) }
      if page.marks.all {
        text += separator + "all marked"
      } else if !page.marks.isEmpty {
        text += separator + "\(groupedDigits(page.marks.rows.count)) marked"
      }
      let window = columnWindow(table, width: width)
      if window.hiddenLeft || window.hiddenRight {
        let range = window.shownRange
        let dash = setup.ascii ? "-" : "–"
        text += separator + "fields \(range.lowerBound)\(dash)\(range.upperBound) of \(window.count)"
      }
      line.append(text, .dim)
    } else if let arriving = page.table?.result.arriving, page.sourceError == nil {
      line.append(arrivingText(arriving), .dim)
    }
    return line.line
  }

  /// What a pipe still open has sent so far, as the position line says it.
  func arrivingText(_ arriving: ArrivingInput.Counts) -> String {
    progressText(.arriving(lines: arriving.lines, bytes: arriving.bytes))
  }

  /// The bottom line's question (Docs/Interactive.md, Marking and export, and Find) and the
  /// cursor's column in it.
  func promptLine(_ asked: BottomPrompt, width: Int) -> (line: StyledLine, cursor: Int?) {
    var line = LineBuilder(width: width, ascii: setup.ascii)
    func field(_ label: String, _ text: TextField) -> Int {
      line.append(label, .title)
      let characters = text.characters
      let scroll = text.scroll(toFit: max(1, width - displayWidth(of: label) - 1))
      line.append(String(characters[scroll...]))
      let column = displayWidth(of: label) + displayWidth(of: String(characters[scroll..<text.cursor]))
      return min(column, max(0, width - 1))
    }
    switch asked {
    case .export(let text, _, let count, let message):
      let cursor = field("Export \(recordCount(count)) to: ", text)
      if let message { line.append("  " + message, .error) }
      return (line.line, cursor)
    case .replace(let order, _):
      line.append("\(order.path) exists. Replace it? ", .title)
      line.append("y", .selected)
      line.append(" yes  ", .dim)
      line.append("n", .selected)
      line.append(" no", .dim)
      return (line.line, nil)
    case .find(let text):
      let cursor = field("Find: ", text)
      return (line.line, cursor)
    }
  }

  /// The views as tabs with their badges (Docs/Views.md, The views overview): at most five, the
  /// fifth `More (N)`; the active one in brackets.
  func tabBar(_ width: Int) -> StyledLine {
    let tabs = ViewTabs(
      tabs: setup.views.indices.map { index in
        ViewTabs.Tab(
          label: setup.views[index].view?.displayTitle ?? setup.views[index].sourceName,
          badge: pages[index].badge)
      }, active: active)
    let items = tabs.items(ascii: setup.ascii)
    let tabSeparator = setup.ascii ? " | " : " │ "
    // When the tabs do not fit, the first ones give way (`…` stands for them) until the
    // active tab is on screen.
    let activeItem = items.firstIndex(where: \.active) ?? 0
    func widthFrom(_ first: Int) -> Int {
      let tabs = items[first...activeItem].map { displayWidth(of: $0.text) + ($0.active ? 2 : 0) }
      let skipped = first > 0 ? displayWidth(of: ellipsis + tabSeparator) : 0
      return 1 + skipped + tabs.reduce(0, +) + tabSeparator.count * (activeItem - first)
    }
    var first = 0
    while first < activeItem, widthFrom(first) > width { first += 1 }
    var line = LineBuilder(width: width, ascii: setup.ascii)
    line.append(" ")
    if first > 0 { line.append(ellipsis + tabSeparator, .dim) }
    for (index, item) in items.enumerated().dropFirst(first) {
      if index > first { line.append(tabSeparator, .dim) }
      let style: TextStyle = item.active ? .tabActive : .tab
      line.append((item.active ? "[" : "") + item.label, style)
      if let badge = item.badge { line.append(" " + badge, item.views.count == 1 ? .badge : style) }
      if item.active { line.append("]", style) }
    }
    return line.line
  }
}
