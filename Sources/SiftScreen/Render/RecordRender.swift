import SiftCore

extension ScreenModel {
  /// The highlighted record's own page (Docs/Interactive.md, The record's page): the navigation
  /// bar with `‹ Back`, the title and the subtitle; every field, label and value, one a line,
  /// from line `top`; the position line at the bottom.
  func renderRecord(_ size: ScreenSize, top: Int) -> Frame {
    let width = size.columns
    var bar = LineBuilder(width: width, ascii: setup.ascii)
    bar.append(setup.ascii ? "< Back" : "‹ Back", .selected)
    bar.append("  ")
    bar.append(recordTitle, .title)
    let shown = setup.views[active]
    bar.append(" \(setup.ascii ? "-" : "—") " + (shown.view?.displayTitle ?? shown.sourceName), .dim)
    let body = recordBody(width: width)
    let height = recordHeight(rows: size.rows)
    var lines = [bar.line] + body.dropFirst(min(top, max(0, body.count - height))).prefix(height)
    while lines.count < size.rows - 1 { lines.append(StyledLine()) }
    var position = LineBuilder(width: width, ascii: setup.ascii)
    if let notice {
      position.append(notice.text, notice.isError ? .error : .dim)
    } else if let table = page.table, !table.result.rows.isEmpty {
      var text = "Record \(groupedDigits(page.place + 1)) of \(groupedDigits(table.rowCount))"
      if !recordMarkedFields(table).isEmpty { text += separator + "\(recordMark) filtered or sorted on" }
      let keys = setup.ascii ? "< > previous, next" : "← → previous, next"
      text += separator + keys + separator + "y copy" + separator + "Esc back"
      position.append(text, .dim)
    }
    return Frame(lines: Array(lines.prefix(max(0, size.rows - 1))) + [position.line])
  }

  /// Lines of the record's page between its navigation bar and its position line.
  func recordHeight(rows: Int) -> Int { max(1, rows - 2) }

  /// The value of the view's `key` field (Docs/Views.md) when the result has that column and
  /// the record a value in it; else the record's number.
  var recordTitle: String {
    let number = "Record \(groupedDigits(page.place + 1))"
    guard let result = page.table?.result, result.rows.indices.contains(page.row),
      let column = keyColumn(of: result), column < result.rows[page.row].count,
      !result.rows[page.row][column].isEmpty
    else { return number }
    return result.rows[page.row][column]
  }

  var recordMark: String { setup.ascii ? "*" : "•" }

  /// The columns the query filters, sorts or groups on, by their position in the result.
  func recordMarkedFields(_ table: ListTable) -> Set<Int> {
    let result = table.result
    var names = Set(result.sort.map { FieldResolver.normalize($0.field) })
    if let group = result.group { names.insert(FieldResolver.normalize(group)) }
    for chip in result.chips where chip.active && chip.kind == .filter {
      if let field = chip.field { names.insert(FieldResolver.normalize(field)) }
    }
    return Set(result.columns.indices.filter { names.contains(FieldResolver.normalize(result.columns[$0])) })
  }

  /// Every field of the highlighted record: a mark for the fields of the query, the label, and
  /// the value wrapped in the rest of the line (nested JSON one member a line, `—` for empty).
  func recordBody(width: Int) -> [StyledLine] {
    guard let table = page.table, table.result.rows.indices.contains(page.row) else {
      var line = LineBuilder(width: width, ascii: setup.ascii)
      line.append("No record", .dim)
      return [line.line]
    }
    let result = table.result
    let cells = result.rows[page.row]
    let labels = Labels(setup.views[active].view?.labels ?? [:])
    let names = result.columns.map { labels.label($0) }
    let marked = recordMarkedFields(table)
    let labelWidth = min(names.map { displayWidth(of: $0) }.max() ?? 0, max(8, width / 3))
    let valueColumn = 2 + labelWidth + 2
    let valueWidth = max(8, width - valueColumn)
    var lines: [StyledLine] = []
    for (column, name) in names.enumerated() {
      let value = column < cells.count ? cells[column] : ""
      let pieces = value.isEmpty ? [] : NestedValue.lines(value).flatMap { TextWrap.lines($0, width: valueWidth) }
      var line = LineBuilder(width: width, ascii: setup.ascii)
      line.append(marked.contains(column) ? recordMark + " " : "  ", .selected)
      line.append(truncate(name, toWidth: labelWidth, ellipsis: ellipsis), .header)
      line.pad(to: valueColumn)
      if let first = pieces.first {
        line.append(first)
      } else {
        line.append(setup.ascii ? "-" : "—", .dim)
      }
      lines.append(line.line)
      for piece in pieces.dropFirst() {
        var more = LineBuilder(width: width, ascii: setup.ascii)
        more.pad(to: valueColumn)
        more.append(piece)
        lines.append(more.line)
      }
    }
    return lines
  }
}
