import SiftCore

extension ScreenModel {
  /// The columns that fit `width` and their widths, as the one-shot table lays them out.
  func columnLayout(_ table: ListTable, width: Int) -> (widths: [Int], shown: Int) {
    TableWriter.layout(
      table.naturalWidths, headerWidths: table.headerWidths, cuttable: table.cuttable,
      into: width)
  }

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
    let layout = columnLayout(table, width: width)
    let widths = layout.widths
    lines.append(row(table.result.columns, table, widths: widths, width: width, style: .header))
    var rule = LineBuilder(width: width, ascii: setup.ascii)
    rule.append(
      widths.map { String(repeating: setup.ascii ? "-" : "─", count: $0) }.joined(separator: "  "), .dim)
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
          let heading = table.result.groups[index].heading
          lines.append(
            message("\(heading.keyText(ascii: setup.ascii)) (\(heading.summaryText))", .groupHeading))
        case .row(let index):
          let highlighted = index == page.row && focus == .list
          lines.append(
            row(table.result.rows[index], table, widths: widths, width: width,
                style: highlighted ? .focused : .plain))
        }
      }
    }
    if let inputError {
      while lines.count < rows + 1 { lines.append(StyledLine()) }
      lines.append(message(inputError, .error))
    }
    return lines
  }

  /// One line of the table: cells cut to their column with `…`, numbers right-aligned, two
  /// spaces apart; a focused row is padded to the width so its highlight spans the line.
  private func row(
    _ cells: [String], _ table: ListTable, widths: [Int], width: Int, style: TextStyle
  ) -> StyledLine {
    var line = LineBuilder(width: width, ascii: setup.ascii)
    for (column, columnWidth) in widths.enumerated() {
      if column > 0 { line.append("  ", style) }
      let cell = truncate(column < cells.count ? cells[column] : "", toWidth: columnWidth, ellipsis: ellipsis)
      let gap = columnWidth - displayWidth(of: cell)
      let numeric = column < table.result.numeric.count && table.result.numeric[column]
      let isLast = column == widths.count - 1
      if numeric && style != .header {
        line.append(String(repeating: " ", count: gap) + cell, style)
      } else {
        line.append(cell + (isLast ? "" : String(repeating: " ", count: gap)), style)
      }
    }
    if style == .focused { line.pad(to: width, style) }
    return line.line
  }
}
