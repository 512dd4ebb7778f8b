import SiftCore

extension ScreenModel {
  /// Opens the filter sheet (`f`, `s`, or a field fast filter's chip) over the query line's text,
  /// or over the last good query when the line does not parse; asks for the values it shows.
  mutating func openSheet(at place: FilterSheet.Place?) -> [ScreenEffect] {
    guard let table = page.table else { return [] }
    // While the query line holds an error (one the parser finds, or an unknown field), the
    // sheet works on the last good query.
    let typed = QueryText(page.query.text)
    let base = typed.parsed == nil || page.error != nil ? QueryText(table.query) : typed
    var sheet = FilterSheet(
      base: base, result: table.result, view: setup.views[active].view,
      filterFields: filterFields(table.result), place: place)
    let requests = sheet.valueRequests(view: active, firstID: nextID)
    nextID += requests.count
    sheet.keepCursorInView(height: sheetHeight)
    overlay = .sheet(sheet)
    return requests.map { .run($0) }
  }

  /// The fields with a section in the sheet: the view's field fast filters; without a views file,
  /// every field (Docs/Interactive.md, Filter sheet).
  private func filterFields(_ result: ListResult) -> [String] {
    guard let view = setup.views[active].view else { return result.fields.map(\.name) }
    return view.fastFilters.compactMap {
      if case .field(let name, _) = $0 { return name.name }
      return nil
    }
  }

  /// The sheet's keys: Esc leaves it, Enter puts its query on the query line and runs it.
  mutating func handleSheet(_ key: Key, _ sheet: inout FilterSheet) -> [ScreenEffect] {
    let before = sheet.applied.text
    switch sheet.handle(key, height: sheetHeight) {
    case .stay:
      // The counts follow the choices: each section's values are counted again under the
      // sheet's query as it now stands (Docs/Interactive.md, Filter sheet).
      var effects: [ScreenEffect] = []
      if sheet.applied.text != before {
        let requests = sheet.valueRequests(view: active, firstID: nextID, afterPause: true)
        nextID += requests.count
        effects = requests.map { .run($0) }
      }
      overlay = .sheet(sheet)
      return effects
    case .cancel:
      overlay = nil
      return []
    case .apply(let text):
      overlay = nil
      return replaceQuery(with: text)
    }
  }

  /// Lines of the sheet's body between its top and bottom lines.
  var sheetHeight: Int { max(1, size.rows - 2) }
}
