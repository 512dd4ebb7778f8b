import SiftCore

extension ScreenModel {
  /// The filter sheet as a modal (Docs/Interactive.md, Filter sheet): `Cancel (Esc) · Filter ·
  /// Reset (r)` on top, the sections scrolled to the cursor, `Apply (Enter)` always at the bottom.
  func renderSheet(_ sheet: FilterSheet, _ size: ScreenSize) -> Frame {
    let width = size.columns
    var top = LineBuilder(width: width, ascii: setup.ascii)
    let (cancel, title, reset) = ("Cancel (Esc)", "Filter", "Reset (r)")
    top.append(cancel, .dim)
    top.pad(to: max(displayWidth(of: cancel) + 1, (width - title.count) / 2))
    top.append(title, .title)
    top.pad(to: max(top.used + 1, width - reset.count))
    top.append(reset, .dim)
    var lines = [top.line]
    var cursor: Frame.Position?
    let height = max(1, size.rows - 2)
    for row in sheet.rows.dropFirst(sheet.top).prefix(height) {
      let drawn = sheetRow(row, sheet, width: width)
      if row == sheet.cursor, let column = drawn.cursor { cursor = Frame.Position(row: lines.count, column: column) }
      lines.append(drawn.line)
    }
    while lines.count < size.rows - 1 { lines.append(StyledLine()) }
    var apply = LineBuilder(width: width, ascii: setup.ascii)
    let button = "Apply (Enter)"
    apply.pad(to: max(0, (width - button.count) / 2))
    apply.append(button, .chipActive)
    lines = Array(lines.prefix(max(0, size.rows - 1))) + [apply.line]
    return Frame(lines: lines, cursor: cursor)
  }

  /// One line of the sheet, and the cursor's column when the row is a text input.
  private func sheetRow(_ row: FilterSheet.Row, _ sheet: FilterSheet, width: Int)
    -> (line: StyledLine, cursor: Int?)
  {
    var line = LineBuilder(width: width, ascii: setup.ascii)
    let section = sheet.sections[row.section]
    let focused = row == sheet.cursor
    let (on, off) = setup.ascii ? ("(*)", "( )") : ("(•)", "( )")
    let (checked, unchecked) = ("[x]", "[ ]")
    func choice(_ mark: String, _ text: String, chosen: Bool, enabled: Bool = true) {
      let style: TextStyle = focused ? .focused : (!enabled ? .disabled : (chosen ? .selected : .plain))
      line.append("  ")
      line.append(mark + " " + text, style)
    }
    func input(_ label: String, _ field: TextField) -> Int {
      line.append("  " + label + " ")
      line.append("[", .dim)
      let start = line.used
      let shown = field.text + String(repeating: " ", count: max(0, 12 - displayWidth(of: field.text)))
      line.append(shown, focused ? .focused : .plain)
      line.append("]", .dim)
      return start + displayWidth(of: String(field.characters[..<field.cursor]))
    }
    var cursor: Int?
    switch (row, section.kind) {
    case (.heading, .values(let values)):
      line.append(section.title, .header)
      if !values.selected.isEmpty { line.append(" (\(values.selected.count) selected)", .dim) }
      if !values.complete { line.append(" · the most frequent values", .dim) }
    case (.heading, _):
      line.append(section.title, .header)
    case (.option(_, let option), .sort(let options, let chosen)):
      let text = options[option].map {
        "\(sheet.labels.label($0.field)) \($0.descending ? (setup.ascii ? "v" : "↓") : (setup.ascii ? "^" : "↑"))"
      } ?? "Input order"
      choice(option == chosen ? on : off, text, chosen: option == chosen)
    case (.option(_, let option), .group(let options, let chosen)):
      let enabled = sheet.groupOptionEnabled(options[option])
      let text = options[option].map(sheet.labels.label) ?? "None"
      choice(option == chosen ? on : off, text + (enabled ? "" : " (the sort field)"), chosen: option == chosen, enabled: enabled)
    case (.search, .values(let values)):
      cursor = input("Search", values.search)
      if values.nearlyDistinct && values.search.text.isEmpty {
        line.append("  nearly every value differs: type to find one", .dim)
      }
    case (.selectedHeading, _):
      line.append("  Selected", .dim)
    case (.value(_, let value), .values(let values)):
      // Counts stand in a column after the section's widest value (up to 30 columns).
      func shown(_ value: String) -> String { value.isEmpty ? "(empty)" : value }
      let all = (values.values ?? []).map(\.value) + values.selected
      let widest = min(30, all.map { displayWidth(of: shown($0)) }.max() ?? 0)
      let selected = values.selected.contains(value)
      var text = truncate(shown(value), toWidth: widest, ellipsis: ellipsis)
      text += String(repeating: " ", count: max(0, widest - displayWidth(of: text)))
      choice(selected ? checked : unchecked, text, chosen: selected)
      if let count = values.count(of: value).map(groupedDigits) {
        let widestCount = (values.values ?? []).map { groupedDigits($0.count).count }.max() ?? 0
        line.append("  " + String(repeating: " ", count: max(0, widestCount - count.count)) + count, .dim)
      }
    case (.note, .values(let values)):
      line.append("  " + (values.problem ?? "Counting\(ellipsis)"), values.problem == nil ? .dim : .error)
    case (.toggle, .toggle(let isOn)):
      let mark = isOn ? (setup.ascii ? "[--*]" : "[──●]") : (setup.ascii ? "[o--]" : "[○──]")
      choice(mark, isOn ? "On" : "Off", chosen: isOn)
    case (.preset(_, let preset), .dates(let chosen, _, _)):
      choice(chosen == preset ? on : off, FilterSheet.datePresets[preset].label, chosen: chosen == preset)
    case (.from, .dates(_, let from, _)): cursor = input("From", from)
    case (.to, .dates(_, _, let to)): cursor = input("To  ", to)
    case (.from, .numbers(let low, _)): cursor = input("Min", low)
    case (.to, .numbers(_, let high)): cursor = input("Max", high)
    default: break
    }
    return (line.line, cursor)
  }

  /// Every key by where it works (Docs/Interactive.md, Keys), from line `top` (↑ ↓ scroll);
  /// on a narrow screen each meaning goes on its own line under its keys.
  func renderHelp(_ size: ScreenSize, top: Int) -> Frame {
    let topics: [(String, [(String, String)])] = [
      ("Anywhere", [("Tab / Shift-Tab", "focus: query, bar, list"), ("/", "edit the query"),
        ("f", "filter sheet"), ("s", "filter sheet at Sort"), ("1-5  [  ]", "switch views"),
        ("Ctrl-F", "find a text in the list"),
        ("?", "this help"), ("q  Ctrl-C", "quit and print the command line")]),
      ("Query line", [("text", "type; results follow"), ("Tab", "complete a field, directive, value"),
        ("← → Home End", "move"),
        ("Ctrl-A Ctrl-E", "start, end"), ("Backspace Delete", "delete"),
        ("Ctrl-W Ctrl-U Ctrl-K", "delete word, to start, to end"), ("Enter Esc", "to the list")]),
      ("Feedback bar", [("← → Home End", "move among chips"), ("Space Enter", "remove or apply the chip")]),
      ("List", [("↑ ↓ PgUp PgDn", "move"), ("g G Home End", "first, last row"),
        ("← →", "scroll the columns"), ("Enter", "the record's page; on a heading, its group"),
        ("Backspace Esc", "back from a group to the groups"), ("m  M", "mark the record, all"),
        ("e", "export the marked, or all, to a file"), ("n  N", "find the next, previous")]),
      ("Record page", [("↑ ↓ PgUp PgDn", "scroll"), ("← →  [  ]", "previous, next record"),
        ("y", "copy the record (OSC 52)"), ("Esc Backspace q", "back to the list")]),
      ("Filter sheet", [("↑ ↓ PgUp PgDn", "move"), ("Tab Shift-Tab", "next, previous section"),
        ("Space", "choose, select, switch"), ("text", "search a long list, type a bound"),
        ("r", "reset to the view's defaults"), ("Enter", "apply"), ("Esc", "cancel")]),
      ("Help", [("↑ ↓ PgUp PgDn", "scroll"), ("Esc ?", "close")]),
    ]
    let width = size.columns
    let keyColumn = 24
    let wide = width >= keyColumn + 30
    var body: [StyledLine] = []
    for (topic, keys) in topics {
      if !body.isEmpty { body.append(StyledLine()) }
      var heading = LineBuilder(width: width, ascii: setup.ascii)
      heading.append(topic, .header)
      body.append(heading.line)
      for (key, meaning) in keys {
        var line = LineBuilder(width: width, ascii: setup.ascii)
        line.append("  " + key, .selected)
        if wide {
          line.pad(to: keyColumn)
          line.append(meaning)
        } else {
          body.append(line.line)
          line = LineBuilder(width: width, ascii: setup.ascii)
          line.append("      " + meaning)
        }
        body.append(line.line)
      }
    }
    var title = LineBuilder(width: width, ascii: setup.ascii)
    title.append("Keys", .title)
    title.append(" — Esc or ? to close", .dim)
    let shown = body.dropFirst(min(top, max(0, body.count - (size.rows - 1))))
    return Frame(lines: [title.line] + shown)
  }
}
