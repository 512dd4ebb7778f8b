import SiftCore

extension ScreenModel {
  /// Whether the highlighted row is the first of its group, so the highlight can rest on the
  /// group's heading above it (Docs/Interactive.md, Drilling down).
  var rowStartsGroup: Bool {
    page.table?.result.groups.contains { $0.row == page.row } ?? false
  }

  /// Enter on a group heading: each of the group's values becomes a filter at the end of the
  /// query (`customer:"Acme"`, `-has:customer` for the group of empty values) and the `group:`
  /// directive leaves it, both through the parser's spans; the query before is kept for
  /// Backspace and Esc. Nothing happens when the grouping is not the query's own (a view's).
  mutating func drillDown() -> [ScreenEffect] {
    guard let table = page.table, let group = table.result.groups.last(where: { $0.row == page.row })
    else { return [] }
    let shown = QueryText(table.query)
    guard let clause = shown.parsed?[.group], case .group(let fields) = clause.value,
      fields.count == group.heading.keys.count
    else { return [] }
    var edited = shown.removingDirective(.group)
    for (field, key) in zip(fields, group.heading.keys) {
      let name = QueryText.fieldText(field.name)
      // A time bucket's heading becomes its period (`date:2024-06`, `date:2024-04..2024-06`;
      // Docs/QueryLanguage.md, Time buckets); a value that is not a date, its own text.
      let value =
        field.bucket?.periodValue(ofLabel: key)
        ?? Literal(key, quoted: true, span: Span(0, 0)).canonicalText
      edited = edited.appending(key.isEmpty ? "-has:\(name)" : "\(name):\(value)")
    }
    page.onHeading = false
    let effects = replaceQuery(with: edited)
    page.drilledFrom = table.query
    return effects
  }

  /// Backspace or Esc in the list after a drill-down: the query before it comes back.
  mutating func drillBack() -> [ScreenEffect] {
    guard let previous = page.drilledFrom else { return [] }
    return replaceQuery(with: QueryText(previous))
  }
}
