import SiftCore

extension ScreenModel {
  /// The columns on screen at `width`, scrolled to the page's first column.
  /// A marked list gives its first two columns to the marks.
  /// The view's `key` column stays frozen on the left in place of the first.
  func columnWindow(_ table: ListTable, width: Int) -> ColumnWindow {
    ColumnWindow(
      table, start: page.firstColumn, width: width - markWidth,
      frozen: keyColumn(of: table.result) ?? 0)
  }

  /// The column of the view's `key` field (Docs/Views.md), when the result has it.
  func keyColumn(of result: ListResult) -> Int? {
    guard let key = setup.views[active].view?.key else { return nil }
    let folded = FieldResolver.normalize(key)
    return result.columns.firstIndex { FieldResolver.normalize($0) == folded }
  }

  /// The columns before the table for the marks: two while any record is marked
  /// (Docs/Interactive.md, Marking and export), else none.
  var markWidth: Int { page.marks.isEmpty ? 0 : 2 }

  /// The table's header and rule and `rows` lines of the list: records with group headings, a
  /// source error in place of the list, an input error on the last line.
  func listLines(width: Int, rows: Int) -> [StyledLine] {
    var lines: [StyledLine] = []
    func message(_ text: String, _ style: TextStyle) -> StyledLine {
      var line = LineBuilder(width: width, ascii: setup.ascii)
      line.append(text, style)
      return line.line
    }
    if let error = page.sourceError {
      return [message(error, .error)]
    }
    guard let table = page.table else {
      return [StyledLine(), StyledLine(), message(page.progress == nil ? "Reading\(ellipsis)" : "", .dim)]
    }
    let window = columnWindow(table, width: width)
    lines.append(row(table.result.columns, table, window: window, width: width, style: .header))
    var rule = LineBuilder(width: width, ascii: setup.ascii)
    rule.pad(to: markWidth)
    for (position, columnWidth) in window.widths.enumerated() {
      if position > 0 { rule.append(gap(after: position - 1, window), .dim) }
      rule.append(String(repeating: setup.ascii ? "-" : "─", count: max(0, columnWidth)), .dim)
    }
    lines.append(rule.line)
    var body = rows
    let inputError = table.result.inputError
    if inputError != nil { body -= 1 }
    if table.result.rows.isEmpty {
      lines.append(message("No records match", .dim))
    } else {
      for line in table.lines.dropFirst(page.top).prefix(max(0, body)) {
        switch line {
        case .blank: lines.append(StyledLine())
        case .heading(let index):
          let group = table.result.groups[index]
          // The highlight on a heading: the last heading above the highlighted row (Drilling down).
          let highlighted =
            page.onHeading && focus == .list && group.row == page.row
            && !table.result.groups[(index + 1)...].contains { $0.row == page.row }
          lines.append(
            message(
              "\(group.heading.keyText(ascii: setup.ascii)) (\(group.heading.summaryText))",
              highlighted ? .focused : .groupHeading))
        case .row(let index):
          let highlighted = index == page.row && focus == .list && !page.onHeading
          lines.append(
            row(table.result.rows[index], table, window: window, width: width,
                style: highlighted ? .focused : .plain, marked: page.marks.contains(table.result.firstRow + index)))
        }
      }
    }
    if let inputError {
      while lines.count < rows + 1 { lines.append(StyledLine()) }
      lines.append(message(inputError, .error))
    }
    return lines
  }

  /// The space after the `position`th column on screen: two columns, three after the frozen
  /// column while columns are scrolled out beside it.
  private func gap(after position: Int, _ window: ColumnWindow) -> String {
    position == 0 && window.hiddenLeft ? "   " : "  "
  }

  /// One line of the table: cells cut to their column with `…`, numbers right-aligned, two
  /// spaces apart; a focused row is padded to the width so its highlight spans the line. The
  /// header marks columns scrolled out with `‹` after the frozen column and `›` at the end.
  private func row(
    _ cells: [String], _ table: ListTable, window: ColumnWindow, width: Int, style: TextStyle,
    marked: Bool = false
  ) -> StyledLine {
    var line = LineBuilder(width: width, ascii: setup.ascii)
    let (left, right) = setup.ascii ? ("<", ">") : ("‹", "›")
    if markWidth > 0 { line.append(marked ? recordMark + " " : "  ", marked ? .selected : style) }
    let needle = style == .header ? [] : Self.foldedCharacters(findText)
    for (position, column) in window.columns.enumerated() {
      let columnWidth = max(0, window.widths[position])
      if position > 0 {
        if style == .header && position == 1 && window.hiddenLeft {
          line.append(" ", style)
          line.append(left, .dim)
          line.append(" ", style)
        } else {
          line.append(gap(after: position - 1, window), style)
        }
      }
      let cell = truncate(column < cells.count ? cells[column] : "", toWidth: columnWidth, ellipsis: ellipsis)
      let gap = columnWidth - displayWidth(of: cell)
      let numeric = column < table.result.numeric.count && table.result.numeric[column]
      let isLast = position == window.columns.count - 1
      let padding = String(repeating: " ", count: gap)
      if numeric && style != .header { line.append(padding, style) }
      // The find text is highlighted where it stands (Docs/Interactive.md, Find).
      if let found = Self.match(needle, in: cell) {
        let characters = Array(cell)
        line.append(String(characters[..<found.lowerBound]), style)
        line.append(String(characters[found]), .selected)
        line.append(String(characters[found.upperBound...]), style)
      } else {
        line.append(cell, style)
      }
      if !(numeric && style != .header) && !isLast { line.append(padding, style) }
    }
    if style == .header && window.hiddenRight {
      line.pad(to: width - 1)
      line.append(right, .dim)
    }
    if style == .focused { line.pad(to: width, style) }
    return line.line
  }
}
