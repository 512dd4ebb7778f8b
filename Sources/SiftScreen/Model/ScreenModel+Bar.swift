import SiftCore

extension ScreenModel {
  /// The feedback bar's keys (Docs/Interactive.md, Feedback bar): ←/→ move among the chips,
  /// Space (or Enter) uses the focused one.
  mutating func handleBar(_ key: Key) -> [ScreenEffect] {
    guard let chips = page.table?.result.chips, !chips.isEmpty else { return [] }
    switch key {
    case .left: page.chip = max(0, page.chip - 1)
    case .right: page.chip = min(chips.count - 1, page.chip + 1)
    case .home: page.chip = 0
    case .end: page.chip = chips.count - 1
    case .text(" "), .enter: return useChip(page.chip)
    default: break
    }
    return []
  }

  /// Space on a chip: an active chip's term (or sort, group, aggregate) leaves the query text;
  /// an inactive term fast filter is appended to it; an inactive field fast filter opens the
  /// filter sheet on that field. A chip of the view's preset query cannot be removed.
  mutating func useChip(_ index: Int) -> [ScreenEffect] {
    guard let table = page.table, table.result.chips.indices.contains(index) else { return [] }
    let chip = table.result.chips[index]
    let shown = QueryText(table.query)
    if !chip.active {
      guard let filter = chip.fastFilter, let fastFilters = setup.views[active].view?.fastFilters,
        fastFilters.indices.contains(filter)
      else { return [] }
      switch fastFilters[filter] {
      case .term(_, let text):
        return replaceQuery(with: shown.appending(text))
      case .field:
        return openSheet(at: .field(chip.field ?? ""))
      }
    }
    let edited: QueryText?
    switch chip.kind {
    case .sort: edited = shown.removingDirective(.sort)
    case .group: edited = shown.removingDirective(.group)
    case .aggregate: edited = Directive(name: chip.label.lowercased()).map(shown.removingDirective)
    case .changes: edited = nil  // `--changes` is a flag of one-shot runs, never on the screen
    case .filter:
      let preset = setup.views[active].view?.query.parsed.topLevelFilters.count ?? 0
      let position = table.result.chips[..<index].filter { $0.kind == .filter && $0.active }.count
      edited = shown.removingFilter(position - preset)
    }
    guard let edited, edited != shown else { return [] }
    return replaceQuery(with: edited)
  }

  /// Puts `text` on the query line and runs it at once; a drill-down's way back is forgotten.
  mutating func replaceQuery(with text: QueryText) -> [ScreenEffect] {
    page.query.set(text.text)
    page.drilledFrom = nil
    return [listRun(afterPause: false)]
  }
}
